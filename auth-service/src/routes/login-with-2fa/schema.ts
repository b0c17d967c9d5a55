import * as z from 'zod';

import { locale, opaqueToken } from '#src/http/validate';

/** POST /login_with_2fa: the challenge ticket from /login or /quick-auth and the mailed code. */
export const LoginWith2faBody = z.object({
  token: opaqueToken,
  code: z
    .string({
      error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-code-format'),
    })
    .min(1, 'field-required')
    .regex(/^\d{6}$/, 'invalid-code-format'),
  locale,
});

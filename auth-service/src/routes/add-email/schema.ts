import * as z from 'zod';

import { email, locale, opaqueToken } from '#src/http/validate';

/**
 * POST /add-email (signed in, an account without an address): first `email`, answered with a
 * challenge ticket while a code goes to the address; then `token` and `code`.
 */
export const AddEmailStart = z.object({ email, locale });
export const AddEmailConfirm = z.object({
  token: opaqueToken,
  code: z
    .string({
      error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-code-format'),
    })
    .regex(/^\d{6}$/, 'invalid-code-format'),
  locale,
});

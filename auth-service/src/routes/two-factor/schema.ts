import * as z from 'zod';

import { locale, opaqueToken } from '#src/http/validate';

/**
 * POST /two-factor (signed in): `enabled` is the wanted state. An account with a password sends
 * it as `password`; one without a password first gets a code by e-mail (the answer is a
 * challenge ticket), then sends `token` and `code` with the same `enabled`.
 */
export const TwoFactorBody = z.object({
  enabled: z.boolean({
    error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-request'),
  }),
  // Checked for presence by the handler: only accounts with a password need it.
  password: z.string({ error: 'invalid-request' }).max(1024, 'password-too-long').optional(),
  token: opaqueToken.optional(),
  code: z
    .string({ error: 'invalid-code-format' })
    .regex(/^\d{6}$/, 'invalid-code-format')
    .optional(),
  locale,
});
export type TwoFactorBody = z.infer<typeof TwoFactorBody>;

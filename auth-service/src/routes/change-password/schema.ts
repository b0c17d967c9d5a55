import * as z from 'zod';

import { confirmPassword, locale, opaqueToken, password } from '#src/http/validate';

/**
 * POST /change-password, two ways: with the reset `token` from the e-mailed link (spec
 * section 7), or signed in (Bearer access token) with `currentPassword`.
 */
export const ResetChangeBody = z.object({ password, confirmPassword, token: opaqueToken, locale });
export const SignedInChangeBody = z.object({
  password,
  confirmPassword,
  currentPassword: password,
  locale,
});

/** POST /change-password/check: is the e-mailed link's token still good? */
export const ResetTokenCheckBody = z.object({ token: opaqueToken });

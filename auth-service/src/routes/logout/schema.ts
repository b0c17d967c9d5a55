import * as z from 'zod';

import { locale, opaqueToken } from '#src/http/validate';

/**
 * POST /logout: the refresh token of the session to end; `all: true` ends every session of
 * the account (its access tokens too), when that token is live.
 */
export const LogoutBody = z.object({
  refreshToken: opaqueToken,
  all: z.boolean({ error: 'invalid-request' }).optional(),
  locale,
});

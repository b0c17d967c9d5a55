import * as z from 'zod';

import { locale, opaqueToken } from '#src/http/validate';

/** POST /logout: the refresh token of the session to end. */
export const LogoutBody = z.object({ refreshToken: opaqueToken, locale });

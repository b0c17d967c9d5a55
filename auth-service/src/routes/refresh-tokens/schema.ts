import * as z from 'zod';

import { locale, opaqueToken } from '#src/http/validate';

/** POST /refresh_tokens. */
export const RefreshBody = z.object({ refreshToken: opaqueToken, locale });

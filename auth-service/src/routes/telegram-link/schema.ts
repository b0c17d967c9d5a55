import * as z from 'zod';

import { locale } from '#src/http/validate';

/** POST /telegram-link, /telegram-link/status and /telegram-unlink (signed in): no fields. */
export const SignedInBody = z.object({ locale });

import * as z from 'zod';

import { email, locale, password } from '#src/http/validate';

/** POST /login (spec section 7). */
export const LoginBody = z.object({ email, password, locale });

import * as z from 'zod';

import { confirmPassword, email, locale, password, referralCode } from '#src/http/validate';

/** POST /register: spec section 7 plus the optional confirmation the sign-up form has. */
export const RegisterBody = z.object({ email, password, confirmPassword, referralCode, locale });

import * as z from 'zod';

import { email, locale } from '#src/http/validate';

/** POST /reset_password. */
export const ResetPasswordBody = z.object({ email, locale });

import * as z from 'zod';

import { email, locale, referralCode } from '#src/http/validate';

/** POST /quick-auth: the create-transaction page's e-mail-only path. */
export const QuickAuthBody = z.object({ email, referralCode, locale });

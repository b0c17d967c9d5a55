import * as z from 'zod';

import { MAX_INIT_DATA_LENGTH } from '#src/crypto/telegram';
import { referralCode } from '#src/http/validate';

const initData = z
  .string({ error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-request') })
  .min(1, 'field-required')
  .max(MAX_INIT_DATA_LENGTH, 'invalid-init-data');

/**
 * POST /telegram-auth takes the mini-app's raw initData: as the whole body (text/plain), or
 * as `{ "initData": "...", "referralCode": "..." }` in JSON. The referral code (the deep link's
 * `ref_` part) counts only when the account is created.
 */
export const TelegramAuthBody = z.object({
  initData,
  referralCode,
  locale: z.string().max(35).optional(),
});
export const RawInitData = initData;

import * as z from 'zod';

import { MAX_INIT_DATA_LENGTH } from '#src/crypto/telegram';

const initData = z
  .string({ error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-request') })
  .min(1, 'field-required')
  .max(MAX_INIT_DATA_LENGTH, 'invalid-init-data');

/**
 * POST /telegram-auth takes the mini-app's raw initData: as the whole body (text/plain), or
 * as `{ "initData": "..." }` in JSON.
 */
export const TelegramAuthBody = z.object({ initData, locale: z.string().max(35).optional() });
export const RawInitData = initData;

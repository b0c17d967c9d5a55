import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Telegram Mini App init data, checked as Telegram documents it
 * (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
 * secret = HMAC-SHA256(key "WebAppData", bot token); hash = HMAC-SHA256(key secret,
 * data-check-string), the data-check-string being every field but `hash`, sorted by key, as
 * `key=value` lines. Unlike @telegram-apps/init-data-node (`!==`, 24 h by default), the
 * comparison is constant-time and the age limit is minutes.
 */

export interface TelegramUser {
  id: number;
  username?: string | undefined;
  languageCode?: string | undefined;
}

export type InitDataResult =
  | { ok: true; user: TelegramUser; authDate: number }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'future' };

/** Longest init data accepted; Telegram's are well under 1 KiB. */
export const MAX_INIT_DATA_LENGTH = 4096;
/** How far in the future auth_date may be (clock skew between Telegram and us), seconds. */
export const FUTURE_SKEW_SECONDS = 30;

/** The HMAC key derived from a bot token; compute once per token. */
export const telegramSecretKey = (botToken: string): Buffer =>
  createHmac('sha256', 'WebAppData').update(botToken).digest();

function parseUser(raw: string | undefined): TelegramUser | undefined {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { id, username, language_code: languageCode } = parsed as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
  return {
    id,
    username: typeof username === 'string' && username.length <= 64 ? username : undefined,
    languageCode: typeof languageCode === 'string' ? languageCode : undefined,
  };
}

/** Validates raw init data (the query string the mini-app got from Telegram). */
export function validateInitData(
  initData: string,
  secretKey: Buffer,
  maxAgeSeconds: number,
  nowMs: number,
): InitDataResult {
  if (initData.length === 0 || initData.length > MAX_INIT_DATA_LENGTH) {
    return { ok: false, reason: 'malformed' };
  }
  const params = new URLSearchParams(initData);
  const fields = new Map<string, string>();
  for (const [key, value] of params) {
    // A repeated key makes "the" value ambiguous between us and whoever checks it next.
    if (fields.has(key)) return { ok: false, reason: 'malformed' };
    fields.set(key, value);
  }
  const hash = fields.get('hash');
  const authDateText = fields.get('auth_date');
  if (hash === undefined || !/^[0-9a-f]{64}$/.test(hash)) return { ok: false, reason: 'malformed' };
  if (authDateText === undefined || !/^\d{1,12}$/.test(authDateText)) {
    return { ok: false, reason: 'malformed' };
  }
  fields.delete('hash');
  const dataCheckString = [...fields.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
  const expected = createHmac('sha256', secretKey).update(dataCheckString).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) {
    return { ok: false, reason: 'signature' };
  }
  // Only signed data is looked at from here on.
  const authDate = Number(authDateText);
  const nowSeconds = Math.floor(nowMs / 1000);
  if (authDate > nowSeconds + FUTURE_SKEW_SECONDS) return { ok: false, reason: 'future' };
  if (nowSeconds - authDate > maxAgeSeconds) return { ok: false, reason: 'expired' };
  const user = parseUser(fields.get('user'));
  if (!user) return { ok: false, reason: 'malformed' };
  return { ok: true, user, authDate };
}

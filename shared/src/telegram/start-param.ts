/*
 * The mini-app's deep link payload: Telegram's `startapp` parameter (t.me/<bot>/<app>?startapp=…)
 * and the bot's `/start` payload. Telegram allows only `A-Z a-z 0-9 _ -` and at most 512
 * characters there, so the payload is a list of `__`-separated parts:
 *
 *   ref_<name>              referral name (3-20 letters and digits, spec section 5)
 *   order_<uuid>            open this order
 *   pair_<from>-to-<to>     open the exchange for this pair (the web's pair slug)
 *
 * e.g. `pair_btc-to-usdt__ref_alice`. Unknown or malformed parts are ignored: a link someone
 * mangled still opens the app.
 */

export interface StartParam {
  referralCode?: string;
  orderId?: string;
  pair?: { from: string; to: string };
}

/** Telegram's limit for `startapp` and `/start` payloads. */
export const START_PARAM_MAX_LENGTH = 512;

const SEPARATOR = '__';
const REFERRAL = /^ref_([A-Za-z0-9]{3,20})$/;
const ORDER = /^order_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const PAIR = /^pair_([a-z0-9]{2,16})-to-([a-z0-9]{2,16})$/i;

export function parseStartParam(raw: string | null | undefined): StartParam {
  const result: StartParam = {};
  if (!raw || raw.length > START_PARAM_MAX_LENGTH) return result;
  for (const part of raw.split(SEPARATOR)) {
    const referral = REFERRAL.exec(part);
    if (referral) {
      result.referralCode ??= referral[1]!;
      continue;
    }
    const order = ORDER.exec(part);
    if (order) {
      result.orderId ??= order[1]!.toLowerCase();
      continue;
    }
    const pair = PAIR.exec(part);
    if (pair) result.pair ??= { from: pair[1]!.toUpperCase(), to: pair[2]!.toUpperCase() };
  }
  return result;
}

/** The payload for a deep link; parts that would not survive parsing are left out. */
export function buildStartParam(param: StartParam): string {
  const parts: string[] = [];
  if (param.orderId && ORDER.test(`order_${param.orderId}`)) parts.push(`order_${param.orderId}`);
  if (param.pair) {
    const pair = `pair_${param.pair.from.toLowerCase()}-to-${param.pair.to.toLowerCase()}`;
    if (PAIR.test(pair)) parts.push(pair);
  }
  if (param.referralCode && REFERRAL.test(`ref_${param.referralCode}`)) {
    parts.push(`ref_${param.referralCode}`);
  }
  return parts.join(SEPARATOR);
}

/**
 * The private chat with the bot, opened with `/start <payload>` (Telegram's t.me deep link; the
 * bot passes the payload on to the mini-app as its start parameter). Works in groups, where a
 * web_app button is refused, and as a link people share.
 */
export function botChatLink(username: string, payload = ''): string {
  const url = new URL(`https://t.me/${username}`);
  if (payload) url.searchParams.set('start', payload);
  return url.toString();
}

/** The referral_code cookie the root loader sets from `?ref=` (spec section 4). */
export const REFERRAL_COOKIE = 'referral_code';
const REFERRAL_CODE = /^[A-Za-z0-9]{3,20}$/;

/** The referral code in a Cookie header (or `document.cookie`), when it is a valid one. */
export function referralCodeFrom(cookies: string | null | undefined): string | undefined {
  for (const part of (cookies ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== REFERRAL_COOKIE) continue;
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      return undefined;
    }
    return REFERRAL_CODE.test(value) ? value : undefined;
  }
  return undefined;
}

import { parse } from 'cookie';

// The zod-free patterns only: every page loads this module (the root loader's `?ref=`).
import { REFERRAL_NAME } from '@app/shared/forms/patterns';

/** The referral_code cookie the root loader sets from `?ref=`, for 30 days (spec section 4). */
export const REFERRAL_COOKIE = 'referral_code';
export const REFERRAL_COOKIE_MAX_AGE = 2_592_000;

/** Whether a `?ref=` value or cookie is a referral name at all. */
export const isReferralCode = (value: string | undefined): value is string =>
  value !== undefined && REFERRAL_NAME.test(value);

/** The referral code in a Cookie header (or `document.cookie`), when it is a valid one. */
export function referralCodeFrom(cookies: string | null | undefined): string | undefined {
  const value = parse(cookies ?? '')[REFERRAL_COOKIE];
  return isReferralCode(value) ? value : undefined;
}

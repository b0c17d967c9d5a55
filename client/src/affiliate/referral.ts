import { trimZeros } from '@app/shared/exchange';

/*
 * The affiliate program's figures as both clients show them: the portal's affiliate page and
 * the mini-app's invitation (issue 22). Rates stay decimal strings; nothing becomes a float.
 */

/**
 * A rate as a percentage, by moving the decimal point (exact): `0.005` → `0.5`,
 * `0.0125` → `1.25`, `1` → `100`.
 */
export function percentOf(rate: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(rate.trim());
  if (!match) return rate;
  const int = match[1] ?? '0';
  const frac = (match[2] ?? '').padEnd(2, '0');
  const whole = `${int}${frac.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = frac.slice(2);
  return trimZeros(rest ? `${whole}.${rest}` : whole);
}

/** The referral link of a referral name, on the public site (spec section 5: `/?ref=`). */
export function referralLink(origin: string, referralName: string): string {
  return `${origin.replace(/\/$/, '')}/?ref=${encodeURIComponent(referralName)}`;
}

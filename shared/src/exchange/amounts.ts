import { formatDecimal } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';

/*
 * Amounts stay decimal strings from the input to the API: nothing here turns one into a float.
 */

const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

/** What a person typed, with a decimal comma accepted and spaces dropped; '' when empty. */
export function normalizeAmount(typed: string): string {
  return typed.replace(/\s/g, '').replace(',', '.');
}

/** A positive decimal with at most `precision` decimals. */
export function isValidAmount(amount: string, precision: number): boolean {
  if (!AMOUNT.test(amount)) return false;
  const decimals = amount.split('.')[1]?.length ?? 0;
  return decimals <= precision && /[1-9]/.test(amount);
}

/** `0.10000000` → `0.1`, `12.000` → `12`. */
export function trimZeros(amount: string): string {
  return amount.includes('.') ? amount.replace(/0+$/, '').replace(/\.$/, '') : amount;
}

/** Significant digits a rate keeps on screen. */
export const RATE_SIGNIFICANT_DIGITS = 8;

/** `digits` plus one in its last place: `0999` → `1000`, `999` → `1000`. */
function incremented(digits: string): string {
  const out = digits.split('');
  let at = out.length - 1;
  while (at >= 0 && out[at] === '9') out[at--] = '0';
  if (at < 0) return `1${out.join('')}`;
  out[at] = String(Number(out[at]) + 1);
  return out.join('');
}

/**
 * A rate for display: rounded half up to `significant` significant digits, by string arithmetic
 * (no float, and no decimal library in the page's bundle), trailing zeros dropped.
 * `93240.3012345678` → `93240.301`, `0.0000107234567` → `0.000010723457`. The integer part is
 * never cut: `123456789.987` → `123456790`. Anything but a plain decimal comes back unchanged.
 */
export function formatRate(rate: string, significant = RATE_SIGNIFICANT_DIGITS): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(rate.trim());
  if (!match) return rate;
  const int = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const frac = match[2] ?? '';
  // Decimals to keep: the significant digits are counted from the first non-zero one.
  const decimals =
    int === '0'
      ? frac.length - frac.replace(/^0+/, '').length + significant
      : Math.max(0, significant - int.length);
  if (frac.length <= decimals) return trimZeros(frac ? `${int}.${frac}` : int);
  const kept = `${int}${frac.slice(0, decimals)}`;
  const digits = frac.charAt(decimals) >= '5' ? incremented(kept) : kept;
  const intLength = digits.length - decimals;
  return trimZeros(
    decimals > 0 ? `${digits.slice(0, intLength)}.${digits.slice(intLength)}` : digits,
  );
}

/** A rate to its significant digits (formatRate), written as `locale` writes numbers. */
export const formatRateIn = (rate: string, locale: Locale): string =>
  formatDecimal(formatRate(rate), locale);

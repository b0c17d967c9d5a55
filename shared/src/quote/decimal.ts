import Decimal from 'decimal.js';

/**
 * The decimal type the quote math runs on. 200 significant digits keep every product of the
 * bounded inputs (at most {@link MAX_DIGITS} digits either side of the point) exact, so the only
 * inexact steps are the divisions, and those round in a chosen direction ({@link DecDown},
 * {@link DecUp}). Plain notation is forced so `toString()` never yields `1e-7`.
 */
export const Dec = Decimal.clone({
  precision: 200,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -1000,
  toExpPos: 1000,
});

/** {@link Dec} whose divisions truncate toward zero: for figures that must never be overstated. */
export const DecDown = Dec.clone({ rounding: Decimal.ROUND_DOWN });

/** {@link Dec} whose divisions round away from zero: for figures that must never be understated. */
export const DecUp = Dec.clone({ rounding: Decimal.ROUND_UP });

/** An exact decimal value of the quote math. */
export type DecimalValue = Decimal;

/** Most digits accepted on either side of the decimal point in any input. */
export const MAX_DIGITS = 40;

const DECIMAL_PATTERN = new RegExp(`^-?\\d{1,${MAX_DIGITS}}(\\.\\d{1,${MAX_DIGITS}})?$`);

/**
 * Parses a plain decimal string (`"12"`, `"0.0005"`, `"-3.5"`); no exponent, sign `+`, spaces
 * or thousands separators. Returns `null` for anything else, so a wire value is never guessed at.
 */
export function parseDecimal(value: unknown): Decimal | null {
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) return null;
  return new Dec(value);
}

/** `value` on the grid of `places` decimals, rounded down (toward zero for positive values). */
export function floorTo(value: Decimal, places: number): Decimal {
  return value.toDecimalPlaces(places, Decimal.ROUND_FLOOR);
}

/** `value` on the grid of `places` decimals, rounded up. */
export function ceilTo(value: Decimal, places: number): Decimal {
  return value.toDecimalPlaces(places, Decimal.ROUND_CEIL);
}

/** `a × b / c` rounded down at the last of 200 digits (exact product, one directed division). */
export function mulDivDown(a: Decimal, b: Decimal, c: Decimal): Decimal {
  return new DecDown(a.times(b)).div(c);
}

/** `a × b / c` rounded up at the last of 200 digits (exact product, one directed division). */
export function mulDivUp(a: Decimal, b: Decimal, c: Decimal): Decimal {
  return new DecUp(a.times(b)).div(c);
}

/** The larger of two decimals. */
export function maxOf(a: Decimal, b: Decimal): Decimal {
  return a.greaterThanOrEqualTo(b) ? a : b;
}

/** The smaller of two decimals. */
export function minOf(a: Decimal, b: Decimal): Decimal {
  return a.lessThanOrEqualTo(b) ? a : b;
}

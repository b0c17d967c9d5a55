import Decimal from 'decimal.js';

// Prices are exact decimals end to end (ARCHITECTURE "Money and rates"): 60 significant digits
// and plain notation, so a string in is a string out and `1e-7` never reaches the database.
const Price = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -100,
  toExpPos: 100,
});

/** Significant digits kept of a derived price (an inverse or a USD→USDT conversion). */
export const DERIVED_PRICE_DIGITS = 12;

const PLAIN_POSITIVE = /^\d{1,30}(\.\d{1,30})?$/;

/** The canonical form of a positive plain decimal (`"97834.20000000"` → `"97834.2"`), else null. */
export function canonicalPrice(value: unknown): string | null {
  if (typeof value !== 'string' || !PLAIN_POSITIVE.test(value)) return null;
  const price = new Price(value);
  return price.greaterThan(0) ? price.toString() : null;
}

/** `numerator / denominator` of two canonical prices, to {@link DERIVED_PRICE_DIGITS} digits. */
export function dividePrices(numerator: string, denominator: string): string {
  return new Price(numerator)
    .div(denominator)
    .toSignificantDigits(DERIVED_PRICE_DIGITS, Decimal.ROUND_HALF_EVEN)
    .toString();
}

/** `1 / price`: the USDT price of a currency quoted as "units per USDT" (e.g. `USDTUAH`). */
export function invertPrice(price: string): string {
  return dividePrices('1', price);
}

/**
 * How far `next` moved from `previous`, as a factor ≥ 1 (`2` for doubling or halving);
 * compared exactly, never through a float.
 */
export function movedBeyond(previous: string, next: string, factor: number): boolean {
  const a = new Price(previous);
  const b = new Price(next);
  const limit = new Price(String(factor));
  return b.greaterThan(a.times(limit)) || a.greaterThan(b.times(limit));
}

/** USDT has a price of exactly 1 on every network (our pivot currency). */
export function isUsdt(ref: { kind: string; symbol: string }): boolean {
  return ref.kind === 'crypto' && ref.symbol === 'USDT';
}

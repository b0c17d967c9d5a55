import { normalizeAmount, trimZeros } from '#app/exchange/amounts.ts';

/*
 * Exact decimal strings for the rates and margins the customers pages show and send: typed
 * values are checked and normalised here, margins move between a fraction (what the table
 * holds, 0.015) and a percentage (what people read, 1.5), and a price is multiplied by a margin
 * with BigInt. Nothing here turns a rate into a float (decision 011: `numeric` is a string).
 */

/** A positive decimal as the API takes it: at most 18 digits before and after the point. */
const RATE = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

/** A typed rate (comma or point, spaces ignored) as the API takes it, or undefined if invalid. */
export function parseRate(typed: string): string | undefined {
  const value = normalizeAmount(typed);
  if (!RATE.test(value) || !/[1-9]/.test(value)) return undefined;
  return trimZeros(value);
}

/** A margin's percentage, 0 ≤ p < 100 with at most 4 decimals (the column is numeric(8, 6)). */
const PERCENT = /^(?:0|[1-9]\d?)(?:\.\d{1,4})?$/;

/** A typed percentage as the fraction the table holds (`2.5` → `0.025`), or undefined. */
export function percentToFraction(typed: string): string | undefined {
  const value = normalizeAmount(typed);
  if (!PERCENT.test(value)) return undefined;
  const [int = '0', frac = ''] = value.split('.');
  const digits = `${int.padStart(2, '0')}${frac}`;
  const fraction = `0.${digits}`.replace(/^0\.0*$/, '0');
  return trimZeros(fraction);
}

/** A whole number of orders, 0 or more, or undefined. */
export function parseCount(typed: string): number | undefined {
  const value = typed.trim();
  if (!/^(?:0|[1-9]\d{0,8})$/.test(value)) return undefined;
  return Number(value);
}

interface Scaled {
  digits: bigint;
  scale: number;
}

function scaled(decimal: string): Scaled {
  const [int = '0', frac = ''] = decimal.trim().split('.');
  return { digits: BigInt(`${int}${frac}` || '0'), scale: frac.length };
}

function toDecimal({ digits, scale }: Scaled): string {
  const negative = digits < 0n;
  const text = (negative ? -digits : digits).toString().padStart(scale + 1, '0');
  const int = text.slice(0, text.length - scale);
  const frac = text.slice(text.length - scale);
  return `${negative ? '-' : ''}${trimZeros(scale > 0 ? `${int}.${frac}` : int)}`;
}

/** `a × b`, exactly. */
export function multiply(a: string, b: string): string {
  const x = scaled(a);
  const y = scaled(b);
  return toDecimal({ digits: x.digits * y.digits, scale: x.scale + y.scale });
}

/** `a + b`, exactly (either may be negative). */
export function add(a: string, b: string): string {
  const x = scaled(a.replace(/^-/, ''));
  const y = scaled(b.replace(/^-/, ''));
  const scale = Math.max(x.scale, y.scale);
  const sx = x.digits * 10n ** BigInt(scale - x.scale) * (a.startsWith('-') ? -1n : 1n);
  const sy = y.digits * 10n ** BigInt(scale - y.scale) * (b.startsWith('-') ? -1n : 1n);
  return toDecimal({ digits: sx + sy, scale });
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (non-negative decimals). */
export function compare(a: string, b: string): -1 | 0 | 1 {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  const sx = x.digits * 10n ** BigInt(scale - x.scale);
  const sy = y.digits * 10n ** BigInt(scale - y.scale);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}

/**
 * What a level charges for a currency (decision 008), in USDT per unit: the customer buys it at
 * `market × (1 + buy margin)` and sells it at `market × (1 − sell margin)`.
 */
export function levelPrices(
  market: string,
  level: { buy_margin: string; sell_margin: string },
): { buy: string; sell: string } {
  return {
    buy: multiply(market, add('1', level.buy_margin)),
    sell: multiply(market, add('1', `-${level.sell_margin}`)),
  };
}

/** Escapes a search text for `_ilike` and matches it anywhere (decision 012). */
export const containsPattern = (search: string): string =>
  `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

import { Dec } from '@app/shared/quote';

import { normalizeAmount, trimZeros } from '@app/shared/exchange';

/*
 * Exact decimal strings for the rates and margins the customers pages show and send: typed
 * values are checked and normalised here, margins move between a fraction (what the table
 * holds, 0.015) and a percentage (what people read, 1.5), and a price is multiplied by a margin
 * with the quote math's exact decimal type (`Dec`, decimal.js). Nothing here turns a rate into a float (decision 011: `numeric` is a string).
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

/** `a × b`, exactly (the quote math's decimal type). */
export const multiply = (a: string, b: string): string => new Dec(a).times(b).toString();

/** `a + b`, exactly (either may be negative). */
export const add = (a: string, b: string): string => new Dec(a).plus(b).toString();

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export const compare = (a: string, b: string): -1 | 0 | 1 => new Dec(a).comparedTo(b) as -1 | 0 | 1;

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

export { containsPattern } from '../search-pattern.ts';

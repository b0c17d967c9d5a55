import { parseDecimal, type DecimalValue } from './decimal.ts';
import type { CurrencyInfo, CustomRate, QuoteError, QuoteInput } from './types.ts';
import { isValidWindow } from './window.ts';

/** A currency's figures, parsed. */
export interface ParsedCurrency {
  code: string;
  precision: number;
  min: DecimalValue;
  max: DecimalValue;
}

/** The non-amount inputs of a quote, parsed and checked. */
export interface ParsedInput {
  from: ParsedCurrency;
  to: ParsedCurrency;
  priceFrom: DecimalValue;
  priceTo: DecimalValue;
  sellMargin: DecimalValue;
  buyMargin: DecimalValue;
  customSell: DecimalValue | null;
  customBuy: DecimalValue | null;
  now: Date;
  fetchedFrom: Date;
  fetchedTo: Date;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: QuoteError };

class InvalidInput extends Error {
  constructor(readonly field: string) {
    super(`invalid quote input: ${field}`);
  }
}

function positive(value: unknown, field: string): DecimalValue {
  const parsed = parseDecimal(value);
  if (parsed === null || !parsed.greaterThan(0)) throw new InvalidInput(field);
  return parsed;
}

/** A margin is a fraction in [0, 1), as the `user_levels` check constraint has it. */
function margin(value: unknown, field: string): DecimalValue {
  const parsed = parseDecimal(value);
  if (parsed === null || parsed.lessThan(0) || !parsed.lessThan(1)) throw new InvalidInput(field);
  return parsed;
}

function optionalRate(rate: CustomRate | null | undefined, key: keyof CustomRate, field: string) {
  const value = rate?.[key];
  return value == null ? null : positive(value, field);
}

function instant(value: unknown, field: string): Date {
  if (typeof value !== 'string' && !(value instanceof Date)) throw new InvalidInput(field);
  const date = new Date(value instanceof Date ? value.getTime() : value);
  if (Number.isNaN(date.getTime())) throw new InvalidInput(field);
  return date;
}

function currency(info: CurrencyInfo, field: string): ParsedCurrency {
  if (typeof info.code !== 'string' || info.code === '') throw new InvalidInput(`${field}.code`);
  if (!Number.isInteger(info.precision) || info.precision < 0 || info.precision > 18) {
    throw new InvalidInput(`${field}.precision`);
  }
  const min = positive(info.min_amount, `${field}.min_amount`);
  const max = positive(info.max_amount, `${field}.max_amount`);
  if (!max.greaterThan(min)) throw new InvalidInput(`${field}.max_amount`);
  return { code: info.code, precision: info.precision, min, max };
}

/**
 * Parses everything but the typed amount. Malformed data here is a caller bug (the server
 * reads it from the database), reported as `invalid-input` naming the field.
 */
export function parseInput(input: QuoteInput): Parsed<ParsedInput> {
  try {
    if (input.direction?.window && !isValidWindow(input.direction.window)) {
      throw new InvalidInput('direction.window');
    }
    if (!Number.isFinite(input.maxRateAgeSeconds) || input.maxRateAgeSeconds < 0) {
      throw new InvalidInput('maxRateAgeSeconds');
    }
    return {
      ok: true,
      value: {
        from: currency(input.from, 'from'),
        to: currency(input.to, 'to'),
        priceFrom: positive(input.prices.from, 'prices.from'),
        priceTo: positive(input.prices.to, 'prices.to'),
        sellMargin: margin(input.level.sell_margin, 'level.sell_margin'),
        buyMargin: margin(input.level.buy_margin, 'level.buy_margin'),
        customSell: optionalRate(input.custom?.from, 'sell_rate', 'custom.from.sell_rate'),
        customBuy: optionalRate(input.custom?.to, 'buy_rate', 'custom.to.buy_rate'),
        now: instant(input.now, 'now'),
        fetchedFrom: instant(input.pricesFetchedAt.from, 'pricesFetchedAt.from'),
        fetchedTo: instant(input.pricesFetchedAt.to, 'pricesFetchedAt.to'),
      },
    };
  } catch (error) {
    if (error instanceof InvalidInput) {
      return { ok: false, error: { code: 'invalid-input', field: error.field } };
    }
    throw error;
  }
}

/** Longest typed amount accepted, in characters (before any arithmetic). */
const MAX_AMOUNT_LENGTH = 64;

/**
 * Parses the typed amount: a plain positive decimal with at most `precision` decimals
 * (trailing zeros do not count: `1.50` is fine at precision 1).
 */
export function parseAmount(
  amount: unknown,
  currencyCode: string,
  precision: number,
): Parsed<DecimalValue> {
  if (typeof amount !== 'string' || amount.length > MAX_AMOUNT_LENGTH) {
    return { ok: false, error: { code: 'malformed-amount' } };
  }
  const value = parseDecimal(amount);
  if (value === null) return { ok: false, error: { code: 'malformed-amount' } };
  if (!value.greaterThan(0)) return { ok: false, error: { code: 'non-positive-amount' } };
  if (value.decimalPlaces() > precision) {
    return {
      ok: false,
      error: { code: 'too-many-decimals', currency: currencyCode, maxDecimals: precision },
    };
  }
  return { ok: true, value };
}

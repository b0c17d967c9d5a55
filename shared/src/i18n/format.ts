import { LANGUAGE_TAGS, type Locale } from './locales.ts';

/*
 * Dates, amounts and rates as the page's language writes them (issue 23: two date formats on
 * one page, and numbers with no grouping and no decimal comma in Russian and Ukrainian). Every
 * client formats through here, with the page's locale, never the browser's.
 *
 * Amounts stay exact: Intl.NumberFormat formats a decimal string as written (ECMA-402's
 * "Intl.NumberFormat v3", Node 20 and every current browser), so no amount becomes a float.
 * Formatters are cached per locale and style: building one costs far more than using it.
 */

/** Digits after the point an amount may have (the engine's `numeric` scale is at most 18). */
const MAX_FRACTION_DIGITS = 20;

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: Locale): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(LANGUAGE_TAGS[locale], {
      maximumFractionDigits: MAX_FRACTION_DIGITS,
    });
    numberFormats.set(locale, format);
  }
  return format;
}

type DateStyle = 'dateTime' | 'date' | 'time';

const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
};

function dateFormat(locale: Locale, style: DateStyle, timeZone?: string): Intl.DateTimeFormat {
  const key = `${locale}|${style}|${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LANGUAGE_TAGS[locale], {
      ...DATE_OPTIONS[style],
      ...(timeZone ? { timeZone } : {}),
    });
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * A decimal string as the language writes it: `1234.5` → `1,234.5` (en), `1 234,5` (ru, uk).
 * Trailing zeros go (`12.500000` → `12.5`); anything that is not a plain decimal is returned as
 * given, and a missing amount is `0`.
 */
export function formatDecimal(value: string | null | undefined, locale: Locale): string {
  if (value === null || value === undefined || value === '')
    return numberFormat(locale).format('0');
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return value;
  // The string itself, not a Number: exact whatever its digits (see the note above).
  return numberFormat(locale).format(trimmed as unknown as number);
}

const fixedFormats = new Map<string, Intl.NumberFormat>();

/**
 * A decimal string with exactly the decimals it was written with, in the language's signs:
 * `2.0` → `2.0` (en), `2,0` (ru, uk). For figures whose precision is their meaning (a
 * percentage rounded to one decimal); anything that is not a plain decimal is returned as given.
 */
export function formatFixed(value: string, locale: Locale): string {
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return value;
  const decimals = trimmed.split('.')[1]?.length ?? 0;
  const key = `${locale}|${decimals}`;
  let format = fixedFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LANGUAGE_TAGS[locale], {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    fixedFormats.set(key, format);
  }
  return format.format(trimmed as unknown as number);
}

/** An amount with its currency: `0,05 BTC`. */
export const formatMoney = (
  value: string | null | undefined,
  currency: string,
  locale: Locale,
): string => `${formatDecimal(value, locale)} ${currency}`;

/** An instant as the language writes it (`Nov 28, 2026, 4:13 PM`; `28 нояб. 2026 г., 16:13`). */
export function formatDateTime(
  instant: string | Date,
  locale: Locale,
  options: { style?: DateStyle; timeZone?: string } = {},
): string {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return String(instant);
  return dateFormat(locale, options.style ?? 'dateTime', options.timeZone).format(date);
}

/** A date without its time. */
export const formatDate = (instant: string | Date, locale: Locale): string =>
  formatDateTime(instant, locale, { style: 'date' });

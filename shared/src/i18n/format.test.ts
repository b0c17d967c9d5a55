import { describe, expect, it } from 'vitest';

import { formatDate, formatDateTime, formatDecimal, formatFixed, formatMoney } from './format.ts';

describe('formatDecimal', () => {
  it('groups and marks decimals as each language does', () => {
    expect(formatDecimal('1234567.5', 'en')).toBe('1,234,567.5');
    // Russian and Ukrainian group with a no-break space and mark decimals with a comma.
    expect(formatDecimal('1234567.5', 'ru')).toBe('1\u00a0234\u00a0567,5');
    expect(formatDecimal('1234567.5', 'ua')).toBe('1\u00a0234\u00a0567,5');
  });

  it('keeps every digit of an amount a float would round', () => {
    expect(formatDecimal('9007199254740993.123456789012345678', 'en')).toBe(
      '9,007,199,254,740,993.123456789012345678',
    );
    expect(formatDecimal('0.000000000000000001', 'ru')).toBe('0,000000000000000001');
  });

  it('drops trailing zeros, says 0 for nothing, and leaves non-numbers alone', () => {
    expect(formatDecimal('12.500000', 'en')).toBe('12.5');
    expect(formatDecimal('-3.10', 'en')).toBe('-3.1');
    expect(formatDecimal(null, 'ru')).toBe('0');
    expect(formatDecimal('', 'en')).toBe('0');
    expect(formatDecimal('1e5', 'en')).toBe('1e5');
    expect(formatDecimal('abc', 'en')).toBe('abc');
  });

  it('puts the currency after the amount', () => {
    expect(formatMoney('0.05', 'BTC', 'ru')).toBe('0,05 BTC');
  });
});

describe('formatFixed', () => {
  it('keeps the decimals a figure was written with, in the language’s signs', () => {
    expect(formatFixed('2.0', 'en')).toBe('2.0');
    expect(formatFixed('2.0', 'ru')).toBe('2,0');
    expect(formatFixed('1234.50', 'ua')).toBe('1\u00a0234,50');
    expect(formatFixed('7', 'en')).toBe('7');
    expect(formatFixed('n/a', 'en')).toBe('n/a');
  });
});

describe('formatDateTime', () => {
  const instant = '2026-11-28T16:13:00Z';

  it('writes one style per language, in the language (not the runtime’s)', () => {
    expect(formatDateTime(instant, 'en', { timeZone: 'UTC' })).toBe('Nov 28, 2026, 4:13 PM');
    expect(formatDateTime(instant, 'ru', { timeZone: 'UTC' })).toBe('28 нояб. 2026 г., 16:13');
    expect(formatDateTime(instant, 'ua', { timeZone: 'UTC' })).toBe('28 лист. 2026 р., 16:13');
  });

  it('writes dates alone, and leaves a non-date alone', () => {
    expect(formatDate('2026-11-28T10:00:00Z', 'en')).toMatch(/^Nov 2[78], 2026$/);
    expect(formatDateTime('not a date', 'en')).toBe('not a date');
  });
});

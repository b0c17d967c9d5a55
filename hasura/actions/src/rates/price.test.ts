import { describe, expect, it } from 'vitest';

import { canonicalPrice, dividePrices, invertPrice, isUsdt, movedBeyond } from './price.ts';

describe('price helpers', () => {
  it.each([
    ['97834.20000000', '97834.2'],
    ['0.00001647', '0.00001647'],
    ['1', '1'],
    ['0.0000000000000000000000000001', '0.0000000000000000000000000001'],
  ])('canonicalises %s to %s (plain notation, no float)', (raw, canonical) => {
    expect(canonicalPrice(raw)).toBe(canonical);
  });

  it.each([['0'], ['0.000'], ['-1'], ['1e3'], [' 1'], ['NaN'], [''], ['1.'], [12]])(
    'refuses %s',
    (raw) => {
      expect(canonicalPrice(raw)).toBeNull();
    },
  );

  it('inverts and divides to 12 significant digits, half-even', () => {
    expect(invertPrice('41.87')).toBe('0.02388344877');
    expect(invertPrice('3')).toBe('0.333333333333');
    expect(dividePrices('97851.3', '1.00023')).toBe('97828.7993761');
  });

  it('compares moves exactly, in both directions', () => {
    expect(movedBeyond('100', '150', 1.5)).toBe(false);
    expect(movedBeyond('100', '150.000000001', 1.5)).toBe(true);
    expect(movedBeyond('150', '100', 1.5)).toBe(false);
    expect(movedBeyond('150.000000001', '100', 1.5)).toBe(true);
  });

  it('treats USDT on every network, and only crypto USDT, as the pivot', () => {
    expect(isUsdt({ kind: 'crypto', symbol: 'USDT' })).toBe(true);
    expect(isUsdt({ kind: 'crypto', symbol: 'USDC' })).toBe(false);
    expect(isUsdt({ kind: 'fiat', symbol: 'USDT' })).toBe(false);
  });
});

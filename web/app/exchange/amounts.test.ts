import { describe, expect, it } from 'vitest';

import { isValidAmount, normalizeAmount, trimZeros } from './amounts.ts';

describe('exchange amounts', () => {
  it('accepts a decimal comma and spaces', () => {
    expect(normalizeAmount(' 1 000,5 ')).toBe('1000.5');
  });

  it('checks the currency precision and refuses zero, signs and exponents', () => {
    expect(isValidAmount('0.12345678', 8)).toBe(true);
    expect(isValidAmount('0.123456789', 8)).toBe(false);
    expect(isValidAmount('100', 0)).toBe(true);
    expect(isValidAmount('100.5', 0)).toBe(false);
    for (const bad of ['0', '0.000', '-1', '1e5', '01', '.5', '1.', 'abc', ''])
      expect(isValidAmount(bad, 8), bad).toBe(false);
  });

  it('drops trailing zeros for display', () => {
    expect(trimZeros('0.10000000')).toBe('0.1');
    expect(trimZeros('12.000')).toBe('12');
    expect(trimZeros('1500')).toBe('1500');
  });
});

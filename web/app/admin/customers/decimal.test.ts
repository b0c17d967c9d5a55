import { describe, expect, it } from 'vitest';

import {
  compare,
  containsPattern,
  levelPrices,
  multiply,
  parseCount,
  parseRate,
  percentToFraction,
} from './decimal.ts';

describe('parseRate', () => {
  it('takes positive decimals, a comma and spaces included, trailing zeros dropped', () => {
    expect(parseRate('100000')).toBe('100000');
    expect(parseRate(' 98 500,50 ')).toBe('98500.5');
    expect(parseRate('0.00001')).toBe('0.00001');
  });

  it('refuses zero, signs, exponents, words and too many digits', () => {
    for (const typed of ['', '0', '0.000', '-1', '1e5', 'abc', '1.2.3', `1.${'1'.repeat(19)}`])
      expect(parseRate(typed)).toBeUndefined();
  });
});

describe('percentToFraction', () => {
  it('moves the point two places left, exactly', () => {
    expect(percentToFraction('2.5')).toBe('0.025');
    expect(percentToFraction('1')).toBe('0.01');
    expect(percentToFraction('10')).toBe('0.1');
    expect(percentToFraction('0')).toBe('0');
    expect(percentToFraction('99.9999')).toBe('0.999999');
    expect(percentToFraction('0,75')).toBe('0.0075');
  });

  it('refuses 100 and more, negatives and more than 4 decimals', () => {
    for (const typed of ['100', '150', '-1', '1.23456', '', 'x'])
      expect(percentToFraction(typed)).toBeUndefined();
  });
});

describe('parseCount', () => {
  it('takes whole numbers from 0', () => {
    expect(parseCount('0')).toBe(0);
    expect(parseCount(' 150 ')).toBe(150);
    expect(parseCount('1.5')).toBeUndefined();
    expect(parseCount('-1')).toBeUndefined();
    expect(parseCount('07')).toBeUndefined();
  });
});

describe('decimal arithmetic', () => {
  it('multiplies and compares without floats', () => {
    expect(multiply('0.1', '0.2')).toBe('0.02');
    expect(multiply('98500', '1.03')).toBe('101455');
    expect(compare('98500', '98500.00')).toBe(0);
    expect(compare('0.3', '0.25')).toBe(1);
    expect(compare('99999.9', '100000')).toBe(-1);
  });

  it("gives a level's prices (decision 008)", () => {
    expect(levelPrices('98500', { buy_margin: '0.030000', sell_margin: '0.025000' })).toEqual({
      buy: '101455',
      sell: '96037.5',
    });
  });
});

describe('containsPattern', () => {
  it('escapes the ILIKE wildcards and matches anywhere', () => {
    expect(containsPattern('ann_b%')).toBe('%ann\\_b\\%%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });
});

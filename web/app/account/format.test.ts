import { describe, expect, it } from 'vitest';

import { formatAmount, plainAmount, pageCount, pageFromSearch } from './format.ts';

describe('account formatting', () => {
  it('reads the page from ?page=, falling back to the first', () => {
    const page = (query: string) => pageFromSearch(new URLSearchParams(query));
    expect(page('')).toBe(1);
    expect(page('page=3')).toBe(3);
    for (const bad of ['page=0', 'page=-2', 'page=abc', 'page=1.5', 'page=01', 'page=9999999'])
      expect(page(bad)).toBe(1);
  });

  it('counts pages of 20, at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
    expect(pageCount(41)).toBe(3);
  });

  it('writes amounts in the page’s language, and plainly for inputs', () => {
    expect(formatAmount('1234.500000', 'en')).toBe('1,234.5');
    expect(formatAmount('1234.500000', 'ru')).toBe('1\u00a0234,5');
    expect(formatAmount(null, 'ua')).toBe('0');
    expect(plainAmount('1234.500000')).toBe('1234.5');
    expect(plainAmount(null)).toBe('0');
  });
});

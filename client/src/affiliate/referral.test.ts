import { describe, expect, it } from 'vitest';

import { percentOf, referralLink } from './referral.ts';

describe('affiliate figures', () => {
  it('turns a rate into a percentage exactly', () => {
    expect(percentOf('0.005')).toBe('0.5');
    expect(percentOf('0.005000')).toBe('0.5');
    expect(percentOf('0.0125')).toBe('1.25');
    expect(percentOf('0.1')).toBe('10');
    expect(percentOf('1')).toBe('100');
    expect(percentOf('0')).toBe('0');
    expect(percentOf('0.000001')).toBe('0.0001');
  });

  it('builds the referral link', () => {
    expect(referralLink('https://example.com/', 'Partner42')).toBe(
      'https://example.com/?ref=Partner42',
    );
  });
});

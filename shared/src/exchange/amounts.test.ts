import { describe, expect, it } from 'vitest';

import { formatRate, isValidAmount, normalizeAmount, trimZeros } from './amounts.ts';

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

describe('rate display', () => {
  it('keeps 8 significant digits, rounding half up', () => {
    expect(formatRate('93240.3012345678')).toBe('93240.301');
    expect(formatRate('93240.3015')).toBe('93240.302');
    expect(formatRate('93240.30149999')).toBe('93240.301');
    expect(formatRate('1.234567849')).toBe('1.2345678');
    expect(formatRate('1.23456785')).toBe('1.2345679');
    expect(formatRate('0.0000107234567891')).toBe('0.000010723457');
    expect(formatRate('0.00001072345649')).toBe('0.000010723456');
  });

  it('carries a round-up through every digit', () => {
    expect(formatRate('9.999999995')).toBe('10');
    expect(formatRate('0.999999999')).toBe('1');
    expect(formatRate('0.0000999999999')).toBe('0.0001');
    expect(formatRate('99999999.5')).toBe('100000000');
  });

  it('never cuts the integer part', () => {
    expect(formatRate('123456789.987')).toBe('123456790');
    expect(formatRate('123456789.4')).toBe('123456789');
    expect(formatRate('41000000000')).toBe('41000000000');
  });

  it('leaves short rates as they are, without trailing zeros', () => {
    expect(formatRate('1.00000000')).toBe('1');
    expect(formatRate('0.5')).toBe('0.5');
    expect(formatRate('42')).toBe('42');
    expect(formatRate('0.000000')).toBe('0');
    expect(formatRate('0')).toBe('0');
    expect(formatRate('007.50')).toBe('7.5');
  });

  it('takes another number of significant digits', () => {
    expect(formatRate('93240.3012345678', 4)).toBe('93240');
    expect(formatRate('0.0123456', 3)).toBe('0.0123');
  });

  it('returns anything but a plain decimal unchanged', () => {
    for (const odd of ['', '-1.5', '1e-7', 'NaN', '.5', 'abc']) expect(formatRate(odd)).toBe(odd);
  });

  it('agrees with exact BigInt rounding on generated rates', () => {
    // A small deterministic generator: decimals of every scale, from 1e-12 to 1e12.
    let seed = 42;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    const digits = (count: number) =>
      Array.from({ length: count }, () => String(next(10))).join('');
    for (let run = 0; run < 2_000; run++) {
      const rate = `${next(3) === 0 ? '0' : digits(1 + next(12))}.${digits(next(20))}`.replace(
        /\.$/,
        '',
      );
      expect(formatRate(rate), rate).toBe(exactRate(rate, 8));
    }
  });
});

/** The oracle: the same rule in exact rational arithmetic (value = units / 10^scale). */
function exactRate(rate: string, significant: number): string {
  const [int = '0', frac = ''] = rate.split('.');
  const scale = frac.length;
  const units = BigInt(`${int}${frac}`);
  const one = 10n ** BigInt(scale);
  if (units === 0n) return '0';
  let decimals: number;
  if (units >= one) {
    decimals = Math.max(0, significant - String(units / one).length);
  } else {
    let position = 1; // the decimal place of the first non-zero digit
    while (units * 10n ** BigInt(position) < one) position++;
    decimals = position - 1 + significant;
  }
  // round(value × 10^decimals), half up: floor((2·units·10^d + 10^scale) / (2·10^scale)).
  const scaled = (2n * units * 10n ** BigInt(decimals) + one) / (2n * one);
  const text = scaled.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const part = text.slice(text.length - decimals).replace(/0+$/, '');
  return part ? `${whole}.${part}` : whole;
}

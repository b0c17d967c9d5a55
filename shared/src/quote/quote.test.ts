import { describe, expect, it } from 'vitest';

import { computeQuote, quoteErrorMessage, type QuoteResult } from './index.ts';
import { BTC, EUR, NEW_LEVEL, quoteInput, UAH, UAH_WINDOW, USDTTRC20 } from './test-data.ts';

function ok(result: QuoteResult) {
  if (!result.ok) throw new Error(`expected a quote, got ${JSON.stringify(result.error)}`);
  return result.quote;
}

function refused(result: QuoteResult) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.quote)}`);
  return result.error;
}

// Hand-computed with the seeded `new` level (sell 2.5 %, buy 3 %) and offline prices:
// sell = price_from × 0.975, buy = price_to × 1.03.
describe('computeQuote: worked examples', () => {
  it('BTC→USDTTRC20, sending 0.01 BTC: 0.01 × 96037.5 / 1.03 = 932.4029126… → 932.402912', () => {
    const quote = ok(computeQuote(quoteInput(BTC, USDTTRC20, { amount: '0.01' })));
    expect(quote).toMatchObject({
      send: '0.01000000',
      receive: '932.402912',
      rate: '93240.2912621359223',
      marketRate: '98500',
      legs: {
        from: { price: '96037.5', marketPrice: '98500', margin: '0.025', source: 'level' },
        to: { price: '1.03', marketPrice: '1', margin: '0.03', source: 'level' },
      },
      // 1 − 0.975 / 1.03 = 0.0533980582… rounded up.
      spread: '0.05339806',
      // min: max(0.0005, ⌈20 × 1.03 / 96037.5⌉ = 0.00021450…); max: ⌊100000 × 1.03 / 96037.5⌋.
      limits: { side: 'send', currency: 'BTC', min: '0.00050000', max: '1.07249772' },
      processing: { mode: 'now' },
      ratesFetchedAt: '2025-11-21T09:58:30.000Z',
    });
  });

  it('BTC→USDTTRC20, wanting 1000 USDT: ⌈1000 × 1.03 / 96037.5⌉ = 0.01072498 BTC', () => {
    const quote = ok(computeQuote(quoteInput(BTC, USDTTRC20, { side: 'receive', amount: '1000' })));
    expect(quote.send).toBe('0.01072498');
    expect(quote.receive).toBe('1000.000000');
  });

  it('USDTTRC20→UAH, sending 100 USDT inside the window: 97.5 / 0.02472 = 3944.1747… → 3944.17', () => {
    const quote = ok(
      computeQuote(
        quoteInput(USDTTRC20, UAH, {
          amount: '100',
          direction: { enabled: true, window: UAH_WINDOW },
          now: '2025-11-21T10:00:00.000Z', // 13:00 at UTC+3
        }),
      ),
    );
    expect(quote).toMatchObject({
      send: '100.000000',
      receive: '3944.17',
      // min: ⌈2000 × 0.02472 / 0.975⌉ = 50.707693 (UAH's minimum binds, not USDT's 20).
      limits: { side: 'send', currency: 'USDTTRC20', min: '50.707693', max: '50707.692307' },
      processing: { mode: 'now' },
    });
  });

  it('USDTTRC20→UAH after the 22:30 cut-off is processed at 09:00 UTC+3 the next day', () => {
    const quote = ok(
      computeQuote(
        quoteInput(USDTTRC20, UAH, {
          amount: '100',
          direction: { enabled: true, window: UAH_WINDOW },
          now: '2025-11-21T19:45:00.000Z', // 22:45 at UTC+3
          pricesFetchedAt: { from: '2025-11-21T19:44:00Z', to: '2025-11-21T19:44:00Z' },
        }),
      ),
    );
    expect(quote.receive).toBe('3944.17');
    expect(quote.processing).toEqual({ mode: 'next-window', at: '2025-11-22T06:00:00.000Z' });
  });

  it('EUR→BTC, sending 1000 EUR: 1000 × 1.131 / 101455 = 0.0111477995… → 0.01114779', () => {
    const quote = ok(computeQuote(quoteInput(EUR, BTC, { amount: '1000' })));
    expect(quote).toMatchObject({
      send: '1000.00',
      receive: '0.01114779',
      limits: { side: 'send', currency: 'EUR', min: '50.00', max: '50000.00' },
    });
  });

  it('EUR→BTC, wanting 0.01 BTC: ⌈0.01 × 101455 / 1.131⌉ = 897.04 EUR', () => {
    const quote = ok(computeQuote(quoteInput(EUR, BTC, { side: 'receive', amount: '0.01' })));
    expect(quote).toMatchObject({
      send: '897.04',
      receive: '0.01000000',
      // min: ⌈50 × 1.131 / 101455⌉ = 0.00055739 (EUR's minimum binds); max: ⌊50000 × …⌋.
      limits: { side: 'receive', currency: 'BTC', min: '0.00055739', max: '0.55738997' },
    });
  });

  it("a custom sell_rate replaces the market price and the margin of the user's sold currency", () => {
    const quote = ok(
      computeQuote(
        quoteInput(USDTTRC20, UAH, { amount: '100', custom: { from: { sell_rate: '0.99' } } }),
      ),
    );
    // 100 × 0.99 / 0.02472 = 4004.8543… → 4004.85 (the UAH leg keeps the level's buy margin).
    expect(quote.receive).toBe('4004.85');
    expect(quote.legs.from).toMatchObject({ price: '0.99', margin: '0.01', source: 'custom' });
    expect(quote.legs.to.source).toBe('level');
  });

  it('a custom buy_rate replaces the price of the bought currency', () => {
    const quote = ok(
      computeQuote(quoteInput(EUR, BTC, { amount: '1000', custom: { to: { buy_rate: '99000' } } })),
    );
    // 1000 × 1.131 / 99000 = 0.0114242424… → 0.01142424.
    expect(quote.receive).toBe('0.01142424');
    expect(quote.legs.to).toMatchObject({ price: '99000', source: 'custom' });
  });

  it('a custom rate better than the market is capped at the market', () => {
    const quote = ok(
      computeQuote(
        quoteInput(BTC, USDTTRC20, {
          amount: '0.01',
          custom: { from: { sell_rate: '120000' }, to: { buy_rate: '0.9' } },
        }),
      ),
    );
    expect(quote.receive).toBe('985.000000');
    expect(quote.legs.from).toMatchObject({ price: '98500', source: 'custom-capped', margin: '0' });
    expect(quote.legs.to).toMatchObject({ price: '1', source: 'custom-capped', margin: '0' });
    expect(quote.spread).toBe('0');
  });

  it('custom rates for the other role (buy_rate of the sold currency) are ignored', () => {
    const quote = ok(
      computeQuote(
        quoteInput(BTC, USDTTRC20, { amount: '0.01', custom: { from: { buy_rate: '200000' } } }),
      ),
    );
    expect(quote.receive).toBe('932.402912');
  });

  it('cash has precision 0: the amount to send rounds up to a whole banknote', () => {
    const CASHUSD = { code: 'CASHUSD', precision: 0, min_amount: '500', max_amount: '100000' };
    const quote = ok(
      computeQuote(
        quoteInput(CASHUSD, USDTTRC20, {
          side: 'receive',
          amount: '1000',
          prices: { from: '1.0000', to: '1' },
          level: NEW_LEVEL,
        }),
      ),
    );
    // 1000 × 1.03 / 0.975 = 1056.41… → 1057.
    expect(quote.send).toBe('1057');
  });
});

describe('computeQuote: refusals', () => {
  const cases: [string, Parameters<typeof quoteInput>[2], object][] = [
    ['an unknown direction', { direction: null }, { code: 'unknown-direction' }],
    ['a disabled direction', { direction: { enabled: false } }, { code: 'direction-disabled' }],
    ['an empty amount', { amount: '' }, { code: 'malformed-amount' }],
    ['an exponent', { amount: '1e3' }, { code: 'malformed-amount' }],
    ['a comma', { amount: '1,5' }, { code: 'malformed-amount' }],
    ['spaces', { amount: ' 1' }, { code: 'malformed-amount' }],
    [
      'a number instead of a string',
      { amount: 1 as unknown as string },
      { code: 'malformed-amount' },
    ],
    ['a 100-digit amount', { amount: '1'.repeat(100) }, { code: 'malformed-amount' }],
    ['zero', { amount: '0.000' }, { code: 'non-positive-amount' }],
    ['a negative amount', { amount: '-1' }, { code: 'non-positive-amount' }],
    [
      'more decimals than BTC has',
      { amount: '0.123456789' },
      { code: 'too-many-decimals', currency: 'BTC', maxDecimals: 8 },
    ],
    [
      'an amount below the minimum',
      { amount: '0.0004' },
      { code: 'amount-below-min', side: 'send', currency: 'BTC', limit: '0.00050000' },
    ],
    [
      'an amount above the maximum (USDT side binds)',
      { amount: '2' },
      { code: 'amount-above-max', side: 'send', currency: 'BTC', limit: '1.07249772' },
    ],
    [
      // BTC's minimum binds: ⌈0.0005 × 96037.5 / 1.03⌉ = ⌈46.6201456…⌉ = 46.620146 USDT.
      'a receive amount below the minimum',
      { side: 'receive', amount: '46.620145' },
      { code: 'amount-below-min', side: 'receive', currency: 'USDTTRC20', limit: '46.620146' },
    ],
    [
      'a rate older than the maximum age',
      { pricesFetchedAt: { from: '2025-11-21T09:54:59.000Z', to: '2025-11-21T09:59:00.000Z' } },
      {
        code: 'stale-rate',
        currency: 'BTC',
        fetchedAt: '2025-11-21T09:54:59.000Z',
        ageSeconds: 301,
        maxAgeSeconds: 300,
      },
    ],
    [
      'a malformed price',
      { prices: { from: '98,500', to: '1' } },
      { code: 'invalid-input', field: 'prices.from' },
    ],
    [
      'a zero price',
      { prices: { from: '98500', to: '0' } },
      { code: 'invalid-input', field: 'prices.to' },
    ],
    [
      'a margin of 100 %',
      { level: { buy_margin: '1', sell_margin: '0.02' } },
      { code: 'invalid-input', field: 'level.buy_margin' },
    ],
    [
      'a negative margin',
      { level: { buy_margin: '0.03', sell_margin: '-0.01' } },
      { code: 'invalid-input', field: 'level.sell_margin' },
    ],
    [
      'a zero custom rate',
      { custom: { from: { sell_rate: '0' } } },
      { code: 'invalid-input', field: 'custom.from.sell_rate' },
    ],
    ['an invalid clock', { now: 'yesterday' }, { code: 'invalid-input', field: 'now' }],
    [
      'a window whose cut-off is after its end',
      { direction: { enabled: true, window: { ...UAH_WINDOW, cutoff: '23:30' } } },
      { code: 'invalid-input', field: 'direction.window' },
    ],
  ];

  it.each(cases)('refuses %s', (_, overrides, error) => {
    expect(refused(computeQuote(quoteInput(BTC, USDTTRC20, overrides)))).toEqual(error);
  });

  it('refuses a direction through a disabled currency, naming it', () => {
    const error = refused(computeQuote(quoteInput(BTC, { ...USDTTRC20, enabled: false })));
    expect(error).toEqual({ code: 'direction-disabled', currency: 'USDTTRC20' });
  });

  it('accepts trailing zeros beyond the precision (1.50 at precision 1 is 1.5)', () => {
    const quote = ok(computeQuote(quoteInput(BTC, USDTTRC20, { amount: '0.0100000000000' })));
    expect(quote.send).toBe('0.01000000');
  });

  it('accepts a rate exactly as old as the maximum age', () => {
    const result = computeQuote(
      quoteInput(BTC, USDTTRC20, {
        pricesFetchedAt: { from: '2025-11-21T09:55:00.000Z', to: '2025-11-21T09:55:00.000Z' },
      }),
    );
    expect(result.ok).toBe(true);
  });

  it('gives every error an English fallback message', () => {
    const error = refused(
      computeQuote(
        quoteInput(BTC, USDTTRC20, {
          pricesFetchedAt: { from: '2025-11-21T09:00:00Z', to: '2025-11-21T09:00:00Z' },
        }),
      ),
    );
    expect(quoteErrorMessage(error)).toBe(
      'The BTC rate is 3600 s old (the limit is 300 s); try again shortly.',
    );
    for (const [, overrides] of cases) {
      const result = computeQuote(quoteInput(BTC, USDTTRC20, overrides));
      expect(result.ok ? '' : quoteErrorMessage(result.error)).toMatch(/\.$/);
    }
  });
});

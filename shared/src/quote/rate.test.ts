import { describe, expect, it } from 'vitest';

import {
  computeQuote,
  computeRate,
  levelProgress,
  publicRateInput,
  rateAdvantagePercent,
  type RateInput,
  type RateResult,
} from './index.ts';
import { BTC, EUR, NEW_LEVEL, quoteInput, UAH, USDTTRC20 } from './test-data.ts';

function rateInput(...args: Parameters<typeof quoteInput>): RateInput {
  const { amount: _amount, side: _side, ...rest } = quoteInput(...args);
  return rest;
}

function ok(result: RateResult) {
  if (!result.ok) throw new Error(`expected a rate, got ${JSON.stringify(result.error)}`);
  return result.rate;
}

const SILVER = { buy_margin: '0.020000', sell_margin: '0.015000' };

describe('computeRate: the rate and both limits before typing', () => {
  it('BTC→USDTTRC20: the quote’s rate, and the tighter limit is the receiving side’s 100,000 USDT', () => {
    const rate = ok(computeRate(rateInput(BTC, USDTTRC20)));
    expect(rate).toMatchObject({
      from: 'BTC',
      to: 'USDTTRC20',
      rate: '93240.2912621359223',
      marketRate: '98500',
      limits: {
        // Max is not BTC's own 10 but ⌊100000 × 1.03 / 96037.5⌋ = 1.07249772 BTC.
        send: { side: 'send', currency: 'BTC', min: '0.00050000', max: '1.07249772' },
        // Receive: [max(20, ⌈0.0005 × 96037.5 / 1.03⌉), min(100000, ⌊10 × 96037.5 / 1.03⌋)].
        receive: {
          side: 'receive',
          currency: 'USDTTRC20',
          min: '46.620146',
          max: '100000.000000',
        },
      },
      processing: { mode: 'now' },
      ratesFetchedAt: '2025-11-21T09:58:30.000Z',
    });
  });

  it('agrees with computeQuote’s rate and limits on both sides, and 2 BTC is refused at that max', () => {
    for (const [from, to] of [
      [BTC, USDTTRC20],
      [USDTTRC20, UAH],
      [EUR, USDTTRC20],
    ] as const) {
      const rate = ok(computeRate(rateInput(from, to)));
      for (const side of ['send', 'receive'] as const) {
        const limits = rate.limits[side];
        const quote = computeQuote(quoteInput(from, to, { side, amount: limits.min }));
        if (!quote.ok) throw new Error(JSON.stringify(quote.error));
        expect(quote.quote.rate).toBe(rate.rate);
        expect(quote.quote.limits).toEqual(limits);
      }
    }
    const refused = computeQuote(quoteInput(BTC, USDTTRC20, { amount: '2' }));
    expect(refused).toEqual({
      ok: false,
      error: { code: 'amount-above-max', side: 'send', currency: 'BTC', limit: '1.07249772' },
    });
  });

  it('reports crossing limits instead of a range no amount fits', () => {
    const tiny = { ...USDTTRC20, max_amount: '30' };
    const result = computeRate(rateInput(BTC, tiny));
    // ⌊30 × 1.03 / 96037.5⌋ = 0.00032174 BTC is below BTC's own minimum 0.0005.
    expect(result).toEqual({
      ok: false,
      error: { code: 'limits-cross', currency: 'BTC', min: '0.00050000', max: '0.00032174' },
    });
  });

  it('refuses what a quote refuses without an amount: missing, disabled, stale', () => {
    expect(computeRate(rateInput(BTC, USDTTRC20, { direction: null }))).toEqual({
      ok: false,
      error: { code: 'unknown-direction' },
    });
    expect(computeRate(rateInput(BTC, USDTTRC20, { direction: { enabled: false } }))).toEqual({
      ok: false,
      error: { code: 'direction-disabled' },
    });
    const stale = computeRate(rateInput(BTC, USDTTRC20, { maxRateAgeSeconds: 60 }));
    expect(stale.ok ? null : stale.error.code).toBe('stale-rate');
  });

  it('a custom rate moves the rate and the limits with it', () => {
    const custom = ok(
      computeRate(rateInput(BTC, USDTTRC20, { custom: { from: { sell_rate: '97000' } } })),
    );
    // 97000 / 1.03 = 94174.757281553398…
    expect(custom.rate).toBe('94174.757281553398');
    expect(custom.limits.send.max).toBe('1.06185567');
  });
});

describe('rateAdvantagePercent: "you get X% more"', () => {
  const base = rateInput(BTC, USDTTRC20);
  const publicInput = publicRateInput(base, NEW_LEVEL);

  it('a better level: (0.985 / 1.02) / (0.975 / 1.03) − 1 = 2.0161…% → 2.0', () => {
    expect(rateAdvantagePercent({ public: publicInput, own: { ...base, level: SILVER } })).toBe(
      '2.0',
    );
  });

  it('rounds down to 0.1 %: 96500 vs 96037.5 sell is 0.4815…% → 0.4, never 0.5', () => {
    const own = { ...base, custom: { from: { sell_rate: '96500' } } };
    expect(rateAdvantagePercent({ public: publicInput, own })).toBe('0.4');
  });

  it('exactly on a tenth stays on it: a sell price 0.3 % above is 0.3', () => {
    // 96037.5 × 1.003 = 96325.6125
    const own = { ...base, custom: { from: { sell_rate: '96325.6125' } } };
    expect(rateAdvantagePercent({ public: publicInput, own })).toBe('0.3');
  });

  it('null when the user’s price is the same, worse, or better by less than 0.1 %', () => {
    expect(rateAdvantagePercent({ public: publicInput, own: base })).toBeNull();
    const worse = { ...base, custom: { from: { sell_rate: '95000' } } };
    expect(rateAdvantagePercent({ public: publicInput, own: worse })).toBeNull();
    // 96132.57 / 96037.5 − 1 = 0.0989…%
    const barely = { ...base, custom: { from: { sell_rate: '96132.57' } } };
    expect(rateAdvantagePercent({ public: publicInput, own: barely })).toBeNull();
  });

  it('a custom buy rate on the receiving leg counts too', () => {
    // 1.03 → 1.01: 1.03 / 1.01 − 1 = 1.980…% → 1.9
    const own = { ...base, custom: { to: { buy_rate: '1.01' } } };
    expect(rateAdvantagePercent({ public: publicInput, own })).toBe('1.9');
  });
});

describe('levelProgress', () => {
  const levels = [
    { status: 'new', min_orders: 0 },
    { status: 'silver', min_orders: 20 },
    { status: 'bronze', min_orders: 5 },
    { status: 'platinum', min_orders: 150 },
  ];

  it('counts toward the next level up by min_orders', () => {
    expect(levelProgress(levels, 'new', 3)).toEqual({
      kind: 'next',
      current: 'new',
      next: 'bronze',
      completedOrders: 3,
      requiredOrders: 5,
    });
    expect(levelProgress(levels, 'bronze', 7)).toMatchObject({
      next: 'silver',
      requiredOrders: 20,
    });
  });

  it('says when the user is on the top level', () => {
    expect(levelProgress(levels, 'platinum', 400)).toEqual({
      kind: 'top',
      current: 'platinum',
      completedOrders: 400,
    });
  });

  it('a status staff set that names no level shows no progress', () => {
    expect(levelProgress(levels, 'vip', 10)).toEqual({
      kind: 'manual',
      current: 'vip',
      completedOrders: 10,
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { computeQuote, type CurrencyInfo, type QuoteInput, type QuoteResult } from './index.ts';

// Deterministic in CI: a fixed seed, and enough runs to cover the corners in well under a second.
const RUNS = { seed: 20_251_121, numRuns: 300 };

/** An exact rational in BigInt, independent of decimal.js: the oracle the module is checked by. */
class Q {
  constructor(
    readonly n: bigint,
    readonly d: bigint = 1n,
  ) {}
  static of(decimal: string): Q {
    const [int = '0', frac = ''] = decimal.replace('-', '').split('.');
    const sign = decimal.startsWith('-') ? -1n : 1n;
    return new Q(sign * BigInt(int + frac), 10n ** BigInt(frac.length));
  }
  times(o: Q): Q {
    return new Q(this.n * o.n, this.d * o.d);
  }
  div(o: Q): Q {
    return new Q(this.n * o.d, this.d * o.n);
  }
  plus(o: Q): Q {
    return new Q(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  minus(o: Q): Q {
    return this.plus(new Q(-o.n, o.d));
  }
  cmp(o: Q): number {
    const diff = this.n * o.d - o.n * this.d;
    return diff === 0n ? 0 : diff > 0n ? 1 : -1;
  }
  /** ⌊this⌋ on the grid of `places` decimals (positive values only). */
  floorAt(places: number): Q {
    const scale = 10n ** BigInt(places);
    return new Q((this.n * scale) / this.d, scale);
  }
  ceilAt(places: number): Q {
    const scale = 10n ** BigInt(places);
    return new Q((this.n * scale + this.d - 1n) / this.d, scale);
  }
}
const ONE = new Q(1n);
const ulp = (places: number) => new Q(1n, 10n ** BigInt(places));

function decimalString(mantissa: bigint, scale: number): string {
  const digits = mantissa.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const decimal = (max: bigint, maxScale: number) =>
  fc
    .tuple(fc.bigInt({ min: 1n, max }), fc.integer({ min: 0, max: maxScale }))
    .map(([mantissa, scale]) => decimalString(mantissa, scale));
const price = decimal(10n ** 9n, 8);
const margin = fc.integer({ min: 0, max: 999_999 }).map((n) => decimalString(BigInt(n), 6));
const precision = fc.integer({ min: 0, max: 8 });

function currency(code: string, places: number): CurrencyInfo {
  // One unit of the last place up to 10^20: limits wide enough that most quotes succeed.
  return {
    code,
    precision: places,
    min_amount: decimalString(1n, places),
    max_amount: `1${'0'.repeat(20)}`,
  };
}

const scenario = fc
  .record({
    fromPlaces: precision,
    toPlaces: precision,
    priceFrom: price,
    priceTo: price,
    sellMargin: margin,
    buyMargin: margin,
    mantissa: fc.bigInt({ min: 1n, max: 10n ** 14n }),
    side: fc.constantFrom<'send' | 'receive'>('send', 'receive'),
  })
  .map((s) => {
    // On the coarser of the two grids, so the same amount is valid typed on either side.
    const places = Math.min(s.fromPlaces, s.toPlaces);
    const input: QuoteInput = {
      from: currency('AAA', s.fromPlaces),
      to: currency('BBB', s.toPlaces),
      side: s.side,
      amount: decimalString(s.mantissa, places),
      prices: { from: s.priceFrom, to: s.priceTo },
      pricesFetchedAt: { from: '2025-11-21T10:00:00Z', to: '2025-11-21T10:00:00Z' },
      level: { sell_margin: s.sellMargin, buy_margin: s.buyMargin },
      direction: { enabled: true },
      now: '2025-11-21T10:00:00Z',
      maxRateAgeSeconds: 60,
    };
    return input;
  });

/** The quote, or a skipped run when the generated amount falls outside the derived limits. */
function quoted(input: QuoteInput) {
  const result: QuoteResult = computeQuote(input);
  if (!result.ok) {
    expect(['amount-below-min', 'amount-above-max']).toContain(result.error.code);
  }
  fc.pre(result.ok);
  return result.ok ? result.quote : (undefined as never);
}

/** Exact USDT prices the service applies: `sell = Pf × (1 − sm)`, `buy = Pt × (1 + bm)`. */
function legs(input: QuoteInput) {
  const sell = Q.of(input.prices.from).times(ONE.minus(Q.of(input.level.sell_margin)));
  const buy = Q.of(input.prices.to).times(ONE.plus(Q.of(input.level.buy_margin)));
  return { sell, buy };
}

describe('computeQuote properties', () => {
  it('never yields a negative or zero amount, and keeps both legs within their limits', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const quote = quoted(input);
        for (const [amount, info] of [
          [quote.send, input.from],
          [quote.receive, input.to],
        ] as const) {
          expect(Q.of(amount).cmp(Q.of(info.min_amount))).toBeGreaterThanOrEqual(0);
          expect(Q.of(amount).cmp(Q.of(info.max_amount))).toBeLessThanOrEqual(0);
        }
      }),
      RUNS,
    );
  });

  it('never gives the user more than the market: receive ≤ send × price_from / price_to', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const quote = quoted(input);
        const market = Q.of(quote.send).times(Q.of(input.prices.from)).div(Q.of(input.prices.to));
        expect(Q.of(quote.receive).cmp(market)).toBeLessThanOrEqual(0);
      }),
      RUNS,
    );
  });

  it("rounds the computed amount to its currency's grid, by less than one unit, in the service's favour", () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const quote = quoted(input);
        const { sell, buy } = legs(input);
        if (input.side === 'send') {
          const exact = Q.of(quote.send).times(sell).div(buy);
          const receive = Q.of(quote.receive);
          expect(receive.cmp(exact.floorAt(input.to.precision))).toBe(0);
          expect(receive.cmp(exact)).toBeLessThanOrEqual(0);
          expect(exact.minus(receive).cmp(ulp(input.to.precision))).toBe(-1);
        } else {
          const exact = Q.of(quote.receive).times(buy).div(sell);
          const send = Q.of(quote.send);
          expect(send.cmp(exact.ceilAt(input.from.precision))).toBe(0);
          expect(send.cmp(exact)).toBeGreaterThanOrEqual(0);
          expect(send.minus(exact).cmp(ulp(input.from.precision))).toBe(-1);
        }
      }),
      RUNS,
    );
  });

  it('is monotonic in the margins: a higher margin never gives the user more', () => {
    const raise = fc.integer({ min: 0, max: 500_000 }).map((n) => decimalString(BigInt(n), 6));
    fc.assert(
      fc.property(scenario, raise, raise, (input, extraSell, extraBuy) => {
        const low = quoted(input);
        const bump = (m: string, extra: string) => {
          const raised = Q.of(m).plus(Q.of(extra));
          return raised.cmp(ONE) < 0 ? decimalString(raised.floorAt(6).n, 6) : '0.999999';
        };
        const high = quoted({
          ...input,
          level: {
            sell_margin: bump(input.level.sell_margin, extraSell),
            buy_margin: bump(input.level.buy_margin, extraBuy),
          },
        });
        if (input.side === 'send') {
          expect(Q.of(high.receive).cmp(Q.of(low.receive))).toBeLessThanOrEqual(0);
        } else {
          expect(Q.of(high.send).cmp(Q.of(low.send))).toBeGreaterThanOrEqual(0);
        }
      }),
      RUNS,
    );
  });

  it('round trip: asking to receive what sending S gives never costs more than S', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const forward = quoted({ ...input, side: 'send' });
        const back = quoted({ ...input, side: 'receive', amount: forward.receive });
        expect(Q.of(back.send).cmp(Q.of(forward.send))).toBeLessThanOrEqual(0);
        const again = quoted({ ...input, side: 'send', amount: back.send });
        expect(Q.of(again.receive).cmp(Q.of(forward.receive))).toBeGreaterThanOrEqual(0);
      }),
      RUNS,
    );
  });

  it('round trip: exchanging A→B and then B→A never returns more than was sent', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const there = quoted({ ...input, side: 'send' });
        const back = quoted({
          ...input,
          from: input.to,
          to: input.from,
          side: 'send',
          amount: there.receive,
          prices: { from: input.prices.to, to: input.prices.from },
        });
        expect(Q.of(back.receive).cmp(Q.of(there.send))).toBeLessThanOrEqual(0);
      }),
      RUNS,
    );
  });

  it('honours custom rates exactly, capped at the market', () => {
    fc.assert(
      fc.property(
        scenario,
        fc.option(price, { nil: undefined }),
        fc.option(price, { nil: undefined }),
        (input, sellRate, buyRate) => {
          const quote = quoted({
            ...input,
            side: 'send',
            custom: { from: { sell_rate: sellRate }, to: { buy_rate: buyRate } },
          });
          const market = legs(input);
          const pf = Q.of(input.prices.from);
          const pt = Q.of(input.prices.to);
          const sell =
            sellRate === undefined ? market.sell : Q.of(sellRate).cmp(pf) > 0 ? pf : Q.of(sellRate);
          const buy =
            buyRate === undefined ? market.buy : Q.of(buyRate).cmp(pt) < 0 ? pt : Q.of(buyRate);
          const exact = Q.of(quote.send).times(sell).div(buy).floorAt(input.to.precision);
          expect(Q.of(quote.receive).cmp(exact)).toBe(0);
          if (sellRate !== undefined) {
            expect(quote.legs.from.source).toBe(
              Q.of(sellRate).cmp(pf) > 0 ? 'custom-capped' : 'custom',
            );
          }
        },
      ),
      RUNS,
    );
  });
});

import type { CurrencyInfo, QuoteInput } from './types.ts';

/** Seeded currencies (hasura/seeds 1763740900100) used by the example tests. */
export const BTC: CurrencyInfo = {
  code: 'BTC',
  kind: 'crypto',
  precision: 8,
  min_amount: '0.0005',
  max_amount: '10',
};
export const USDTTRC20: CurrencyInfo = {
  code: 'USDTTRC20',
  kind: 'crypto',
  precision: 6,
  min_amount: '20',
  max_amount: '100000',
};
export const UAH: CurrencyInfo = {
  code: 'UAH',
  kind: 'fiat',
  precision: 2,
  min_amount: '2000',
  max_amount: '2000000',
};
export const EUR: CurrencyInfo = {
  code: 'EUR',
  kind: 'fiat',
  precision: 2,
  min_amount: '50',
  max_amount: '50000',
};

/** Seeded offline prices, USDT per unit (hasura/seeds 1763740900300). */
export const PRICES: Record<string, string> = {
  BTC: '98500.00',
  USDTTRC20: '1',
  UAH: '0.0240',
  EUR: '1.1600',
};

/** The seeded `new` level. */
export const NEW_LEVEL = { buy_margin: '0.030000', sell_margin: '0.025000' };

/** The daily window of the seeded UAH and cash directions. */
export const UAH_WINDOW = {
  start: '09:00:00',
  end: '23:00:00',
  cutoff: '22:30:00',
  utcOffsetMinutes: 180,
};

export const NOW = '2025-11-21T10:00:00.000Z';

/** A valid BTC→USDTTRC20 input; override what a test is about. */
export function quoteInput(
  from: CurrencyInfo,
  to: CurrencyInfo,
  overrides: Partial<QuoteInput> = {},
): QuoteInput {
  return {
    from,
    to,
    side: 'send',
    amount: '1',
    prices: { from: PRICES[from.code] ?? '1', to: PRICES[to.code] ?? '1' },
    pricesFetchedAt: { from: '2025-11-21T09:59:00.000Z', to: '2025-11-21T09:58:30.000Z' },
    level: NEW_LEVEL,
    direction: { enabled: true },
    now: NOW,
    maxRateAgeSeconds: 300,
    ...overrides,
  };
}

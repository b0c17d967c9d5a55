import type pg from 'pg';

import type { RateProvider } from './types.ts';

/** The provider name of the seeded snapshot (hasura/seeds, `rates_snapshot`). */
export const OFFLINE_PROVIDER = 'offline';

/**
 * The embedded default: answers the seeded snapshot, i.e. the `public.rates` rows of provider
 * `offline` (seeded with every currency, editable by staff). Refreshing through it re-stamps
 * those prices as current, which is what keeps quotes working without a market feed. Never
 * configure it in production: its prices are a fixed snapshot, not the market.
 */
export function createOfflineProvider(db: Pick<pg.Pool, 'query'>): RateProvider {
  return {
    name: OFFLINE_PROVIDER,
    async fetchPrices(codes) {
      const { rows } = await db.query<{ currency_code: string; price_usdt: string }>(
        `SELECT currency_code, price_usdt::text AS price_usdt
           FROM public.rates
          WHERE provider = $1 AND currency_code = ANY($2::text[])`,
        [OFFLINE_PROVIDER, codes.map((ref) => ref.code)],
      );
      return new Map(rows.map((row) => [row.currency_code, row.price_usdt]));
    },
  };
}

import type pg from 'pg';

import { createLogger, type Logger } from '@app/shared/log';

import { canonicalPrice, movedBeyond } from './price.ts';
import { RateProviderError, type CurrencyQuoteRef, type RateProvider } from './types.ts';

/** Default sanity bound: a price more than 1.5× or less than 1/1.5 of the last one is refused. */
export const DEFAULT_MAX_MOVE_FACTOR = 1.5;

/** Options of {@link refreshRates}. */
export interface RefreshOptions {
  /** Stored as `fetched_at` of every written row: the clock is injected. */
  now: Date;
  /**
   * Refuse a price that moved by more than this factor (> 1) against the last price stored
   * for the same currency and provider. A tolerance, not an amount, hence a number.
   */
  maxMoveFactor?: number;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** A price written to `public.rates`. */
export interface RefreshedRate {
  code: string;
  provider: string;
  price: string;
}

/** A price a provider answered that failed validation. */
export interface RejectedRate extends RefreshedRate {
  reason: 'not-a-positive-decimal' | 'moved-too-far';
  previous?: string;
}

/** What one refresh did. */
export interface RefreshReport {
  updated: RefreshedRate[];
  rejected: RejectedRate[];
  /** Enabled currencies no provider priced acceptably: their stored rate just ages. */
  missing: string[];
  failedProviders: { provider: string; code: string; message: string }[];
}

async function enabledCurrencies(db: Pick<pg.Pool, 'query'>): Promise<CurrencyQuoteRef[]> {
  const { rows } = await db.query<CurrencyQuoteRef>(
    `SELECT code, symbol, kind, network FROM public.currencies
      WHERE enabled ORDER BY sort_order, code`,
  );
  return rows;
}

/**
 * Fetches prices for every enabled currency from `providers` (in parallel, outside any
 * transaction), then in ONE transaction picks per currency the first provider in order of
 * preference whose price is a positive decimal that moved at most `maxMoveFactor` against the
 * last price stored for that (currency, provider), and upserts it into `public.rates` with
 * `fetched_at = now`. A rejected price is logged and the next provider tried; a failing
 * provider is logged and skipped. Stored rows are locked while compared, and a row is never
 * moved back in time. Prices travel as strings, never floats.
 */
export async function refreshRates(
  pool: pg.Pool,
  providers: readonly RateProvider[],
  options: RefreshOptions,
): Promise<RefreshReport> {
  const factor = options.maxMoveFactor ?? DEFAULT_MAX_MOVE_FACTOR;
  if (!(factor > 1)) throw new RangeError('maxMoveFactor must be greater than 1');
  const logger = options.logger ?? createLogger('actions');
  const report: RefreshReport = { updated: [], rejected: [], missing: [], failedProviders: [] };

  const refs = await enabledCurrencies(pool);
  const answers = await Promise.all(
    providers.map(async (provider) => {
      try {
        return await provider.fetchPrices(refs);
      } catch (error) {
        const code = RateProviderError.is(error) ? error.code : 'provider-error';
        const message = error instanceof Error ? error.message : String(error);
        report.failedProviders.push({ provider: provider.name, code, message });
        logger.warn({ provider: provider.name, code, err: error }, 'rate provider failed');
        return new Map<string, string>();
      }
    }),
  );

  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ key: string; price_usdt: string }>(
      `SELECT currency_code || '/' || provider AS key, price_usdt::text AS price_usdt
         FROM public.rates WHERE currency_code = ANY($1::text[])
        ORDER BY currency_code, provider FOR UPDATE`,
      [refs.map((ref) => ref.code)],
    );
    const stored = new Map(rows.map((row) => [row.key, row.price_usdt]));

    for (const ref of refs) {
      let chosen = false;
      for (const [index, provider] of providers.entries()) {
        const raw = answers[index]?.get(ref.code);
        if (raw === undefined) continue;
        const candidate = { code: ref.code, provider: provider.name, price: raw };
        const price = canonicalPrice(raw);
        if (price === null) {
          report.rejected.push({ ...candidate, reason: 'not-a-positive-decimal' });
          logger.warn(candidate, 'rate refused: not a positive decimal');
          continue;
        }
        const previous = stored.get(`${ref.code}/${provider.name}`);
        if (previous !== undefined && movedBeyond(previous, price, factor)) {
          report.rejected.push({ ...candidate, price, previous, reason: 'moved-too-far' });
          logger.warn({ ...candidate, price, previous, factor }, 'rate refused: moved too far');
          continue;
        }
        report.updated.push({ ...candidate, price });
        chosen = true;
        break;
      }
      if (!chosen) report.missing.push(ref.code);
    }

    await client.query(
      `INSERT INTO public.rates AS r (currency_code, provider, price_usdt, fetched_at)
       SELECT code, provider, price, $4::timestamptz
         FROM unnest($1::text[], $2::text[], $3::numeric[]) AS t (code, provider, price)
       ON CONFLICT (currency_code, provider) DO UPDATE
         SET price_usdt = EXCLUDED.price_usdt, fetched_at = EXCLUDED.fetched_at
         WHERE r.fetched_at <= EXCLUDED.fetched_at`,
      [
        report.updated.map((rate) => rate.code),
        report.updated.map((rate) => rate.provider),
        report.updated.map((rate) => rate.price),
        options.now.toISOString(),
      ],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }

  logger.info(
    {
      updated: report.updated.length,
      rejected: report.rejected.length,
      missing: report.missing,
      failedProviders: report.failedProviders.map((failure) => failure.provider),
    },
    'rates refreshed',
  );
  return report;
}

import type pg from 'pg';

import type { Logger } from '@app/shared/log';

import type { RatesProviderName } from '../env.ts';

import { createBinanceProvider } from './binance.ts';
import { createKrakenProvider } from './kraken.ts';
import { createOfflineProvider } from './offline.ts';
import { refreshRates, type RefreshReport } from './refresh.ts';
import type { RateProvider } from './types.ts';

/*
 * The `refresh_rates` cron trigger (hasura/metadata/cron_triggers.yaml, every minute): one
 * refreshRates run with the providers RATES_PROVIDER names, answered with a summary that the
 * engine keeps in its invocation log.
 */

/** The providers RATES_PROVIDER names, in its order (the first is preferred). */
export function rateProviders(
  names: readonly RatesProviderName[],
  pool: Pick<pg.Pool, 'query'>,
): RateProvider[] {
  return names.map((name) => {
    switch (name) {
      case 'offline':
        return createOfflineProvider(pool);
      case 'binance':
        return createBinanceProvider();
      case 'kraken':
        return createKrakenProvider();
    }
  });
}

/** The answer of the cron route. */
export interface RatesCronSummary {
  providers: string[];
  fetchedAt: string;
  updated: number;
  rejected: RefreshReport['rejected'];
  /** Enabled currencies that no provider priced: their stored rate just ages. */
  missing: string[];
  failedProviders: RefreshReport['failedProviders'];
}

/**
 * Runs one refresh. The status is 502 when every provider failed (nothing was refreshed, and
 * the invocation log shows it as a failure), else 200, also when some currencies are missing.
 */
export async function runRatesRefresh(
  pool: pg.Pool,
  providers: readonly RateProvider[],
  options: { now: Date; logger?: Pick<Logger, 'info' | 'warn'> },
): Promise<{ status: number; summary: RatesCronSummary }> {
  const report = await refreshRates(pool, providers, {
    now: options.now,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const summary: RatesCronSummary = {
    providers: providers.map((provider) => provider.name),
    fetchedAt: options.now.toISOString(),
    updated: report.updated.length,
    rejected: report.rejected,
    missing: report.missing,
    failedProviders: report.failedProviders,
  };
  const allFailed = providers.length > 0 && report.failedProviders.length === providers.length;
  return { status: allFailed ? 502 : 200, summary };
}

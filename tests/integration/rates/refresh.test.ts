import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createBinanceProvider,
  createOfflineProvider,
  latestRates,
  RateProviderError,
  refreshRates,
  type CurrencyQuoteRef,
  type RateProvider,
} from '@app/actions/rates';
import { fixture, startFixtureServer } from '@app/actions/rates/testing';
import {
  applySeeds,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  migrateUp,
} from '@app/engine/database';
import type { Logger } from '@app/shared/log';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

/** A provider answering a fixed table, recording what it was asked for. */
function fakeProvider(name: string, prices: Record<string, string>) {
  const asked: CurrencyQuoteRef[][] = [];
  const provider: RateProvider = {
    name,
    fetchPrices(codes) {
      asked.push([...codes]);
      return Promise.resolve(
        new Map(Object.entries(prices).filter(([code]) => codes.some((ref) => ref.code === code))),
      );
    },
  };
  return Object.assign(provider, { asked });
}

function capturingLogger() {
  const warnings: { data: unknown; message: string | undefined }[] = [];
  const logger = {
    info: () => {},
    warn: (data: unknown, message?: string) => {
      warnings.push({ data, message });
    },
  } as unknown as Pick<Logger, 'info' | 'warn'>;
  return { logger, warnings };
}

describe.each(databaseTargets)('rates refresh on $name', (target) => {
  let db: TestDatabase;
  let enabledCount: number;

  beforeAll(async () => {
    db = await target.create();
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
    const { rows } = await db.pool.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM currencies WHERE enabled',
    );
    enabledCount = Number(rows[0]?.n);
  });
  afterAll(async () => {
    await db.dispose();
  });

  async function storedRate(code: string, provider: string) {
    const { rows } = await db.pool.query<{ price: string; fetched_at: Date }>(
      `SELECT price_usdt::text AS price, fetched_at FROM rates
        WHERE currency_code = $1 AND provider = $2`,
      [code, provider],
    );
    return rows[0];
  }

  it('the offline provider answers the seeded snapshot, digit for digit', async () => {
    const { rows } = await db.pool.query<CurrencyQuoteRef>(
      'SELECT code, symbol, kind, network FROM currencies WHERE enabled',
    );
    const prices = await createOfflineProvider(db.pool).fetchPrices(rows);
    expect(prices.size).toBe(enabledCount);
    expect(prices.get('BTC')).toBe('98500.00');
    expect(prices.get('SHIB')).toBe('0.0000165');
    expect(prices.get('UAH')).toBe('0.0240');
    expect(prices.get('USDTTRC20')).toBe('1');
  });

  it('refreshing through the offline provider re-stamps the snapshot as of `now`', async () => {
    const now = new Date('2030-01-01T00:00:00.000Z');
    const { logger } = capturingLogger();
    const report = await refreshRates(db.pool, [createOfflineProvider(db.pool)], { now, logger });
    expect(report.updated).toHaveLength(enabledCount);
    expect(report).toMatchObject({ rejected: [], missing: [], failedProviders: [] });
    // Same value, canonical form (the seed wrote 98500.00).
    expect(await storedRate('BTC', 'offline')).toEqual({ price: '98500', fetched_at: now });
    const { rows } = await db.pool.query<{ stale: string }>(
      `SELECT count(*)::text AS stale FROM rates WHERE provider = 'offline' AND fetched_at <> $1`,
      [now],
    );
    expect(rows[0]?.stale).toBe('0');
  });

  it('takes each price from the first provider that has it and stores it exactly', async () => {
    const now = new Date('2030-01-01T00:05:00.000Z');
    const first = fakeProvider('first', { BTC: '97000.5', SHIB: '0.000016512345678901234567' });
    const second = fakeProvider('second', { BTC: '1', EUR: '1.1591', ETH: '3609.12' });
    const { logger } = capturingLogger();
    const report = await refreshRates(db.pool, [first, second], { now, logger });

    expect(report.updated).toEqual([
      { code: 'BTC', provider: 'first', price: '97000.5' },
      { code: 'ETH', provider: 'second', price: '3609.12' },
      { code: 'SHIB', provider: 'first', price: '0.000016512345678901234567' },
      { code: 'EUR', provider: 'second', price: '1.1591' },
    ]);
    expect(report.missing).toHaveLength(enabledCount - 4);
    expect(await storedRate('SHIB', 'first')).toEqual({
      price: '0.000016512345678901234567',
      fetched_at: now,
    });
    expect(await storedRate('BTC', 'second')).toBeUndefined();
    const latest = await latestRates(db.pool, ['BTC', 'XMR']);
    expect(latest.get('BTC')).toEqual({ provider: 'first', price: '97000.5', fetchedAt: now });
    expect(latest.get('XMR')?.provider).toBe('offline');
  });

  it('asks only for enabled currencies', async () => {
    await db.pool.query(`UPDATE currencies SET enabled = false WHERE code = 'DOGE'`);
    try {
      const provider = fakeProvider('asked', {});
      const { logger } = capturingLogger();
      await refreshRates(db.pool, [provider], { now: new Date('2030-01-01T00:06:00Z'), logger });
      const codes = provider.asked[0]?.map((ref) => ref.code) ?? [];
      expect(codes).toHaveLength(enabledCount - 1);
      expect(codes).not.toContain('DOGE');
      expect(provider.asked[0]?.find((ref) => ref.code === 'USDTTRC20')).toEqual({
        code: 'USDTTRC20',
        symbol: 'USDT',
        kind: 'crypto',
        network: 'TRC20',
      });
    } finally {
      await db.pool.query(`UPDATE currencies SET enabled = true WHERE code = 'DOGE'`);
    }
  });

  it('refuses and logs a price that moved too far, falling back to the next provider', async () => {
    const now = new Date('2030-01-01T00:10:00.000Z');
    const first = fakeProvider('first', { BTC: '194001.1', SHIB: '0.0000165' });
    const second = fakeProvider('second', { BTC: '97100' });
    const { logger, warnings } = capturingLogger();
    const report = await refreshRates(db.pool, [first, second], { now, logger });

    // 194001.1 / 97000.5 ≈ 2.0: beyond the default factor 1.5; the second had no BTC before.
    expect(report.rejected).toEqual([
      {
        code: 'BTC',
        provider: 'first',
        price: '194001.1',
        previous: '97000.5',
        reason: 'moved-too-far',
      },
    ]);
    expect(report.updated).toContainEqual({ code: 'BTC', provider: 'second', price: '97100' });
    expect(report.updated).toContainEqual({ code: 'SHIB', provider: 'first', price: '0.0000165' });
    expect(warnings.map((warning) => warning.message)).toContain('rate refused: moved too far');
    expect(await storedRate('BTC', 'first')).toEqual({
      price: '97000.5',
      fetched_at: new Date('2030-01-01T00:05:00.000Z'),
    });
  });

  it('accepts a move within a configured factor', async () => {
    const first = fakeProvider('first', { BTC: '135800' }); // 1.4 × 97000.5 ≈ 135800.7
    const { logger } = capturingLogger();
    const now = new Date('2030-01-01T00:15:00.000Z');
    const strict = await refreshRates(db.pool, [first], { now, logger, maxMoveFactor: 1.2 });
    expect(strict.rejected).toHaveLength(1);
    const lenient = await refreshRates(db.pool, [first], { now, logger, maxMoveFactor: 1.5 });
    expect(lenient.updated).toEqual([{ code: 'BTC', provider: 'first', price: '135800' }]);
  });

  it('refuses a price that is not a positive decimal', async () => {
    const bad = fakeProvider('bad', { BTC: '-5', ETH: '0', EUR: 'NaN', UAH: '2.4e-2' });
    const { logger } = capturingLogger();
    const report = await refreshRates(db.pool, [bad], {
      now: new Date('2030-01-01T00:20:00Z'),
      logger,
    });
    expect(report.updated).toEqual([]);
    expect(report.rejected.map((rate) => [rate.code, rate.reason])).toEqual([
      ['BTC', 'not-a-positive-decimal'],
      ['ETH', 'not-a-positive-decimal'],
      ['EUR', 'not-a-positive-decimal'],
      ['UAH', 'not-a-positive-decimal'],
    ]);
  });

  it('logs a failing provider and carries on with the others', async () => {
    const failing: RateProvider = {
      name: 'failing',
      fetchPrices: () =>
        Promise.reject(new RateProviderError('failing', 'rate-limited', 'HTTP 429: slow down')),
    };
    const { logger, warnings } = capturingLogger();
    const report = await refreshRates(db.pool, [failing, fakeProvider('second', { ETH: '3610' })], {
      now: new Date('2030-01-01T00:25:00Z'),
      logger,
    });
    expect(report.failedProviders).toEqual([
      { provider: 'failing', code: 'rate-limited', message: 'failing: HTTP 429: slow down' },
    ]);
    expect(report.updated).toEqual([{ code: 'ETH', provider: 'second', price: '3610' }]);
    expect(warnings[0]?.message).toBe('rate provider failed');
  });

  it('never moves a stored price back in time', async () => {
    const { logger } = capturingLogger();
    await refreshRates(db.pool, [fakeProvider('second', { ETH: '3500' })], {
      now: new Date('2029-12-31T00:00:00Z'),
      logger,
    });
    expect(await storedRate('ETH', 'second')).toEqual({
      price: '3610',
      fetched_at: new Date('2030-01-01T00:25:00Z'),
    });
  });

  it('writes all or nothing: one invalid row rolls the whole refresh back', async () => {
    const { logger } = capturingLogger();
    const now = new Date('2030-01-01T00:30:00Z');
    // The provider name breaks the rates.provider check: the valid rows must not land either.
    const refresh = refreshRates(
      db.pool,
      [fakeProvider('second', { ETH: '3611' }), fakeProvider('Not Valid!', { BTC: '97000' })],
      { now, logger },
    );
    await expect(refresh).rejects.toMatchObject({ code: '23514' });
    expect((await storedRate('ETH', 'second'))?.price).toBe('3610');
  });

  it('stores recorded Binance prices, with the offline snapshot for what Binance lacks', async () => {
    const server = await startFixtureServer({
      '/api/v3/ticker/price': { body: fixture('binance/ticker-price.json') },
    });
    try {
      const now = new Date('2030-01-01T01:00:00.000Z');
      const { logger } = capturingLogger();
      const report = await refreshRates(
        db.pool,
        [createBinanceProvider({ baseUrl: server.url }), createOfflineProvider(db.pool)],
        { now, logger },
      );
      expect(report.missing).toEqual([]);
      expect(report.updated).toContainEqual({ code: 'BTC', provider: 'binance', price: '97834.2' });
      expect(report.updated).toContainEqual({
        code: 'UAH',
        provider: 'binance',
        price: '0.02388344877',
      });
      expect(report.updated).toContainEqual({ code: 'XMR', provider: 'offline', price: '245' });
      const latest = await latestRates(db.pool, ['BTC', 'XMR', 'UAH']);
      expect(latest.get('BTC')).toEqual({ provider: 'binance', price: '97834.2', fetchedAt: now });
      expect(latest.get('XMR')).toEqual({ provider: 'offline', price: '245', fetchedAt: now });
    } finally {
      await server.close();
    }
  });
});

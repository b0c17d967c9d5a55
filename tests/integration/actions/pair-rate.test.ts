import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Dec } from '@app/shared/quote';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from './harness.ts';

/*
 * `pairRate` (issue 23, decision 046) through the engine: the rate and both sides' limits
 * before typing are exactly what `quote` then applies and refuses at, for a visitor and for a
 * signed-in user with a better level or a custom rate.
 */

const PAIR_RATE = `query ($from: String!, $to: String!) {
  pairRate(from: $from, to: $to) {
    from to rate publicRate marketRate betterByPercent
    sendLimits { side currency min max }
    receiveLimits { side currency min max }
    processing { mode at }
    ratesFetchedAt
  }
}`;

const QUOTE = `query ($input: QuoteInput!) {
  quote(input: $input) { rate limits { side currency min max } }
}`;

interface Limits {
  side: string;
  currency: string;
  min: string;
  max: string;
}

interface PairRateAnswer {
  from: string;
  to: string;
  rate: string;
  publicRate: string;
  marketRate: string;
  betterByPercent: string | null;
  sendLimits: Limits;
  receiveLimits: Limits;
  processing: { mode: string; at: string | null };
  ratesFetchedAt: string;
}

describe.each(databaseTargets)('the pairRate action on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const env = { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS };
  const plain = randomUUID();
  const silver = randomUUID();
  const custom = randomUUID();
  const worse = randomUUID();

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { plain, silver, custom, worse });
    await db.pool.query(`UPDATE portal_users SET status = 'silver' WHERE id = $1`, [silver]);
    // A BTC sell price 0.5 % above the `new` level's (0.98 against 0.975 of the market), and
    // one below it.
    for (const [user, factor] of [
      [custom, '0.98'],
      [worse, '0.9'],
    ] as const) {
      await db.pool.query(
        `INSERT INTO user_custom_carrency (user_id, currency_code, sell_rate)
         SELECT $1, 'BTC', price_usdt * $2::numeric FROM rates
          WHERE currency_code = 'BTC' ORDER BY fetched_at DESC LIMIT 1`,
        [user, factor],
      );
    }
    stack = await startActionsStack(db, { env });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  async function pairRate(from: string, to: string, userId?: string): Promise<PairRateAnswer> {
    const body = await stack.graphql(PAIR_RATE, { from, to }, userId);
    expect(body.errors).toBeUndefined();
    return body.data!['pairRate'] as PairRateAnswer;
  }

  async function quote(amount: string, side: 'send' | 'receive', userId?: string) {
    return stack.graphql(QUOTE, { input: { from: 'BTC', to: 'USDTTRC20', side, amount } }, userId);
  }

  it('a visitor: the quote’s rate, and the limits of both sides at which the quote refuses', async () => {
    const rate = await pairRate('BTC', 'USDTTRC20');
    expect(rate).toMatchObject({
      from: 'BTC',
      to: 'USDTTRC20',
      betterByPercent: null,
      processing: { mode: 'now', at: null },
    });
    expect(rate.publicRate).toBe(rate.rate);
    // The receiving side's 100,000 USDT is the tighter maximum, far below BTC's own 10.
    expect(rate.sendLimits).toMatchObject({ side: 'send', currency: 'BTC' });
    expect(new Dec(rate.sendLimits.max).lessThan(10)).toBe(true);
    expect(rate.receiveLimits).toMatchObject({
      side: 'receive',
      currency: 'USDTTRC20',
      max: '100000.000000',
    });

    for (const side of ['send', 'receive'] as const) {
      const limits = side === 'send' ? rate.sendLimits : rate.receiveLimits;
      const accepted = await quote(limits.max, side);
      expect(accepted.errors).toBeUndefined();
      expect(accepted.data!['quote']).toEqual({ rate: rate.rate, limits });
    }
    const refused = await quote('2', 'send');
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'amount-above-max',
      currency: 'BTC',
      limit: rate.sendLimits.max,
    });
  });

  it('a user on the default level gets the public rate, and nothing "better"', async () => {
    const rate = await pairRate('BTC', 'USDTTRC20', plain);
    const visitor = await pairRate('BTC', 'USDTTRC20');
    expect(rate).toEqual(visitor);
  });

  it('a user on a better level: their rate and limits, the public one, and "2.0 % more"', async () => {
    const rate = await pairRate('BTC', 'USDTTRC20', silver);
    const visitor = await pairRate('BTC', 'USDTTRC20');
    expect(rate.publicRate).toBe(visitor.rate);
    // (0.985 / 1.02) / (0.975 / 1.03) − 1 = 2.016…%, rounded down to 0.1.
    expect(rate.betterByPercent).toBe('2.0');
    expect(new Dec(rate.rate).greaterThan(visitor.rate)).toBe(true);
    const accepted = await quote(rate.sendLimits.max, 'send', silver);
    expect(accepted.data!['quote']).toEqual({ rate: rate.rate, limits: rate.sendLimits });
  });

  it('a user with a better custom rate: "0.5 % more"; a worse one: nothing', async () => {
    const better = await pairRate('BTC', 'USDTTRC20', custom);
    // 0.98 / 0.975 − 1 = 0.5128…%
    expect(better.betterByPercent).toBe('0.5');
    const accepted = await quote(better.sendLimits.min, 'send', custom);
    expect(accepted.data!['quote']).toEqual({ rate: better.rate, limits: better.sendLimits });

    const lower = await pairRate('BTC', 'USDTTRC20', worse);
    expect(lower.betterByPercent).toBeNull();
    expect(new Dec(lower.rate).lessThan(lower.publicRate)).toBe(true);
  });

  it('refuses a malformed currency and an unknown direction with the quote’s codes', async () => {
    const malformed = await stack.graphql(PAIR_RATE, { from: 'btc!', to: 'USDTTRC20' });
    expect(malformed.errors?.[0]?.extensions).toMatchObject({
      code: 'invalid-input',
      field: 'from',
    });
    const unknown = await stack.graphql(PAIR_RATE, { from: 'BTC', to: 'NOPE' });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'unknown-direction' });
  });
});

import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from './harness.ts';

/*
 * The daily window of spec section 9 through the quote action, with the service's clock
 * injected: UAH directions are processed 09:00-23:00 UTC+3, and an order after 22:30 is
 * processed the next morning, which the quote says. And a disabled direction quotes nothing.
 */

const QUOTE = `query ($input: QuoteInput!) {
  quote(input: $input) { sendAmount processing { mode at } }
}`;
const UAH_ORDER = { from: 'USDTTRC20', to: 'UAH', side: 'send', amount: '500' };

/** Tomorrow (so the seeded rates are in the past) at `time` UTC. */
function tomorrowAt(time: string): Date {
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return new Date(`${day}T${time}Z`);
}

describe.each(databaseTargets)('daily window and disabled directions on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  let clock = new Date();

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice: randomUUID() });
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
      now: () => clock,
    });
  });
  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  const processingAt = async (utcTime: string) => {
    clock = tomorrowAt(utcTime);
    const body = await stack.graphql(QUOTE, { input: UAH_ORDER });
    expect(body.errors).toBeUndefined();
    return (body.data?.['quote'] as { processing: { mode: string; at: string | null } }).processing;
  };

  it('processes an order inside the window now', async () => {
    // 12:00 and 22:29 in Kyiv (UTC+3).
    expect(await processingAt('09:00:00')).toEqual({ mode: 'now', at: null });
    expect(await processingAt('19:29:00')).toEqual({ mode: 'now', at: null });
  });

  it('moves an order after the 22:30 cut-off, or before opening, to the next 09:00', async () => {
    const next = tomorrowAt('06:00:00'); // 09:00 UTC+3 of the same calendar day
    const late = await processingAt('19:45:00'); // 22:45 in Kyiv
    expect(late.mode).toBe('next-window');
    expect(new Date(late.at!).getTime()).toBe(next.getTime() + 86_400_000);

    const early = await processingAt('04:00:00'); // 07:00 in Kyiv
    expect(early.mode).toBe('next-window');
    expect(new Date(early.at!).getTime()).toBe(next.getTime());
  });

  it('quotes a direction without a window at any hour', async () => {
    clock = tomorrowAt('21:00:00'); // midnight in Kyiv
    const body = await stack.graphql(QUOTE, {
      input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.1' },
    });
    expect((body.data?.['quote'] as { processing: unknown }).processing).toEqual({
      mode: 'now',
      at: null,
    });
  });

  it('refuses a quote on a disabled direction', async () => {
    await db.pool.query(
      `UPDATE exchange_directions SET enabled = false
        WHERE from_currency = 'USDTTRC20' AND to_currency = 'UAH'`,
    );
    const body = await stack.graphql(QUOTE, { input: UAH_ORDER });
    expect(body.errors?.[0]?.extensions['code']).toBe('direction-disabled');
    await db.pool.query(
      `UPDATE exchange_directions SET enabled = true
        WHERE from_currency = 'USDTTRC20' AND to_currency = 'UAH'`,
    );
  });
});

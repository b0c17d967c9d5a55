import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from '../actions/harness.ts';

/*
 * The refresh_rates cron trigger (hasura/metadata/cron_triggers.yaml): the actions service's
 * route, called directly and by the engine, with the offline provider (the seeded snapshot).
 */

describe.each(databaseTargets)('rates refresh cron trigger on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, {});
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS, RATES_PROVIDER: ['offline'] },
    });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  /** The offline snapshot's rows of enabled currencies: how many, and their oldest stamp. */
  async function offlineRates() {
    const { rows } = await db.pool.query<{ count: number; oldest: Date; newest: Date }>(
      `SELECT count(*)::int AS count, min(r.fetched_at) AS oldest, max(r.fetched_at) AS newest
         FROM rates r JOIN currencies c ON c.code = r.currency_code
        WHERE c.enabled AND r.provider = 'offline'`,
    );
    return rows[0]!;
  }

  it('re-stamps the offline snapshot and answers a summary', async () => {
    const before = await offlineRates();
    expect(before.count).toBeGreaterThan(0);
    const response = await fetch(`${stack.actionsUrl}/cron/refresh-rates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_HEADER]: ACTIONS_SECRET },
      body: JSON.stringify({ name: 'refresh_rates', payload: {} }),
    });
    expect(response.status).toBe(200);
    const summary = (await response.json()) as Record<string, unknown>;
    expect(summary).toMatchObject({
      providers: ['offline'],
      updated: before.count,
      rejected: [],
      failedProviders: [],
    });
    const after = await offlineRates();
    expect(after.oldest.getTime()).toBeGreaterThan(before.newest.getTime());
    expect(after.oldest.toISOString()).toBe(summary['fetchedAt']);
  });

  it('is called by the engine when a refresh_rates event falls due', async () => {
    const before = await offlineRates();
    // The schedule is every minute; an event due now stands in for the next one.
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO hdb_catalog.engine_cron_events (trigger_name, scheduled_time)
       VALUES ('refresh_rates', now()) RETURNING id`,
    );
    const id = rows[0]!.id;
    const deadline = Date.now() + 15_000;
    let status = '';
    while (Date.now() < deadline) {
      const { rows: events } = await db.pool.query<{ status: string }>(
        'SELECT status FROM hdb_catalog.engine_cron_events WHERE id = $1',
        [id],
      );
      status = events[0]?.status ?? '';
      if (status === 'delivered' || status === 'error' || status === 'dead') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe('delivered');
    const { rows: invocations } = await db.pool.query<{
      status: number;
      request: { headers: unknown };
      response: { data: { body: string } };
    }>(
      `SELECT status, request, response FROM hdb_catalog.engine_cron_event_invocation_logs
        WHERE event_id = $1`,
      [id],
    );
    expect(invocations).toHaveLength(1);
    expect(invocations[0]!.status).toBe(200);
    // The secret is sent from the environment and never logged.
    expect(invocations[0]!.request.headers).toEqual([
      { name: SECRET_HEADER, value_from_env: 'ACTIONS_SECRET' },
    ]);
    expect(JSON.parse(invocations[0]!.response.data.body)).toMatchObject({
      providers: ['offline'],
      updated: before.count,
    });
    expect((await offlineRates()).oldest.getTime()).toBeGreaterThan(before.newest.getTime());
  });
});

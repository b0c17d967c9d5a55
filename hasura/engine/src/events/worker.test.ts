import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../../../tests/support/databases.ts';

import { CATALOG_DDL } from './catalog.ts';
import { startEventTriggers, type EventDeps, type EventTriggers } from './index.ts';
import { loadModel, sleep, WebhookReceiver, type ReceivedCall } from './testing.ts';

/*
 * The delivery worker against real databases (embedded PGlite, and the PostgreSQL server
 * when one is reachable): retries, restarts, crashes, two workers on one database, cron.
 * Rows are written with plain SQL in a transaction that sets `hasura.user`, as the engine's
 * mutations do; the engine's own GraphQL path is covered by engine.test.ts.
 */

const SETUP = `
CREATE SCHEMA IF NOT EXISTS hge_tests;
CREATE TABLE hge_tests.test_t1 (c1 int, c2 text);
CREATE TABLE public.orders (id bigserial PRIMARY KEY, amount numeric(20, 8) NOT NULL, note text, meta jsonb);
`;

const RESET = `
TRUNCATE hge_tests.test_t1, public.orders RESTART IDENTITY;
DELETE FROM hdb_catalog.event_invocation_logs;
DELETE FROM hdb_catalog.event_log;
DELETE FROM hdb_catalog.engine_cron_event_invocation_logs;
DELETE FROM hdb_catalog.engine_cron_events;
`;

const ADMIN = { 'x-hasura-role': 'admin' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface TriggerSpec {
  table?: 'test_t1' | 'orders';
  [key: string]: unknown;
}

function metadata(triggers: TriggerSpec[], cron: unknown[] = []) {
  const on = (table: string) =>
    triggers
      .filter((trigger) => (trigger.table ?? 'test_t1') === table)
      .map(({ table: _table, ...trigger }) => trigger);
  return {
    version: 3,
    sources: [
      {
        name: 'default',
        kind: 'postgres',
        tables: [
          { table: { schema: 'hge_tests', name: 'test_t1' }, event_triggers: on('test_t1') },
          { table: { schema: 'public', name: 'orders' }, event_triggers: on('orders') },
        ],
      },
    ],
    cron_triggers: cron,
  };
}

const allOps = { insert: { columns: '*' }, update: { columns: '*' }, delete: { columns: '*' } };

describe.each(databaseTargets)('event delivery worker on $name', (target) => {
  let db: TestDatabase;
  const extraPools: pg.Pool[] = [];
  const workers: EventTriggers[] = [];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    db = await target.create();
    await db.pool.query(SETUP);
    await db.pool.query(CATALOG_DDL);
  });
  afterAll(async () => {
    await db?.dispose();
  });
  beforeEach(async () => {
    await db.pool.query(RESET);
    receiver = new WebhookReceiver();
    await receiver.start();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.close()));
    await Promise.all(extraPools.splice(0).map((pool) => pool.end()));
    await receiver.stop();
  });

  async function start(
    object: unknown,
    options: Partial<EventDeps> & { pool?: pg.Pool; environment?: Record<string, string> } = {},
  ): Promise<EventTriggers> {
    const pool = options.pool ?? db.pool;
    const { metadata: loaded, model } = await loadModel(pool, object);
    const worker = await startEventTriggers({
      metadata: loaded,
      model,
      logger: undefined,
      pollIntervalMs: 200,
      shutdownGraceMs: 200,
      ...options,
      pool,
      environment: { HOOK: receiver.url, ...options.environment },
    });
    workers.push(worker);
    return worker;
  }

  function secondPool(): pg.Pool {
    const pool = new pg.Pool({ connectionString: db.url, max: 4 });
    extraPools.push(pool);
    return pool;
  }

  /** Writes as the engine does: one transaction with the session in `hasura.user`. */
  async function write(
    sql: string,
    params: unknown[] = [],
    session: Record<string, string> = ADMIN,
  ) {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT set_config('hasura.user', $1, true)`, [JSON.stringify(session)]);
      await client.query(sql, params);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  const events = async () =>
    (
      await db.pool.query<{
        id: string;
        trigger_name: string;
        delivered: boolean;
        error: boolean;
        tries: number;
        locked: Date | null;
        archived: boolean;
      }>(
        'SELECT id, trigger_name, delivered, error, tries, locked, archived FROM hdb_catalog.event_log ORDER BY created_at',
      )
    ).rows;

  const byId = (calls: ReceivedCall[]) => {
    const map = new Map<string, ReceivedCall[]>();
    for (const call of calls) {
      const id = call.body['id'] as string;
      map.set(id, [...(map.get(id) ?? []), call]);
    }
    return map;
  };

  it("delivers an insert at once, in Hasura's payload shape, and records it", async () => {
    // A poll interval far beyond the wait below: only the NOTIFY wake-up can deliver in time.
    await start(metadata([{ name: 't1_all', definition: allOps, webhook: '{{HOOK}}/hook' }]), {
      pollIntervalMs: 60_000,
    });
    const session = { 'x-hasura-role': 'user', 'x-hasura-user-id': '7' };
    const before = Date.now();
    await write(`INSERT INTO hge_tests.test_t1 (c1, c2) VALUES (1, 'hello')`, [], session);
    const [call] = await receiver.waitFor((calls) => calls.length === 1, 3_000);
    expect(call!.path).toBe('/hook');
    expect(call!.headers['content-type']).toBe('application/json');
    expect(Object.keys(call!.body).sort()).toEqual([
      'created_at',
      'delivery_info',
      'event',
      'id',
      'table',
      'trigger',
    ]);
    expect(call!.body).toMatchObject({
      event: {
        op: 'INSERT',
        data: { old: null, new: { c1: 1, c2: 'hello' } },
        session_variables: session,
      },
      delivery_info: { max_retries: 0, current_retry: 0 },
      trigger: { name: 't1_all' },
      table: { schema: 'hge_tests', name: 'test_t1' },
    });
    expect(call!.body['id']).toMatch(UUID);
    const createdAt = call!.body['created_at'] as string;
    expect(createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,5}[1-9])?Z$/);
    expect(Math.abs(Date.parse(createdAt) - before)).toBeLessThan(5_000);

    await sleep(300);
    const [row] = await events();
    expect(row).toMatchObject({
      id: call!.body['id'],
      delivered: true,
      error: false,
      tries: 1,
      locked: null,
    });
    const logs = await db.pool.query<{
      status: number;
      request: { payload: unknown; version: string };
    }>('SELECT status, request FROM hdb_catalog.event_invocation_logs WHERE event_id = $1', [
      row!.id,
    ]);
    expect(logs.rows).toHaveLength(1);
    expect(logs.rows[0]).toMatchObject({
      status: 200,
      request: { payload: call!.body, version: '2' },
    });
  });

  it('fires an update only when a listened column changes, with only the payload columns', async () => {
    await start(
      metadata([
        {
          name: 't1_cols',
          definition: {
            insert: { columns: '*' },
            update: { columns: ['c1'], payload: ['c1'] },
            delete: { columns: '*', payload: ['c2'] },
          },
          webhook: '{{HOOK}}',
        },
      ]),
    );
    await write(`INSERT INTO hge_tests.test_t1 (c1, c2) VALUES (NULL, 'hello')`);
    await receiver.waitFor((calls) => calls.length === 1);
    await write(`UPDATE hge_tests.test_t1 SET c2 = 'world'`);
    await write(`UPDATE hge_tests.test_t1 SET c1 = NULL`);
    await write(`UPDATE hge_tests.test_t1 SET c1 = 2`);
    await write(`DELETE FROM hge_tests.test_t1`);
    await receiver.waitFor((calls) => calls.length >= 3);
    await sleep(600);
    const order = ['INSERT', 'UPDATE', 'DELETE'];
    const ops = receiver.calls
      .map((call) => call.body['event'] as { op: string })
      .sort((a, b) => order.indexOf(a.op) - order.indexOf(b.op));
    expect(ops).toEqual([
      {
        op: 'INSERT',
        data: { old: null, new: { c1: null, c2: 'hello' } },
        session_variables: ADMIN,
        trace_context: null,
      },
      {
        op: 'UPDATE',
        data: { old: { c1: null }, new: { c1: 2 } },
        session_variables: ADMIN,
        trace_context: null,
      },
      {
        op: 'DELETE',
        data: { old: { c2: 'world' }, new: null },
        session_variables: ADMIN,
        trace_context: null,
      },
    ]);
  });

  it('sends bigint and numeric as strings, json as json, and no session variables for other writers', async () => {
    await start(
      metadata([{ table: 'orders', name: 'orders_all', definition: allOps, webhook: '{{HOOK}}' }]),
    );
    await db.pool.query(
      `INSERT INTO public.orders (amount, meta) VALUES (12345678.12345678, '{"a": [1, 2]}')`,
    );
    const [call] = await receiver.waitFor((calls) => calls.length === 1);
    expect(call!.body['event']).toMatchObject({
      op: 'INSERT',
      data: { new: { id: '1', amount: '12345678.12345678', note: null, meta: { a: [1, 2] } } },
      session_variables: null,
    });
  });

  it('keeps retrying while the receiver is down or failing, then delivers each event exactly once', async () => {
    const port = receiver.port;
    await receiver.stop();
    await start(
      metadata([
        {
          name: 't1_retry',
          definition: allOps,
          webhook: '{{HOOK}}',
          retry_conf: { num_retries: 30, interval_sec: 1 },
        },
      ]),
    );
    for (let i = 1; i <= 5; i++) await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES ($1)`, [i]);
    await sleep(1_500); // connection refused meanwhile
    let failing = true;
    receiver.reply = () => (failing ? { status: 500 } : { status: 200 });
    await receiver.start(port);
    await receiver.waitFor((calls) => calls.length >= 5, 5_000, 'failing attempts');
    failing = false;
    await receiver.waitFor(
      (calls) => new Set(calls.filter((c) => c.status === 200).map((c) => c.body['id'])).size === 5,
      8_000,
    );
    await sleep(1_500);

    const calls = byId(receiver.calls);
    expect(calls.size).toBe(5);
    expect(receiver.overlaps).toBe(0);
    const rows = await events();
    for (const [id, attempts] of calls) {
      expect(attempts.filter((call) => call.status === 200)).toHaveLength(1);
      expect(attempts.at(-1)!.status).toBe(200);
      const retries = attempts.map(
        (call) => (call.body['delivery_info'] as { current_retry: number }).current_retry,
      );
      expect(retries).toEqual([...retries].sort((a, b) => a - b));
      expect(retries[0]).toBeGreaterThan(0); // the refused attempts counted as tries
      const row = rows.find((candidate) => candidate.id === id)!;
      expect(row).toMatchObject({ delivered: true, error: false, locked: null });
      expect(row.tries).toBe(retries.at(-1)! + 1);
    }
  });

  it('retries a webhook that times out, num_retries times, then marks the event as failed', async () => {
    receiver.reply = () => ({ status: 200, delayMs: 1_500 });
    await start(
      metadata([
        {
          name: 't1_timeout',
          definition: allOps,
          webhook: '{{HOOK}}',
          retry_conf: { num_retries: 2, interval_sec: 1, timeout_sec: 1 },
        },
      ]),
    );
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await receiver.waitFor((calls) => calls.length === 3, 10_000);
    await sleep(2_000);
    expect(
      receiver.calls.map(
        (call) => (call.body['delivery_info'] as { current_retry: number }).current_retry,
      ),
    ).toEqual([0, 1, 2]);
    expect(await events()).toMatchObject([
      { delivered: false, error: true, tries: 3, locked: null },
    ]);
  });

  it("honours the receiver's Retry-After, even with no retries configured", async () => {
    receiver.reply = (_call, self) =>
      self.calls.length === 1 ? { status: 503, headers: { 'Retry-After': '1' } } : { status: 204 };
    await start(metadata([{ name: 't1_after', definition: allOps, webhook: '{{HOOK}}' }]));
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    const calls = await receiver.waitFor((all) => all.length === 2, 5_000);
    expect(calls[1]!.startedAt - calls[0]!.startedAt).toBeGreaterThanOrEqual(900);
    expect(calls[1]!.body['delivery_info']).toEqual({ max_retries: 0, current_retry: 1 });
    await sleep(300);
    expect(await events()).toMatchObject([{ delivered: true, tries: 2 }]);
  });

  it('hands an event back when stopped mid-delivery; the next engine delivers it', async () => {
    receiver.reply = () => 'hang';
    const first = await start(
      metadata([{ name: 't1_all', definition: allOps, webhook: '{{HOOK}}' }]),
    );
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await receiver.waitFor((calls) => calls.length === 1);
    await first.close();
    expect(await events()).toMatchObject([
      { delivered: false, error: false, tries: 0, locked: null },
    ]);

    receiver.reply = () => ({ status: 200 });
    await start(metadata([{ name: 't1_all', definition: allOps, webhook: '{{HOOK}}' }]));
    const calls = await receiver.waitFor((all) => all.length === 2);
    expect(calls[1]!.body['id']).toBe(calls[0]!.body['id']);
    expect(calls[1]!.body['delivery_info']).toEqual({ max_retries: 0, current_retry: 0 });
    await sleep(300);
    expect(await events()).toMatchObject([{ delivered: true, tries: 1 }]);
  });

  it('after a restart, delivers what is pending, and what a dead engine left locked, but not what a live one holds', async () => {
    const spec = metadata([
      {
        name: 't1_all',
        definition: allOps,
        webhook: '{{HOOK}}',
        retry_conf: { num_retries: 5, interval_sec: 1 },
      },
    ]);
    const port = receiver.port;
    await receiver.stop();
    const first = await start(spec);
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await sleep(500);
    await first.close();
    // Left by an engine that died mid-delivery two hours ago, and one being delivered right now.
    await db.pool.query(
      `INSERT INTO hdb_catalog.event_log (schema_name, table_name, trigger_name, payload, locked) VALUES
         ('hge_tests', 'test_t1', 't1_all', '{"op":"INSERT","data":{"old":null,"new":{"c1":2}},"session_variables":null}', now() - interval '2 hours'),
         ('hge_tests', 'test_t1', 't1_all', '{"op":"INSERT","data":{"old":null,"new":{"c1":3}},"session_variables":null}', now())`,
    );
    await receiver.start(port);
    await start(spec);
    await receiver.waitFor((calls) => calls.length === 2, 5_000);
    await sleep(1_000);
    const delivered = receiver.calls
      .map((call) => (call.body['event'] as { data: { new: { c1: number } } }).data.new.c1)
      .sort();
    expect(delivered).toEqual([1, 2]);
    const held = (await events()).find((row) => !row.delivered);
    expect(held).toMatchObject({ tries: 0, delivered: false });
    expect(held!.locked).not.toBeNull();
  });

  it('two engines on one database never deliver one event at the same time', async () => {
    const spec = metadata([
      {
        name: 't1_all',
        definition: allOps,
        webhook: '{{HOOK}}',
        retry_conf: { num_retries: 3, interval_sec: 1 },
        headers: [{ name: 'X-Worker', value_from_env: 'WORKER' }],
      },
    ]);
    const seen = new Set<string>();
    // Each event fails once, then succeeds; every answer takes a while.
    receiver.reply = (call) => {
      const id = call.body['id'] as string;
      const first = !seen.has(id);
      seen.add(id);
      return { status: first ? 500 : 200, delayMs: 30 };
    };
    await start(spec, { environment: { WORKER: 'a' }, pollIntervalMs: 100 });
    await start(spec, { environment: { WORKER: 'b' }, pollIntervalMs: 100, pool: secondPool() });
    await write(`INSERT INTO hge_tests.test_t1 (c1) SELECT g FROM generate_series(1, 40) AS g`);
    await receiver.waitFor(
      (calls) => calls.filter((call) => call.status === 200).length >= 40,
      20_000,
    );
    await sleep(1_500);

    expect(receiver.overlaps).toBe(0);
    const calls = byId(receiver.calls);
    expect(calls.size).toBe(40);
    for (const attempts of calls.values()) {
      expect(attempts.map((call) => call.status)).toEqual([500, 200]);
      expect(
        attempts.map(
          (call) => (call.body['delivery_info'] as { current_retry: number }).current_retry,
        ),
      ).toEqual([0, 1]);
    }
    expect((await events()).every((row) => row.delivered && row.tries === 2)).toBe(true);
  });

  it('drops the SQL triggers of a removed event trigger and archives its events', async () => {
    const first = await start(
      metadata([{ name: 't1_gone', definition: allOps, webhook: '{{HOOK}}' }]),
    );
    await first.close();
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await start(
      metadata([
        { name: 't1_insert', definition: { insert: { columns: '*' } }, webhook: '{{HOOK}}' },
      ]),
    );
    const triggers = await db.pool.query<{ tgname: string }>(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'hge_tests.test_t1'::regclass AND NOT tgisinternal ORDER BY tgname`,
    );
    expect(triggers.rows.map((row) => row.tgname)).toEqual(['notify_hasura_t1_insert_INSERT']);
    const functions = await db.pool.query<{ proname: string }>(
      `SELECT proname FROM pg_proc WHERE pronamespace = 'hdb_catalog'::regnamespace AND proname LIKE 'notify_hasura_%' ORDER BY proname`,
    );
    expect(functions.rows.map((row) => row.proname)).toEqual(['notify_hasura_t1_insert_INSERT']);
    expect(await events()).toMatchObject([
      { trigger_name: 't1_gone', archived: true, delivered: false },
    ]);

    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (2)`);
    await write(`UPDATE hge_tests.test_t1 SET c1 = 3`);
    await receiver.waitFor((calls) => calls.length === 1);
    await sleep(600);
    expect(receiver.calls.map((call) => call.body['trigger'])).toEqual([{ name: 't1_insert' }]);
  });

  it('leaves events of a trigger whose environment is incomplete in the log', async () => {
    await start(metadata([{ name: 't1_env', definition: allOps, webhook_from_env: 'NOT_SET' }]));
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await sleep(600);
    expect(receiver.calls).toHaveLength(0);
    expect(await events()).toMatchObject([
      { trigger_name: 't1_env', delivered: false, tries: 0, locked: null },
    ]);
  });

  describe('cron triggers', () => {
    const cron = (extra: Record<string, unknown> = {}) => ({
      name: 'every_minute',
      webhook: '{{HOOK}}/cron',
      schedule: '* * * * *',
      payload: { job: 'refresh' },
      headers: [{ name: 'X-Cron', value: 'yes' }],
      retry_conf: { num_retries: 1, retry_interval_seconds: 1, timeout_seconds: 5 },
      comment: 'refresh rates',
      ...extra,
    });

    it("fires due occurrences once, with Hasura's payload, whichever engine claims them", async () => {
      const testStart = Date.now();
      // Generate from a minute ago, so that an occurrence is already due.
      const now = () => Date.now() - 61_000;
      await start(metadata([], [cron()]), { now });
      await start(metadata([], [cron()]), { now, pool: secondPool() });
      const [call] = await receiver.waitFor((calls) => calls.length >= 1, 5_000);
      expect(call!.path).toBe('/cron');
      expect(call!.headers['x-cron']).toBe('yes');
      expect(Object.keys(call!.body).sort()).toEqual([
        'comment',
        'id',
        'name',
        'payload',
        'scheduled_time',
      ]);
      expect(call!.body).toMatchObject({
        name: 'every_minute',
        payload: { job: 'refresh' },
        comment: 'refresh rates',
      });
      expect(call!.body['id']).toMatch(UUID);
      const scheduled = call!.body['scheduled_time'] as string;
      expect(scheduled).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
      expect(testStart - Date.parse(scheduled)).toBeLessThan(62_000);

      // Every occurrence due at the start is delivered, exactly once.
      const due = async () =>
        (
          await db.pool.query<{ id: string; status: string }>(
            `SELECT id, status FROM hdb_catalog.engine_cron_events WHERE scheduled_time < $1::timestamptz`,
            [new Date(testStart).toISOString()],
          )
        ).rows;
      const deadline = Date.now() + 5_000;
      let rows = await due();
      while (rows.some((row) => row.status !== 'delivered')) {
        expect(Date.now()).toBeLessThan(deadline);
        await sleep(100);
        rows = await due();
      }
      await sleep(500);
      expect(receiver.overlaps).toBe(0);
      const calls = byId(receiver.calls);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      for (const row of rows) expect(calls.get(row.id)).toHaveLength(1);
      const upcoming = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM hdb_catalog.engine_cron_events WHERE status = 'scheduled' AND scheduled_time > now()`,
      );
      expect(upcoming.rows[0]!.n).toBeGreaterThanOrEqual(98);
    });

    it('drops occurrences later than the tolerance, and retries failed ones', async () => {
      const testStart = Date.now();
      const seen = new Set<unknown>();
      receiver.reply = (call) => {
        const first = !seen.has(call.body['id']);
        seen.add(call.body['id']);
        return { status: first ? 500 : 200 };
      };
      await start(
        metadata(
          [],
          [
            cron({
              retry_conf: {
                num_retries: 1,
                retry_interval_seconds: 1,
                timeout_seconds: 5,
                tolerance_seconds: 90,
              },
            }),
          ],
        ),
        {
          now: () => Date.now() - 10 * 60_000,
        },
      );
      // Every occurrence already due at the start ends dead (too late) or delivered.
      const settled = async () =>
        (
          await db.pool.query<{ id: string; status: string; tries: number; late: number }>(
            `SELECT id, status, tries, extract(epoch FROM $1::timestamptz - scheduled_time)::float8 AS late
               FROM hdb_catalog.engine_cron_events WHERE scheduled_time < $1::timestamptz ORDER BY scheduled_time`,
            [new Date(testStart).toISOString()],
          )
        ).rows;
      const deadline = Date.now() + 10_000;
      let rows = await settled();
      while (rows.some((row) => row.status !== 'dead' && row.status !== 'delivered')) {
        expect(Date.now()).toBeLessThan(deadline);
        await sleep(100);
        rows = await settled();
      }
      const calls = byId(receiver.calls);
      for (const row of rows) {
        if (row.late > 95) expect(row).toMatchObject({ status: 'dead', tries: 0 });
        if (row.late < 60) expect(row).toMatchObject({ status: 'delivered', tries: 2 });
        if (row.status === 'delivered') {
          expect(calls.get(row.id)?.map((call) => call.status)).toEqual([500, 200]);
        } else {
          expect(calls.has(row.id)).toBe(false);
        }
      }
      expect(rows.filter((row) => row.status === 'dead').length).toBeGreaterThanOrEqual(8);
      expect(rows.filter((row) => row.status === 'delivered').length).toBeGreaterThanOrEqual(1);
    });
  });
});

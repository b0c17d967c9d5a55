import { describe, expect, it } from 'vitest';

import { databaseTargets } from '../../../../tests/support/databases.ts';

import { sleep } from './testing.ts';
import { ADMIN, allOps, metadata, useWorkerWorld, UUID } from './worker-world.ts';

/*
 * The delivery worker against real databases (embedded PGlite, and the PostgreSQL server
 * when one is reachable): deliveries, retries, restarts, crashes, two workers on one database.
 * Rows are written with plain SQL in a transaction that sets `hasura.user`, as the engine's
 * mutations do; the engine's own GraphQL path is covered by engine.test.ts. Removed triggers,
 * incomplete environments and cron: worker-lifecycle.test.ts.
 */

describe.each(databaseTargets)('event delivery worker on $name', (target) => {
  const world = useWorkerWorld(target);
  const { start, secondPool, write, events, byId } = world;

  it("delivers an insert at once, in Hasura's payload shape, and records it", async () => {
    // A poll interval far beyond the wait below: only the NOTIFY wake-up can deliver in time.
    await start(metadata([{ name: 't1_all', definition: allOps, webhook: '{{HOOK}}/hook' }]), {
      pollIntervalMs: 60_000,
    });
    const session = { 'x-hasura-role': 'user', 'x-hasura-user-id': '7' };
    const before = Date.now();
    await write(`INSERT INTO hge_tests.test_t1 (c1, c2) VALUES (1, 'hello')`, [], session);
    const [call] = await world.receiver.waitFor((calls) => calls.length === 1, 3_000);
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
    const logs = await world.db.pool.query<{
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
    await world.receiver.waitFor((calls) => calls.length === 1);
    await write(`UPDATE hge_tests.test_t1 SET c2 = 'world'`);
    await write(`UPDATE hge_tests.test_t1 SET c1 = NULL`);
    await write(`UPDATE hge_tests.test_t1 SET c1 = 2`);
    await write(`DELETE FROM hge_tests.test_t1`);
    await world.receiver.waitFor((calls) => calls.length >= 3);
    await sleep(600);
    const order = ['INSERT', 'UPDATE', 'DELETE'];
    const ops = world.receiver.calls
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
    await world.db.pool.query(
      `INSERT INTO public.orders (amount, meta) VALUES (12345678.12345678, '{"a": [1, 2]}')`,
    );
    const [call] = await world.receiver.waitFor((calls) => calls.length === 1);
    expect(call!.body['event']).toMatchObject({
      op: 'INSERT',
      data: { new: { id: '1', amount: '12345678.12345678', note: null, meta: { a: [1, 2] } } },
      session_variables: null,
    });
  });

  it('keeps retrying while the receiver is down or failing, then delivers each event exactly once', async () => {
    const port = world.receiver.port;
    await world.receiver.stop();
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
    world.receiver.reply = () => (failing ? { status: 500 } : { status: 200 });
    await world.receiver.start(port);
    await world.receiver.waitFor((calls) => calls.length >= 5, 5_000, 'failing attempts');
    failing = false;
    await world.receiver.waitFor(
      (calls) => new Set(calls.filter((c) => c.status === 200).map((c) => c.body['id'])).size === 5,
      8_000,
    );
    await sleep(1_500);

    const calls = byId(world.receiver.calls);
    expect(calls.size).toBe(5);
    expect(world.receiver.overlaps).toBe(0);
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
    world.receiver.reply = () => ({ status: 200, delayMs: 1_500 });
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
    await world.receiver.waitFor((calls) => calls.length === 3, 10_000);
    await sleep(2_000);
    expect(
      world.receiver.calls.map(
        (call) => (call.body['delivery_info'] as { current_retry: number }).current_retry,
      ),
    ).toEqual([0, 1, 2]);
    expect(await events()).toMatchObject([
      { delivered: false, error: true, tries: 3, locked: null },
    ]);
  });

  it("honours the receiver's Retry-After, even with no retries configured", async () => {
    world.receiver.reply = (_call, self) =>
      self.calls.length === 1 ? { status: 503, headers: { 'Retry-After': '1' } } : { status: 204 };
    await start(metadata([{ name: 't1_after', definition: allOps, webhook: '{{HOOK}}' }]));
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    const calls = await world.receiver.waitFor((all) => all.length === 2, 5_000);
    expect(calls[1]!.startedAt - calls[0]!.startedAt).toBeGreaterThanOrEqual(900);
    expect(calls[1]!.body['delivery_info']).toEqual({ max_retries: 0, current_retry: 1 });
    await sleep(300);
    expect(await events()).toMatchObject([{ delivered: true, tries: 2 }]);
  });

  it('hands an event back when stopped mid-delivery; the next engine delivers it', async () => {
    world.receiver.reply = () => 'hang';
    const first = await start(
      metadata([{ name: 't1_all', definition: allOps, webhook: '{{HOOK}}' }]),
    );
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await world.receiver.waitFor((calls) => calls.length === 1);
    await first.close();
    expect(await events()).toMatchObject([
      { delivered: false, error: false, tries: 0, locked: null },
    ]);

    world.receiver.reply = () => ({ status: 200 });
    await start(metadata([{ name: 't1_all', definition: allOps, webhook: '{{HOOK}}' }]));
    const calls = await world.receiver.waitFor((all) => all.length === 2);
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
    const port = world.receiver.port;
    await world.receiver.stop();
    const first = await start(spec);
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await sleep(500);
    await first.close();
    // Left by an engine that died mid-delivery two hours ago, and one being delivered right now.
    await world.db.pool.query(
      `INSERT INTO hdb_catalog.event_log (schema_name, table_name, trigger_name, payload, locked) VALUES
         ('hge_tests', 'test_t1', 't1_all', '{"op":"INSERT","data":{"old":null,"new":{"c1":2}},"session_variables":null}', now() - interval '2 hours'),
         ('hge_tests', 'test_t1', 't1_all', '{"op":"INSERT","data":{"old":null,"new":{"c1":3}},"session_variables":null}', now())`,
    );
    await world.receiver.start(port);
    await start(spec);
    await world.receiver.waitFor((calls) => calls.length === 2, 5_000);
    await sleep(1_000);
    const delivered = world.receiver.calls
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
    world.receiver.reply = (call) => {
      const id = call.body['id'] as string;
      const first = !seen.has(id);
      seen.add(id);
      return { status: first ? 500 : 200, delayMs: 30 };
    };
    await start(spec, { environment: { WORKER: 'a' }, pollIntervalMs: 100 });
    await start(spec, { environment: { WORKER: 'b' }, pollIntervalMs: 100, pool: secondPool() });
    await write(`INSERT INTO hge_tests.test_t1 (c1) SELECT g FROM generate_series(1, 40) AS g`);
    await world.receiver.waitFor(
      (calls) => calls.filter((call) => call.status === 200).length >= 40,
      20_000,
    );
    await sleep(1_500);

    expect(world.receiver.overlaps).toBe(0);
    const calls = byId(world.receiver.calls);
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
});

import { describe, expect, it } from 'vitest';

import { databaseTargets } from '../../../../tests/support/databases.ts';

import { sleep } from './testing.ts';
import { allOps, metadata, useWorkerWorld, UUID } from './worker-world.ts';

/*
 * The delivery worker's lifecycle against real databases: a removed event trigger, a trigger
 * whose environment is incomplete, and cron triggers. Deliveries and retries: worker.test.ts.
 */

describe.each(databaseTargets)('event delivery worker on $name', (target) => {
  const world = useWorkerWorld(target);
  const { start, secondPool, write, events, byId } = world;

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
    const triggers = await world.db.pool.query<{ tgname: string }>(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'hge_tests.test_t1'::regclass AND NOT tgisinternal ORDER BY tgname`,
    );
    expect(triggers.rows.map((row) => row.tgname)).toEqual(['notify_hasura_t1_insert_INSERT']);
    const functions = await world.db.pool.query<{ proname: string }>(
      `SELECT proname FROM pg_proc WHERE pronamespace = 'hdb_catalog'::regnamespace AND proname LIKE 'notify_hasura_%' ORDER BY proname`,
    );
    expect(functions.rows.map((row) => row.proname)).toEqual(['notify_hasura_t1_insert_INSERT']);
    expect(await events()).toMatchObject([
      { trigger_name: 't1_gone', archived: true, delivered: false },
    ]);

    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (2)`);
    await write(`UPDATE hge_tests.test_t1 SET c1 = 3`);
    await world.receiver.waitFor((calls) => calls.length === 1);
    await sleep(600);
    expect(world.receiver.calls.map((call) => call.body['trigger'])).toEqual([
      { name: 't1_insert' },
    ]);
  });

  it('leaves events of a trigger whose environment is incomplete in the log', async () => {
    await start(metadata([{ name: 't1_env', definition: allOps, webhook_from_env: 'NOT_SET' }]));
    await write(`INSERT INTO hge_tests.test_t1 (c1) VALUES (1)`);
    await sleep(600);
    expect(world.receiver.calls).toHaveLength(0);
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
      const [call] = await world.receiver.waitFor((calls) => calls.length >= 1, 5_000);
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
          await world.db.pool.query<{ id: string; status: string }>(
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
      expect(world.receiver.overlaps).toBe(0);
      const calls = byId(world.receiver.calls);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      for (const row of rows) expect(calls.get(row.id)).toHaveLength(1);
      const upcoming = await world.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM hdb_catalog.engine_cron_events WHERE status = 'scheduled' AND scheduled_time > now()`,
      );
      expect(upcoming.rows[0]!.n).toBeGreaterThanOrEqual(98);
    });

    it('drops occurrences later than the tolerance, and retries failed ones', async () => {
      const testStart = Date.now();
      const seen = new Set<unknown>();
      world.receiver.reply = (call) => {
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
          await world.db.pool.query<{ id: string; status: string; tries: number; late: number }>(
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
      const calls = byId(world.receiver.calls);
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

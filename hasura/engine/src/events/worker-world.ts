import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import type { DatabaseTarget, TestDatabase } from '../../../../tests/support/databases.ts';

import { CATALOG_DDL } from './catalog.ts';
import { startEventTriggers, type EventDeps, type EventTriggers } from './index.ts';
import { loadModel, WebhookReceiver, type ReceivedCall } from './testing.ts';

/*
 * The delivery worker suites' world, per database: the event catalog and two test tables,
 * emptied before each test, a webhook receiver per test, workers started on the database (or
 * on a second pool, as another engine would) and closed after each test, writes made as the
 * engine makes them, and the event log read back. Each suite calls useWorkerWorld(target)
 * inside its describe.each.
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

export const ADMIN = { 'x-hasura-role': 'admin' };
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface TriggerSpec {
  table?: 'test_t1' | 'orders';
  [key: string]: unknown;
}

export function metadata(triggers: TriggerSpec[], cron: unknown[] = []) {
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

export const allOps = {
  insert: { columns: '*' },
  update: { columns: '*' },
  delete: { columns: '*' },
};

/** Registers the hooks of one database's world; the handles are read lazily. */
export function useWorkerWorld(target: DatabaseTarget) {
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
    // An idle connection the server drops must not crash the test process.
    pool.on('error', () => {});
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

  return {
    get db() {
      return db;
    },
    get receiver() {
      return receiver;
    },
    start,
    secondPool,
    write,
    events,
    byId,
  };
}

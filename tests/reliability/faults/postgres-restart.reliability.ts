import { afterAll, describe, expect, it } from 'vitest';

import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

import { awaitDeliveries, type DeliveryReport } from './deliveries.ts';
import { newCustomer, startLoad, watchOrders, type Customer, type Tally } from './load.ts';
import {
  postgresBinaries,
  provision,
  startEmbeddedProcess,
  startPostgresServer,
  testPool,
  waitDatabaseReady,
} from './databases.ts';
import { delay, startStack, type Stack } from './services.ts';

/*
 * Issue 11, "Faults": the database restarts under load. The engine, actions, auth and the bot
 * run as child processes (as the launcher runs them) on a database of the test's own, under a
 * steady load of order creation (idempotency keys; a failed create is retried with the same
 * key until it succeeds), quotes, reads and token refreshes. Then the database restarts:
 *
 * - the PostgreSQL server: `pg_ctl stop -m fast`, 3 s down, `pg_ctl start`;
 * - the embedded database (PGlite) in a process of its own: SIGTERM, 3 s down, started again
 *   on the same data folder and port.
 *
 * Proven each time: every request meanwhile got an answer within the client's deadline, and a
 * failed one a clear retryable refusal (HTTP 503 with a stable code), never a 500 or a stack;
 * every service answers successfully again within 5 s of the database accepting connections
 * (recovery_seconds: the worst service's first success minus that moment); no service crashed;
 * every acknowledged order is in the database, once per idempotency key; and the new-order
 * events of every order reach the bot (handled, exactly once) and the e-mail receiver; and a
 * subscriber on the engine keeps its socket and gets new data once the database is back.
 */

const LOAD_BEFORE_MS = byProfile({ short: 4_000, full: 20_000 });
const LOAD_AFTER_MS = byProfile({ short: 8_000, full: 40_000 });
const DOWN_MS = 3_000;
const CUSTOMERS = byProfile({ short: 3, full: 4 });
/** Deliveries failed by the outage are retried on the triggers' schedule (30 s bot, 60 s mail). */
const DELIVERY_WAIT_MS = 150_000;
const RECOVERY_BOUND_SECONDS = 5;

interface Database {
  url: string;
  /** Takes the database down. */
  stop(): Promise<void>;
  /** Brings it back. */
  start(): Promise<void>;
}

interface Outcome {
  recoverySeconds: number;
  recovery: Record<string, number | null>;
  tallies: Record<string, ReturnType<Tally['summary']>>;
  defects: Record<string, string[]>;
  crashed: string[];
  acknowledged: number;
  abandoned: number;
  lost: string[];
  doubled: number;
  deliveries: DeliveryReport;
  downMs: number;
  live: {
    /** The subscriber saw an order acknowledged after the database was back. */
    sawNewOrder: boolean;
    /** Seconds from the database's return to the subscriber's first new order. */
    seconds: number | null;
    errorsPushed: Record<string, number>;
    ended: string | undefined;
  };
}

async function restartUnderLoad(database: Database): Promise<Outcome> {
  await provision(database.url);
  const stack: Stack = await startStack(database.url);
  const pool = testPool(database.url);
  try {
    const customers: Customer[] = [];
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await newCustomer(stack.auth.url, pool));
    // A subscriber on the engine for the whole run: its live query must survive the outage.
    const watch = watchOrders(stack.engine.url, customers[0]!.accessToken);
    const load = startLoad({
      engineUrl: () => stack.engine.url,
      authUrl: () => stack.auth.url,
      customers,
    });
    await delay(LOAD_BEFORE_MS);
    const down = Date.now();
    await database.stop();
    await delay(DOWN_MS);
    const starting = database.start();
    const ready = await waitDatabaseReady(database.url);
    await starting;
    const downMs = ready - down;
    await delay(LOAD_AFTER_MS);
    await load.stop();
    // The subscriber's first order made after the database came back.
    const after = load.acknowledged.filter(
      (order) => order.email === customers[0]!.email && order.at > ready,
    );
    let liveSeen: number | undefined;
    for (let waited = 0; waited < 5_000 && liveSeen === undefined; waited += 100) {
      liveSeen = after.map((order) => watch.seen.get(order.id)).find((at) => at !== undefined);
      if (liveSeen === undefined) await delay(100);
    }
    const live = {
      sawNewOrder: liveSeen !== undefined,
      seconds: liveSeen === undefined ? null : (liveSeen - ready) / 1000,
      errorsPushed: Object.fromEntries(watch.errors),
      ended: watch.ended(),
    };
    await watch.close();

    const services: Record<string, Tally> = {
      engine: load.reads,
      actions: load.quotes,
      auth: load.refreshes,
      orders: load.orders,
    };
    const recovery: Record<string, number | null> = {};
    for (const [name, tally] of Object.entries(services)) {
      const first = tally.firstSuccessAfter(ready);
      recovery[name] = first === undefined ? null : (first - ready) / 1000;
    }
    const measured = Object.values(recovery);
    const recoverySeconds = measured.some((value) => value === null)
      ? Number.POSITIVE_INFINITY
      : Math.max(...(measured as number[]));

    // Every acknowledged order is in the database, one row per idempotency key.
    const { rows } = await pool.query<{ id: string; idempotency_key: string }>(
      `SELECT id::text, idempotency_key FROM public.transactions WHERE idempotency_key = ANY($1)`,
      [[...load.attempted]],
    );
    const byKey = new Map<string, string[]>();
    for (const row of rows)
      byKey.set(row.idempotency_key, [...(byKey.get(row.idempotency_key) ?? []), row.id]);
    const lost = load.acknowledged
      .filter((order) => !(byKey.get(order.idempotencyKey) ?? []).includes(order.id))
      .map((order) => order.idempotencyKey);
    const doubled = [...byKey.values()].reduce((sum, ids) => sum + ids.length - 1, 0);

    const deliveries = await awaitDeliveries({
      pool,
      orderIds: rows.map((row) => row.id),
      mailbox: stack.mailbox,
      emulator: stack.telegram.emulator,
      timeoutMs: DELIVERY_WAIT_MS,
    });
    return {
      recoverySeconds,
      recovery,
      tallies: Object.fromEntries(
        load.tallies().map((tally) => [tally.name, tally.summary()] as const),
      ),
      defects: Object.fromEntries(
        load
          .tallies()
          .filter((tally) => tally.defects.length > 0)
          .map((tally) => [tally.name, tally.defects.slice(0, 10)] as const),
      ),
      crashed: stack.services.filter((service) => service.crashed()).map((service) => service.name),
      acknowledged: load.acknowledged.length,
      abandoned: load.abandoned.length,
      lost,
      doubled,
      deliveries,
      downMs,
      live,
    };
  } catch (error) {
    process.stderr.write(stack.outputs());
    throw error;
  } finally {
    await pool.end();
    await stack.close();
  }
}

function check(name: string, outcome: Outcome) {
  const duplicates = outcome.doubled + outcome.deliveries.botDuplicates;
  recordFigures({
    check: `faults/postgres-restart (${name})`,
    figures: {
      lost_orders: outcome.lost.length,
      duplicate_actions: duplicates,
      recovery_seconds: Number.isFinite(outcome.recoverySeconds)
        ? Number(outcome.recoverySeconds.toFixed(2))
        : 9999,
    },
    details: {
      database: name,
      downMs: outcome.downMs,
      recovery: outcome.recovery,
      tallies: outcome.tallies,
      acknowledged: outcome.acknowledged,
      abandoned: outcome.abandoned,
      doubled: outcome.doubled,
      crashed: outcome.crashed,
      live: outcome.live,
      deliveries: { ...outcome.deliveries, undelivered: outcome.deliveries.undelivered.length },
    },
  });
  const context = JSON.stringify(outcome, null, 2);
  expect(outcome.crashed, context).toEqual([]);
  expect(outcome.defects, context).toEqual({});
  expect(outcome.recoverySeconds, context).toBeLessThanOrEqual(RECOVERY_BOUND_SECONDS);
  // The live query lived through it: the socket stayed, refetch failures were pushed as the
  // retryable connection error, and new data arrived once the database was back.
  expect(outcome.live.ended, context).toBeUndefined();
  expect(outcome.live.sawNewOrder, context).toBe(true);
  expect(
    Object.keys(outcome.live.errorsPushed).filter((code) => code !== 'postgres-error'),
    context,
  ).toEqual([]);
  expect(outcome.abandoned, context).toBe(0);
  expect(outcome.acknowledged, context).toBeGreaterThan(0);
  expect(outcome.lost, context).toEqual([]);
  expect(outcome.doubled, context).toBe(0);
  expect(outcome.deliveries.missingEvents, context).toBe(0);
  expect(outcome.deliveries.undelivered, context).toEqual([]);
  expect(outcome.deliveries.botMissing, context).toEqual([]);
  expect(outcome.deliveries.botDuplicates, context).toBe(0);
  expect(outcome.deliveries.mailMissing, context).toEqual([]);
}

describe('a database restart under load', () => {
  const bin = postgresBinaries();
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it.skipIf(!bin)('PostgreSQL server: pg_ctl stop -m fast, 3 s down, start', async () => {
    const server = await startPostgresServer(bin!);
    cleanups.push(() => server.dispose());
    const outcome = await restartUnderLoad({
      url: server.url,
      stop: () => server.stop('fast'),
      start: () => server.start(),
    });
    check('postgres', outcome);
  });
  if (!bin)
    it('PostgreSQL server: skipped, no initdb/pg_ctl in /usr/lib/postgresql/*/bin', () => {
      process.stderr.write(
        'faults/postgres-restart: the PostgreSQL server half is skipped: no Debian PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin\n',
      );
    });

  it('embedded database: SIGTERM, 3 s down, started again on the same data', async () => {
    const embedded = await startEmbeddedProcess();
    cleanups.push(() => embedded.dispose());
    const outcome = await restartUnderLoad({
      url: embedded.url,
      stop: () => embedded.kill('SIGTERM'),
      start: () => embedded.start(),
    });
    check('pglite', outcome);
  });
});

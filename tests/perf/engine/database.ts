import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import pg from 'pg';

import {
  applySeeds,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  migrateUp,
} from '@app/engine/database';

import type { BenchConfig } from './config.ts';

/*
 * The benchmark database: a database of its own on the real PostgreSQL server (dropped
 * afterwards) when it answers, else embedded PGlite in a child process. The product's
 * migrations and seeds, then users, bank accounts and orders generated in SQL.
 */

export type DatabaseKind = 'postgres' | 'pglite';

export interface BenchDatabase {
  kind: DatabaseKind;
  url: string;
  /** Database name (on the server), for pg_stat_database. */
  name: string;
  /** Server version string. */
  version: string;
  /** A small pool for setup, sampling and the update load (not used by the candidates). */
  pool: pg.Pool;
  statements: StatementCounter;
  dispose(): Promise<void>;
}

/** How many statements the database ran, read from the database side. */
export interface StatementCounter {
  /** `pg_stat_statements` (calls) or `pg_stat_database` (xact_commit + xact_rollback). */
  method: 'pg_stat_statements' | 'xact_commit' | 'none';
  note: string;
  /** A reading; differences of two readings count statements in between. */
  read(): Promise<number>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function serverReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * pg_stat_statements when the server has it loaded (shared_preload_libraries); otherwise
 * xact_commit + xact_rollback of the benchmark database, which counts one per autocommit
 * statement (and one per explicit transaction), read from another database so the reading
 * itself is not counted. Backends publish these counters at most once a second (and an idle
 * backend up to 10 s late), so windows are long and compared against an idle baseline.
 */
async function statementCounter(
  serverUrl: string,
  databaseUrl: string,
  name: string,
  pool: pg.Pool,
): Promise<{ counter: StatementCounter; close(): Promise<void> }> {
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT count(*) FROM pg_stat_statements');
    // The view lives in the database the extension was created in; the readings themselves
    // (which mention the view) are left out of the sum.
    const observer = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    return {
      counter: {
        method: 'pg_stat_statements',
        note: 'pg_stat_statements calls in the benchmark database (the readings themselves excluded)',
        async read() {
          const result = await observer.query<{ calls: string | null }>(
            `SELECT sum(calls)::text AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
              WHERE d.datname = $1 AND strpos(s.query, 'pg_stat_statements') = 0`,
            [name],
          );
          return Number(result.rows[0]?.calls ?? 0);
        },
      },
      close: () => observer.end(),
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const observer = new pg.Pool({ connectionString: serverUrl, max: 1 });
    return {
      counter: {
        method: 'xact_commit',
        note: `pg_stat_statements not usable (${reason}); counted as pg_stat_database xact_commit + xact_rollback (one per autocommit statement), read from another database, minus an idle baseline`,
        async read() {
          const result = await observer.query<{ n: string }>(
            `SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = $1`,
            [name],
          );
          return Number(result.rows[0]?.n ?? 0);
        },
      },
      close: () => observer.end(),
    };
  }
}

async function createServerDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `bench_engine_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.query(`ALTER DATABASE ${name} SET timezone TO 'UTC'`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const drop = async () => {
    await pool.end().catch(() => {});
    const cleaner = new pg.Client({ connectionString: serverUrl });
    await cleaner.connect();
    try {
      await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await cleaner.end();
    }
  };
  try {
    const version = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!
      .server_version;
    const stats = await statementCounter(serverUrl, url, name, pool);
    return {
      kind: 'postgres',
      url,
      name,
      version: `PostgreSQL ${version}`,
      pool,
      statements: stats.counter,
      async dispose() {
        await stats.close().catch(() => {});
        await drop();
      },
    };
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
}

/** PGlite runs in a child process so its (single-threaded) backend does not share the load generator's event loop. */
async function createPgliteDatabase(): Promise<BenchDatabase> {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('../servers/pglite-server.ts', import.meta.url)),
    [],
    {
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the PGlite process exited (${code})`)));
    child.on('message', (message: { type?: string; url?: string }) => {
      if (message.type === 'ready' && message.url) resolve(message.url);
    });
  });
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const version = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!
    .server_version;
  return {
    kind: 'pglite',
    url,
    name: 'postgres',
    version: `PGlite (PostgreSQL ${version})`,
    pool,
    statements: {
      method: 'none',
      note: 'PGlite keeps no statement statistics; the engine-side count is reported instead',
      read: () => Promise.resolve(0),
    },
    async dispose() {
      await pool.end().catch(() => {});
      child.kill('SIGTERM');
    },
  };
}

export async function openDatabase(config: BenchConfig): Promise<BenchDatabase> {
  if (config.database === 'pglite') return createPgliteDatabase();
  if (await serverReachable(config.serverUrl)) return createServerDatabase(config.serverUrl);
  if (config.database === 'postgres') throw new Error(`${config.serverUrl} is unreachable`);
  return createPgliteDatabase();
}

/** The product schema and seeds. */
export async function migrate(db: BenchDatabase): Promise<void> {
  await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
  await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
}

export interface DataSet {
  users: number;
  transactions: number;
  statusHistory: number;
  bankAccounts: number;
  directions: number;
  /** Users whose history and by-pk requests are made (id, and a sample of their order ids). */
  readers: string[];
  /** (id, user_id) pairs for by-pk requests. */
  orders: Array<{ id: string; userId: string }>;
  /** Heavy users and their active orders (the subscription load's rows). */
  watchers: Array<{ userId: string; orderIds: string[] }>;
  /** Users the insert load creates orders for. */
  inserters: string[];
  /** A direction the insert load uses. */
  direction: { from: string; to: string };
  generationMs: number;
}

/**
 * Realistic data in a few statements: users, a few bank accounts, orders spread over the
 * users in every status (respecting the CHECK constraints and the direction foreign key) and
 * active orders for the heavy users. The guard trigger that only lets new orders start in
 * `waiting_for_operator` is disabled while loading history; the status-history trigger runs.
 */
export async function generateData(db: BenchDatabase, config: BenchConfig): Promise<DataSet> {
  const started = performance.now();
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO public.portal_users (email, is_verified_email, status, referral_name, locale, created_at)
       SELECT 'user' || g || '@bench.example', true, 'new', 'bench' || g,
              (ARRAY['en','ru','ua'])[1 + g % 3], now() - (g % 700) * interval '1 day'
         FROM generate_series(1, $1::int) AS g`,
      [config.users + config.insertUsers],
    );
    await client.query(
      `INSERT INTO public.bank_accounts (label, beneficiary, account_number, swift_bic, bank_address, currency_code)
       SELECT 'Bench ' || g, 'Exchange Service Ltd', 'DE8937040044053201300' || g, 'DEUTDEFF', 'Bench street ' || g, 'EUR'
         FROM generate_series(1, 4) AS g`,
    );
    await client.query('ALTER TABLE public.transactions DISABLE TRIGGER transactions_guard');
    // Users 1..readers are the readers (the first heavyUsers of them also watch); the rest insert.
    await client.query(
      `WITH u AS (
         SELECT id, email, row_number() OVER (ORDER BY email) AS rn FROM public.portal_users
          WHERE email ~ '^user[0-9]+@' AND substring(email FROM '^user([0-9]+)@')::int <= $2::int),
       d AS (SELECT from_currency, to_currency, row_number() OVER (ORDER BY slug) AS rn FROM public.exchange_directions),
       nd AS (SELECT count(*) AS n FROM d),
       b AS (SELECT id, row_number() OVER (ORDER BY account_number) AS rn FROM public.bank_accounts),
       rows AS (
         SELECT g,
                1 + (hashint4(g) & 2147483647) % $2::int AS user_rn,
                1 + (hashint4(g * 7 + 3) & 2147483647) % (SELECT n FROM nd) AS dir_rn,
                CASE WHEN g % 20 < 2 THEN 'waiting_for_operator' WHEN g % 20 < 4 THEN 'waiting_for_payment'
                     WHEN g % 20 < 6 THEN 'paid' WHEN g % 20 < 16 THEN 'completed' ELSE 'canceled' END AS status,
                now() - ((hashint4(g * 13) & 2147483647) % (365 * 24 * 3600)) * interval '1 second' AS at
           FROM generate_series(1, $1::int) AS g)
       INSERT INTO public.transactions (user_id, send_currency, receive_currency, send_amount, receive_amount, rate,
                                        status, email, full_name, wallet_address, reason, locale, source, idempotency_key,
                                        deposit_address, bank_account_id, payment_reference, payout_tx_id, canceled_by,
                                        cancel_reason, created_at, updated_at, requisites_at, paid_at, completed_at, canceled_at)
       SELECT u.id, d.from_currency, d.to_currency, round(0.01 + (r.g % 5000) / 100.0, 2), round((0.01 + (r.g % 5000) / 100.0) * 1.5, 4), 1.5,
              r.status, u.email, 'Bench User ' || u.rn, 'T' || substr(md5(r.g::text), 1, 33), 'exchange order ' || r.g,
              'en', CASE WHEN r.g % 3 = 0 THEN 'telegram' ELSE 'web' END, 'seed-' || lpad(r.g::text, 8, '0'),
              CASE WHEN r.status IN ('waiting_for_payment', 'paid', 'completed') AND r.g % 10 <> 3
                   THEN 'bc1q' || substr(md5('dep' || r.g), 1, 30) END,
              CASE WHEN r.status IN ('waiting_for_payment', 'paid', 'completed') AND r.g % 10 = 3
                   THEN (SELECT id FROM b WHERE b.rn = 1 + r.g % 4) END,
              CASE WHEN r.status IN ('waiting_for_payment', 'paid', 'completed') AND r.g % 10 = 3 THEN 'REF-' || r.g END,
              CASE WHEN r.status = 'completed' THEN 'tx' || md5('out' || r.g) END,
              CASE WHEN r.status = 'canceled' THEN 'user' END,
              CASE WHEN r.status = 'canceled' THEN 'changed my mind' END,
              r.at, r.at,
              CASE WHEN r.status IN ('waiting_for_payment', 'paid', 'completed') THEN r.at + interval '5 minutes' END,
              CASE WHEN r.status IN ('paid', 'completed') THEN r.at + interval '30 minutes' END,
              CASE WHEN r.status = 'completed' THEN r.at + interval '2 hours' END,
              CASE WHEN r.status = 'canceled' THEN r.at + interval '1 hour' END
         FROM rows r JOIN u ON u.rn = r.user_rn JOIN d ON d.rn = r.dir_rn`,
      [config.transactions, config.users],
    );
    // Heavy users' open orders: what a user watches in the app (the subscription rows).
    await client.query(
      `WITH u AS (
         SELECT id, email, row_number() OVER (ORDER BY email) AS rn FROM public.portal_users
          WHERE email ~ '^user[0-9]+@' AND substring(email FROM '^user([0-9]+)@')::int <= $1::int),
       d AS (SELECT from_currency, to_currency, row_number() OVER (ORDER BY slug) AS rn FROM public.exchange_directions),
       nd AS (SELECT count(*) AS n FROM d)
       INSERT INTO public.transactions (user_id, send_currency, receive_currency, send_amount, receive_amount, rate,
                                        status, email, full_name, wallet_address, reason, idempotency_key,
                                        deposit_address, requisites_at, created_at, updated_at)
       SELECT u.id, d.from_currency, d.to_currency, 1 + k, (1 + k) * 2, 2,
              CASE WHEN k % 2 = 0 THEN 'waiting_for_operator' ELSE 'waiting_for_payment' END,
              u.email, 'Bench User ' || u.rn, 'T' || substr(md5(u.rn || '-' || k), 1, 33), 'open order ' || k,
              'open-' || lpad(u.rn::text, 4, '0') || '-' || lpad(k::text, 4, '0'),
              CASE WHEN k % 2 = 1 THEN 'bc1q' || substr(md5('open' || u.rn || k), 1, 30) END,
              CASE WHEN k % 2 = 1 THEN now() - k * interval '1 minute' END,
              now() - k * interval '2 minutes', now() - k * interval '2 minutes'
         FROM u CROSS JOIN generate_series(1, $2::int) AS k
         JOIN d ON d.rn = 1 + (u.rn * 31 + k) % (SELECT n FROM nd)`,
      [config.heavyUsers, config.heavyUserOrders],
    );
    await client.query('ALTER TABLE public.transactions ENABLE TRIGGER transactions_guard');
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  await db.pool.query('VACUUM ANALYZE');

  const counts = (
    await db.pool.query<{
      users: number;
      transactions: number;
      history: number;
      banks: number;
      directions: number;
    }>(
      `SELECT (SELECT count(*) FROM public.portal_users)::int AS users,
              (SELECT count(*) FROM public.transactions)::int AS transactions,
              (SELECT count(*) FROM public.transaction_status_history)::int AS history,
              (SELECT count(*) FROM public.bank_accounts)::int AS banks,
              (SELECT count(*) FROM public.exchange_directions)::int AS directions`,
    )
  ).rows[0]!;
  const userNumber = `substring(email FROM '^user([0-9]+)@')::int`;
  const readers = (
    await db.pool.query<{ id: string }>(
      `SELECT id FROM public.portal_users WHERE email ~ '^user[0-9]+@' AND ${userNumber} <= $1 ORDER BY ${userNumber}`,
      [config.users],
    )
  ).rows.map((row) => row.id);
  const orders = (
    await db.pool.query<{ id: string; user_id: string }>(
      `SELECT id, user_id FROM public.transactions TABLESAMPLE BERNOULLI (5) REPEATABLE (42) LIMIT 4000`,
    )
  ).rows.map((row) => ({ id: row.id, userId: row.user_id }));
  const perWatcher = Math.ceil(config.subscriptions / config.wsConnections);
  const watcherRows = (
    await db.pool.query<{ user_id: string; ids: string[] }>(
      `SELECT t.user_id, (array_agg(t.id ORDER BY t.created_at DESC))[1:$2] AS ids
         FROM public.transactions t
        WHERE t.idempotency_key LIKE 'open-%'
        GROUP BY t.user_id ORDER BY t.user_id LIMIT $1`,
      [config.wsConnections, perWatcher],
    )
  ).rows;
  const inserters = (
    await db.pool.query<{ id: string }>(
      `SELECT id FROM public.portal_users WHERE email ~ '^user[0-9]+@' AND ${userNumber} > $1 ORDER BY ${userNumber}`,
      [config.users],
    )
  ).rows.map((row) => row.id);
  const direction = (
    await db.pool.query<{ from_currency: string; to_currency: string }>(
      `SELECT from_currency, to_currency FROM public.exchange_directions WHERE from_currency = 'BTC' AND to_currency = 'USDTTRC20'
       UNION ALL (SELECT from_currency, to_currency FROM public.exchange_directions ORDER BY slug LIMIT 1) LIMIT 1`,
    )
  ).rows[0]!;
  return {
    users: counts.users,
    transactions: counts.transactions,
    statusHistory: counts.history,
    bankAccounts: counts.banks,
    directions: counts.directions,
    readers,
    orders,
    watchers: watcherRows.map((row) => ({ userId: row.user_id, orderIds: row.ids })),
    inserters,
    direction: { from: direction.from_currency, to: direction.to_currency },
    generationMs: Math.round(performance.now() - started),
  };
}

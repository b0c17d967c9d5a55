import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadMetadata } from '@app/engine';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../support/engine.ts';
import { DEV_JWT_SECRET, signHs256, userClaims } from '../../support/jwt.ts';
import { createCompiler, type EngineCompiler } from '../../perf/engine/compile.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
} from './harness.ts';
import * as doc from './staff-console-documents.ts';

/*
 * "Usable with 100k orders" (issue 7): on 100,000 orders, 20,000 customers, 20,000 support
 * requests and 10,000 withdrawals, each console query is compiled by the engine's own planner
 * for a manager (exactly the SQL the engine sends) and EXPLAINed after ANALYZE: the planner
 * must reach every filtered or sorted table through an index, never a sequential scan. The
 * same queries then run through the real engine, and their times are printed (not asserted:
 * shared machines are noisy). Loading the data takes a few seconds even on PGlite, because it
 * is one generate_series statement per table with the tables' triggers switched off
 * (session_replication_role = replica, in the loading transaction only).
 */

const ORDERS = 100_000;
const USERS = 20_000;
const SUPPORT_REQUESTS = 20_000;
const WITHDRAWALS = 10_000;
const METADATA_DIR = fileURLToPath(new URL('../../../hasura/metadata/', import.meta.url));
const MANAGER_ID = '00000000-0000-4000-8000-0000000000aa';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every scan of the plan: `Seq Scan on transactions`, `Index Scan on transactions using x`. */
function scans(node: PlanNode, found: string[] = []): string[] {
  if (node['Relation Name']) {
    const index = node['Index Name'] ? ` using ${node['Index Name']}` : '';
    found.push(`${node['Node Type']} on ${node['Relation Name']}${index}`);
  } else if (node['Index Name']) {
    // Bitmap Index Scan nodes name the index, not the table.
    found.push(`${node['Node Type']} using ${node['Index Name']}`);
  }
  for (const child of node.Plans ?? []) scans(child, found);
  return found;
}

async function load(db: TestDatabase): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(
      `INSERT INTO portal_users (email, telegram_username, status, created_at)
       SELECT 'user' || g || '@bench.example', 'tg_user' || g,
              (ARRAY['new', 'new', 'bronze', 'silver'])[1 + g % 4],
              now() - (g % 700) * interval '1 day'
         FROM generate_series(1, $1::int) AS g`,
      [USERS],
    );
    await client.query(
      `INSERT INTO bank_accounts (label, beneficiary, account_number, swift_bic, bank_address, currency_code)
       SELECT 'EUR ' || g, 'Exchange Ltd', 'DE8937040044053201300' || g, 'COBADEFFXXX', 'Berlin', 'EUR'
         FROM generate_series(1, 4) AS g`,
    );
    // Orders in every status over a year (5 % waiting for the operator, as a busy queue),
    // spread over the users and every direction, respecting the table's checks.
    await client.query(
      `WITH u AS (SELECT id, email, row_number() OVER (ORDER BY email) AS rn
                    FROM portal_users WHERE email LIKE '%@bench.example'),
            d AS (SELECT from_currency, to_currency, row_number() OVER (ORDER BY slug) AS rn
                    FROM exchange_directions),
            nd AS (SELECT count(*) AS n FROM d),
            b AS (SELECT min(id::text)::uuid AS id FROM bank_accounts),
            r AS (SELECT g,
                         1 + (hashint4(g) & 2147483647) % $2::int AS user_rn,
                         1 + (hashint4(g * 7 + 3) & 2147483647) % (SELECT n FROM nd) AS dir_rn,
                         CASE WHEN g % 20 = 0 THEN 'waiting_for_operator'
                              WHEN g % 20 = 1 THEN 'waiting_for_payment'
                              WHEN g % 20 = 2 THEN 'paid'
                              WHEN g % 20 < 16 THEN 'completed' ELSE 'canceled' END AS status,
                         now() - ((hashint4(g * 13) & 2147483647) % (365 * 24 * 3600)) * interval '1 second' AS at
                    FROM generate_series(1, $1::int) AS g)
       INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount, receive_amount,
                                 rate, status, email, full_name, wallet_address, reason,
                                 deposit_address, bank_account_id, payment_reference, payout_tx_id,
                                 canceled_by, created_at, updated_at)
       SELECT u.id, d.from_currency, d.to_currency, 1 + r.g % 50, 2 + r.g % 50, 2, r.status,
              u.email, 'Bench User', 'T' || substr(md5(r.g::text), 1, 33), 'exchange',
              CASE WHEN r.status IN ('waiting_for_payment', 'paid', 'completed') AND r.g % 10 <> 3
                   THEN 'bc1q' || substr(md5('dep' || r.g), 1, 30) END,
              CASE WHEN r.status IN ('waiting_for_payment', 'paid', 'completed') AND r.g % 10 = 3
                   THEN (SELECT id FROM b) END,
              CASE WHEN r.status IN ('waiting_for_payment', 'paid', 'completed') AND r.g % 10 = 3
                   THEN 'REF-' || r.g END,
              CASE WHEN r.status = 'completed' THEN 'tx' || md5('out' || r.g) END,
              CASE WHEN r.status = 'canceled' THEN 'user' END,
              r.at, r.at
         FROM r JOIN u ON u.rn = r.user_rn JOIN d ON d.rn = r.dir_rn`,
      [ORDERS, USERS],
    );
    // Each order's history as the trigger would have written it, in short.
    await client.query(
      `INSERT INTO transaction_status_history (transaction_id, from_status, to_status, created_at)
       SELECT id, NULL, 'waiting_for_operator', created_at FROM transactions
       UNION ALL
       SELECT id, 'waiting_for_operator', status, updated_at FROM transactions
        WHERE status <> 'waiting_for_operator'`,
    );
    await client.query(
      `INSERT INTO support_requests (name, email, message, handled, created_at)
       SELECT 'Asker ' || g, 'user' || (1 + g % $2::int) || '@bench.example', 'Where is my order?',
              g % 10 <> 0, now() - (g % 365) * interval '1 day' - (g % 1440) * interval '1 minute'
         FROM generate_series(1, $1::int) AS g`,
      [SUPPORT_REQUESTS, USERS],
    );
    // Replies to every fourth request, and custom rates for every tenth customer.
    await client.query(
      `INSERT INTO support_feedback (support_request_id, email, subject, message, sent_at)
       SELECT id, email, 'Re: your request', 'Answered.', created_at + interval '1 hour'
         FROM support_requests WHERE handled AND (hashint4(length(name) + extract(epoch FROM created_at)::int) & 3) = 0`,
    );
    await client.query(
      `INSERT INTO user_custom_carrency (user_id, currency_code, sell_rate, buy_rate)
       SELECT id, 'BTC', 60000, 65000 FROM portal_users
        WHERE email LIKE '%@bench.example' AND (hashint4(length(email) + extract(epoch FROM created_at)::int) % 10) = 0`,
    );
    await client.query(
      `INSERT INTO bonus_withdrawals (user_id, amount_usdt, wallet_address, status, payout_tx_id, created_at)
       SELECT u.id, 100 + g % 50, 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
              CASE WHEN g % 25 = 0 THEN 'pending' ELSE 'paid' END,
              CASE WHEN g % 25 = 0 THEN NULL ELSE 'tx' || g END,
              now() - (g % 365) * interval '1 day'
         FROM generate_series(1, $1::int) AS g
         JOIN (SELECT id, row_number() OVER (ORDER BY email) AS rn FROM portal_users
                WHERE email LIKE '%@bench.example') u ON u.rn = 1 + g % $2::int`,
      [WITHDRAWALS, USERS],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  await db.pool.query('VACUUM ANALYZE');
}

interface Case {
  name: string;
  query: string;
  variables: Record<string, unknown>;
  /** Indexes the plan must use (each at least once; `a|b`: one of them). */
  uses: string[];
  /** Tables that may be read whole (small reference tables). */
  mayScan?: string[];
}

const page = (where: Record<string, unknown>, orderBy: unknown = [{ created_at: 'desc' }]) => ({
  where,
  orderBy,
  limit: 50,
  offset: 0,
});

/** The queue's page without its total, for the one case whose total is a count of everything. */
const QUEUE_PAGE_ONLY = doc.QUEUE.replace(
  /\n {2}transactions_aggregate\(where: \$where\) \{ aggregate \{ count \} \}/,
  '',
);

describe.each(databaseTargets)('staff console at 100k orders on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  let compiler: EngineCompiler;
  let cases: Case[] = [];
  const manager: Caller = { userId: MANAGER_ID, role: 'manager' };
  const timings: string[] = [];

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { manager: MANAGER_ID });
    const started = performance.now();
    await load(db);
    timings.push(`load: ${Math.round(performance.now() - started)} ms`);
    compiler = await createCompiler(db.pool, await loadMetadata({ directory: METADATA_DIR }), {
      adminSecret: TEST_ADMIN_SECRET,
      jwtSecret: DEV_JWT_SECRET,
    });
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
    });
    const sample = await db.pool.query<{ id: string; number: string; created_at: Date }>(
      `SELECT id, number::text AS number, created_at FROM transactions
        WHERE status = 'paid' ORDER BY number LIMIT 1 OFFSET 777`,
    );
    const order = sample.rows[0]!;
    const day = new Date(order.created_at);
    day.setUTCHours(0, 0, 0, 0);
    const nextDay = new Date(day.getTime() + 86_400_000);
    const range = { _gte: day.toISOString(), _lt: nextDay.toISOString() };

    cases = [
      {
        name: 'queue: waiting for the operator, newest first, with total',
        query: doc.QUEUE,
        variables: page({ status: { _eq: 'waiting_for_operator' } }),
        uses: ['transactions_status_created_idx'],
      },
      {
        name: 'queue: two statuses, newest first, with total',
        query: doc.QUEUE,
        variables: page({ status: { _in: ['waiting_for_operator', 'paid'] } }),
        uses: ['transactions_status_created_idx'],
      },
      {
        name: 'queue: everything, newest first (page only)',
        query: QUEUE_PAGE_ONLY,
        variables: page({}),
        uses: ['transactions_created_idx'],
      },
      {
        name: 'queue: everything, by number (page only)',
        query: QUEUE_PAGE_ONLY,
        variables: page({}, [{ number: 'desc' }]),
        uses: ['transactions_number_key'],
      },
      {
        name: 'queue: one direction, newest first, with total',
        query: doc.QUEUE,
        variables: page({ send_currency: { _eq: 'BTC' }, receive_currency: { _eq: 'XMR' } }),
        uses: ['transactions_direction_created_idx'],
      },
      {
        name: 'queue: one day, with total',
        query: doc.QUEUE,
        variables: page({ created_at: range }),
        uses: ['transactions_created_idx'],
      },
      {
        name: 'queue: open orders of one day, with total',
        query: doc.QUEUE,
        variables: page({ status: { _eq: 'waiting_for_operator' }, created_at: range }),
        uses: ['transactions_status_created_idx'],
      },
      {
        name: 'queue: part of an e-mail, with total',
        query: doc.QUEUE,
        variables: page({ email: { _ilike: doc.containsPattern('user1234@') } }),
        uses: ['transactions_email_trgm_idx'],
      },
      {
        name: 'queue: by number, with total',
        query: doc.QUEUE,
        variables: page({ number: { _eq: order.number } }),
        uses: ['transactions_number_key'],
      },
      {
        name: "queue: the customer's Telegram username, with total",
        query: doc.QUEUE,
        variables: page({ user: { telegram_username: { _ilike: 'tg\\_user4321' } } }),
        uses: [
          'portal_users_telegram_username_trgm_idx',
          'transactions_user_created_idx|transactions_user_idempotency_key',
        ],
      },
      {
        name: 'status counts (the tabs)',
        query: `query { transaction_status_counts(order_by: { position: asc }) { status total } }`,
        variables: {},
        uses: ['transactions_status_created_idx'],
      },
      {
        name: 'status counts of one day',
        query: doc.FILTERED_STATUS_COUNTS,
        variables: { where: { created_at: range } },
        uses: ['transactions_status_created_idx'],
      },
      {
        name: 'order detail',
        query: doc.ORDER_DETAIL,
        variables: { id: order.id },
        uses: [
          'transactions_pkey',
          'transaction_status_history_tx_idx',
          'transactions_user_created_idx|transactions_user_idempotency_key',
        ],
        mayScan: ['currencies', 'user_levels', 'bank_accounts'],
      },
      {
        name: 'pending withdrawals',
        query: doc.PENDING_WITHDRAWALS,
        variables: { limit: 50, offset: 0 },
        uses: ['bonus_withdrawals_status_idx'],
      },
      {
        name: 'support requests not handled, newest first',
        query: doc.SUPPORT_REQUESTS,
        variables: { where: { handled: { _eq: false } }, limit: 50, offset: 0 },
        uses: ['support_requests_handled_created_idx', 'support_feedback_request_idx'],
      },
      {
        name: 'find a customer by part of an e-mail or username',
        query: doc.FIND_USERS,
        variables: { pattern: doc.containsPattern('user1234'), limit: 20 },
        uses: [
          'portal_users_email_trgm_idx',
          'portal_users_telegram_username_trgm_idx',
          'transactions_user_created_idx|transactions_user_idempotency_key',
          'user_custom_carrency_user_currency_key',
        ],
        mayScan: ['user_levels'],
      },
    ];
  });

  afterAll(async () => {
    if (timings.length > 0)
      process.stdout.write(
        `staff console at 100k orders on ${target.name}:\n  ${timings.join('\n  ')}\n`,
      );
    await stack?.close();
    await db?.dispose();
  });

  it('has the data of a busy service', async () => {
    const { rows } = await db.pool.query(
      `SELECT (SELECT count(*) FROM transactions)::int AS orders,
              (SELECT count(*) FROM transactions WHERE status = 'waiting_for_operator')::int AS open,
              (SELECT count(*) FROM portal_users)::int AS users`,
    );
    expect(rows[0]).toEqual({ orders: ORDERS, open: ORDERS / 20, users: USERS + 1 });
  });

  it('reaches every filtered or sorted table through an index', async () => {
    const session = compiler.session({
      authorization: `Bearer ${signHs256(userClaims(MANAGER_ID, ['user', 'manager']))}`,
      'x-hasura-role': 'manager',
    });
    const problems: string[] = [];
    for (const entry of cases) {
      const compiled = compiler.compile(entry.query, entry.variables, session);
      const { rows } = await db.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (FORMAT JSON) ${compiled.sql}`,
        compiled.params,
      );
      const found = scans(rows[0]!['QUERY PLAN'][0]!.Plan);
      const sequential = found.filter(
        (scan) =>
          scan.startsWith('Seq Scan') &&
          !(entry.mayScan ?? []).some((table) => scan === `Seq Scan on ${table}`),
      );
      if (sequential.length > 0)
        problems.push(`${entry.name}: ${sequential.join(', ')} (plan: ${found.join('; ')})`);
      for (const index of entry.uses) {
        const names = index.split('|');
        if (!found.some((scan) => names.some((name) => scan.endsWith(` using ${name}`))))
          problems.push(`${entry.name}: does not use ${index} (plan: ${found.join('; ')})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers each query through the engine', async () => {
    for (const entry of cases) {
      const times: number[] = [];
      for (let run = 0; run < 5; run += 1) {
        const started = performance.now();
        const body = await stack.graphql(entry.query, entry.variables, manager);
        times.push(performance.now() - started);
        expect(body.errors, entry.name).toBeUndefined();
      }
      times.sort((a, b) => a - b);
      timings.push(`${entry.name}: median ${times[2]!.toFixed(1)} ms`);
    }
    // The total of an unfiltered queue counts every order (the one full read of the table).
    const started = performance.now();
    const total = await stack.graphql(doc.QUEUE, page({}), manager);
    expect(
      (total.data?.['transactions_aggregate'] as { aggregate: { count: number } }).aggregate,
    ).toEqual({ count: ORDERS });
    timings.push(
      `queue: everything, with the total of ${ORDERS}: ${(performance.now() - started).toFixed(1)} ms`,
    );
  });
});

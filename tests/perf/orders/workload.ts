import type pg from 'pg';

import type { TokenBook } from '../engine/workload.ts';

import type { HttpClient, OrderTask } from './load.ts';

/*
 * The orders both paths create: BTC -> USDTTRC20, 0.015 BTC sent (inside the BTC limits), a
 * valid TRC20 payout address, for user n mod users with an idempotency key of its own. The API
 * path sends the `createExchange` mutation to the engine with the user's JWT; the SQL path
 * writes what that mutation writes, with the amounts the server computed for the first order
 * (see `checkPaths`), in the same transaction the handler opens.
 */

export const PAIR = { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.015' } as const;
/** The valid TRC20 address of tests/integration/actions/exchange.test.ts. */
export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

export const CREATE_EXCHANGE = `mutation CreateExchange($input: CreateExchangeInput!) {
  createExchange(input: $input) { id number sendAmount receiveAmount rate status }
}`;

export interface BenchUser {
  id: string;
  email: string;
  fullName: string;
}

/** Creates the users (e-mail orders<n>@bench.example) the orders are spread over. */
export async function createUsers(pool: pg.Pool, count: number): Promise<BenchUser[]> {
  const { rows } = await pool.query<{ id: string; email: string; n: number }>(
    `INSERT INTO public.portal_users (email, is_verified_email)
     SELECT 'orders' || g || '@bench.example', true FROM generate_series(1, $1::int) AS g
     RETURNING id, email, substring(email FROM '^orders([0-9]+)@')::int AS n`,
    [count],
  );
  return rows
    .sort((a, b) => a.n - b.n)
    .map((row) => ({ id: row.id, email: row.email, fullName: `Bench User ${row.n}` }));
}

/** The form a user sends. */
export function orderInput(user: BenchUser, idempotencyKey: string) {
  return {
    ...PAIR,
    email: user.email,
    fullName: user.fullName,
    walletAddress: TRC20_ADDRESS,
    reason: 'Savings',
    agreeTerms: true,
    agreeAml: true,
    idempotencyKey,
  };
}

export const orderKey = (path: 'api' | 'sql', sequence: number) =>
  `orders-bench-${path}-${String(sequence).padStart(8, '0')}`;

interface GraphqlAnswer {
  data?: { createExchange?: { id?: string } | null } | null;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

/** An order through the engine and the action; throws unless the order came back. */
export function apiTask(client: HttpClient, users: BenchUser[], tokens: TokenBook): OrderTask {
  return async (sequence) => {
    const user = users[sequence % users.length]!;
    const body = JSON.stringify({
      query: CREATE_EXCHANGE,
      variables: { input: orderInput(user, orderKey('api', sequence)) },
    });
    const { status, text } = await client.post(tokens.headers(user.id), body);
    if (status !== 200) throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
    const answer = JSON.parse(text) as GraphqlAnswer;
    const error = answer.errors?.[0];
    if (error)
      throw new Error(
        `${error.extensions?.code ?? 'error'}: ${error.message ?? text.slice(0, 200)}`,
      );
    if (!answer.data?.createExchange?.id) throw new Error(`no order in ${text.slice(0, 200)}`);
  };
}

/** What the SQL path writes besides the per-user fields: the figures the server computed. */
export interface OrderFigures {
  sendAmount: string;
  receiveAmount: string;
  rate: string;
  /** The order's USDT value, when the schema (and the handler) records it. */
  amountUsdt: string | null;
}

/**
 * The statement hasura/actions/src/orders/create.ts runs, with the same parameters, in the
 * same transaction (BEGIN; set_config('hasura.user', session, true); INSERT; COMMIT).
 */
export function sqlStatement(withAmountUsdt: boolean): string {
  return `INSERT INTO public.transactions
         (user_id, send_currency, receive_currency, send_amount, receive_amount, rate,
          email, full_name, wallet_address, iban, reason, locale, idempotency_key${withAmountUsdt ? ', amount_usdt' : ''})
       VALUES ($1, $2, $3, $4::numeric, $5::numeric, $6::numeric, $7, $8, $9, $10, $11, $12, $13${withAmountUsdt ? ', $14::numeric' : ''})
       ON CONFLICT ON CONSTRAINT transactions_user_idempotency_key DO NOTHING
       RETURNING id, number::text AS number, send_amount::text AS "sendAmount",
         receive_amount::text AS "receiveAmount", rate::text AS rate, status`;
}

export async function insertOrder(
  pool: pg.Pool,
  user: BenchUser,
  key: string,
  figures: OrderFigures,
): Promise<string> {
  const withAmountUsdt = figures.amountUsdt !== null;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT set_config('hasura.user', $1, true)", [
      JSON.stringify({ 'x-hasura-role': 'user', 'x-hasura-user-id': user.id }),
    ]);
    const inserted = await client.query<{ id: string }>(sqlStatement(withAmountUsdt), [
      user.id,
      PAIR.from,
      PAIR.to,
      figures.sendAmount,
      figures.receiveAmount,
      figures.rate,
      user.email,
      user.fullName,
      TRC20_ADDRESS,
      null,
      'Savings',
      'en',
      key,
      ...(withAmountUsdt ? [figures.amountUsdt] : []),
    ]);
    await client.query('COMMIT');
    const id = inserted.rows[0]?.id;
    if (!id) throw new Error(`idempotency conflict: no order for key ${key}`);
    return id;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export function sqlTask(pool: pg.Pool, users: BenchUser[], figures: OrderFigures): OrderTask {
  return async (sequence) => {
    await insertOrder(pool, users[sequence % users.length]!, orderKey('sql', sequence), figures);
  };
}

/**
 * Columns that differ between any two orders by construction. `requisites_due_at` is the moment
 * the order came in plus the operator's promise, so two orders made a few milliseconds apart
 * differ there too; it is checked on its own instead (`checkPromise`).
 */
const OWN_COLUMNS = new Set([
  'id',
  'number',
  'idempotency_key',
  'created_at',
  'updated_at',
  'requisites_due_at',
]);
/** The operator's promise (hasura/actions/src/orders/create.ts, the column's default). */
const PROMISE_MS = 10 * 60_000;
/** How far the promise may start from the row's created_at (the API takes its own clock). */
const PROMISE_SLACK_MS = 5_000;

/** Both paths give the operator 10 minutes from the order's arrival: within a few seconds. */
function checkPromise(path: string, row: Record<string, unknown>): void {
  const created = row['created_at'];
  const due = row['requisites_due_at'];
  if (!(created instanceof Date) || !(due instanceof Date))
    throw new Error(`${path}: created_at or requisites_due_at is not a timestamp`);
  const promise = due.getTime() - created.getTime();
  if (Math.abs(promise - PROMISE_MS) > PROMISE_SLACK_MS)
    throw new Error(
      `${path}: requisites_due_at is ${promise} ms after created_at, not ${PROMISE_MS} (± ${PROMISE_SLACK_MS})`,
    );
}

/**
 * Before any load: one order through the API, then the same order in SQL for the same user.
 * The two rows (and their status-history rows) must agree on every column but the ones each
 * order has of its own, which proves the SQL path writes what createExchange writes. Returns
 * the figures for the SQL path, or throws naming the columns that differ.
 */
export async function checkPaths(
  pool: pg.Pool,
  client: HttpClient,
  user: BenchUser,
  tokens: TokenBook,
): Promise<{ figures: OrderFigures; columns: string[] }> {
  await apiTask(client, [user], tokens)(0);
  const rowOf = async (key: string) => {
    const { rows } = await pool.query<Record<string, unknown>>(
      `SELECT t.*, (SELECT json_agg(json_build_object('from', h.from_status, 'to', h.to_status,
                     'changed_by', h.changed_by, 'note', h.note) ORDER BY h.id)
                      FROM public.transaction_status_history h WHERE h.transaction_id = t.id) AS history
         FROM public.transactions t WHERE t.user_id = $1 AND t.idempotency_key = $2`,
      [user.id, key],
    );
    if (!rows[0]) throw new Error(`no order with key ${key}`);
    return rows[0];
  };
  const api = await rowOf(orderKey('api', 0));
  // node-postgres hands numeric columns over as strings: the exact digits.
  const digits = (column: string): string => {
    const value = api[column];
    if (typeof value !== 'string') throw new Error(`${column} is ${JSON.stringify(value)}`);
    return value;
  };
  const figures: OrderFigures = {
    sendAmount: digits('send_amount'),
    receiveAmount: digits('receive_amount'),
    rate: digits('rate'),
    amountUsdt: api['amount_usdt'] == null ? null : digits('amount_usdt'),
  };
  await insertOrder(pool, user, orderKey('sql', 0), figures);
  const sql = await rowOf(orderKey('sql', 0));
  checkPromise('api', api);
  checkPromise('sql', sql);
  const columns = Object.keys(api).filter((column) => !OWN_COLUMNS.has(column));
  const differing = columns.filter(
    (column) => JSON.stringify(api[column]) !== JSON.stringify(sql[column]),
  );
  if (differing.length > 0) {
    const detail = differing
      .map(
        (column) =>
          `${column}: api ${JSON.stringify(api[column])}, sql ${JSON.stringify(sql[column])}`,
      )
      .join('; ');
    throw new Error(
      `the SQL path does not write what createExchange writes (${detail}); update tests/perf/orders/workload.ts to match hasura/actions/src/orders/create.ts`,
    );
  }
  return { figures, columns };
}

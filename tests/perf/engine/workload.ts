import { signHs256, userClaims } from '../../support/jwt.ts';

import type { DataSet } from './database.ts';

/*
 * The three operations every candidate answers, and the request bodies sent to each. The
 * engine and the "pg+http, same SQL" endpoint get byte-identical requests (GraphQL text,
 * variables, a user's JWT); PostGraphile 4 and 5 get their dialect's equivalent query (the same
 * documents: version 5 runs with version 4's names and collections). Requests
 * come from pre-built pools cycled in order, so the load generator does no per-request work
 * beyond picking the next one.
 */

export type QueryName = 'history' | 'by_pk' | 'insert';
export const QUERY_NAMES: QueryName[] = ['history', 'by_pk', 'insert'];

export const QUERY_LABELS: Record<QueryName, string> = {
  history: "user's filtered, ordered, paginated history + relationship",
  by_pk: 'by-pk lookup (+ 2 relationships)',
  insert: 'insert one order',
};

/** The engine's (Hasura's) documents. */
export const ENGINE_QUERIES: Record<QueryName, string> = {
  history: `query History($statuses: [String!]!) {
  transactions(where: {status: {_in: $statuses}}, order_by: {created_at: desc}, limit: 20, offset: 0) {
    id number send_amount receive_amount status created_at send_currency_info { code name }
  }
}`,
  by_pk: `query ByPk($id: uuid!) {
  transactions_by_pk(id: $id) {
    id number send_amount receive_amount rate status created_at updated_at
    send_currency_info { code name } receive_currency_info { code name }
  }
}`,
  insert: `mutation Create($object: transactions_insert_input!) {
  insert_transactions_one(object: $object) { id number status created_at }
}`,
};

/**
 * PostGraphile's equivalents, for version 4 and version 5 alike (simple collections,
 * connection-filter for `in`, a virtual foreign key for the currency relationships). It has no
 * permission layer here: the user scoping is the `userId` condition of the history query and
 * the `userId` of the created row.
 */
export const POSTGRAPHILE_QUERIES: Record<QueryName, string> = {
  history: `query History($userId: UUID!, $statuses: [String!]!) {
  allTransactionsList(condition: {userId: $userId}, filter: {status: {in: $statuses}}, orderBy: CREATED_AT_DESC, first: 20, offset: 0) {
    id number sendAmount receiveAmount status createdAt sendCurrencyInfo { code name }
  }
}`,
  by_pk: `query ByPk($id: UUID!) {
  transactionById(id: $id) {
    id number sendAmount receiveAmount rate status createdAt updatedAt
    sendCurrencyInfo { code name } receiveCurrencyInfo { code name }
  }
}`,
  insert: `mutation Create($input: CreateTransactionInput!) {
  createTransaction(input: $input) { transaction { id number status createdAt } }
}`,
};

/** Status tabs of the history screen. */
export const STATUS_SETS = [
  ['completed', 'canceled'],
  ['waiting_for_operator', 'waiting_for_payment', 'paid'],
  ['waiting_for_operator', 'waiting_for_payment', 'paid', 'completed', 'canceled'],
];

export interface BenchRequest {
  body: string;
  headers: Record<string, string>;
}

export type Candidate = 'pg_http' | 'engine' | 'postgraphile' | 'postgraphile5';

/** PostGraphile 4 and 5 take the same documents (POSTGRAPHILE_QUERIES) and answer alike. */
export const isPostgraphile = (candidate: Candidate): boolean =>
  candidate === 'postgraphile' || candidate === 'postgraphile5';

const JWT_LIFETIME_S = 4 * 3600;

/** One JWT per user, as the auth service issues them. */
export class TokenBook {
  private readonly tokens = new Map<string, string>();
  token(userId: string): string {
    let token = this.tokens.get(userId);
    if (!token) {
      token = signHs256(userClaims(userId, ['user'], JWT_LIFETIME_S));
      this.tokens.set(userId, token);
    }
    return token;
  }
  headers(userId: string): Record<string, string> {
    return { 'content-type': 'application/json', authorization: `Bearer ${this.token(userId)}` };
  }
}

/** Deterministic pseudo-random choice (the pools are the same in every run). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface InsertValues {
  userId: string;
  key: string;
  sendAmount: string;
}

/** The order an insert request creates (engine and PostGraphile field names). */
export function insertObject(data: DataSet, values: InsertValues) {
  const receive = (Number(values.sendAmount) * 1.5).toFixed(4);
  return {
    hasura: {
      send_currency: data.direction.from,
      receive_currency: data.direction.to,
      send_amount: values.sendAmount,
      receive_amount: receive,
      rate: '1.5',
      email: 'buyer@bench.example',
      full_name: 'Bench Buyer',
      wallet_address: 'TXbenchwallet0000000000000000000001',
      reason: 'benchmark order',
      idempotency_key: values.key,
    },
    postgraphile: {
      userId: values.userId,
      sendCurrency: data.direction.from,
      receiveCurrency: data.direction.to,
      sendAmount: values.sendAmount,
      receiveAmount: receive,
      rate: '1.5',
      email: 'buyer@bench.example',
      fullName: 'Bench Buyer',
      walletAddress: 'TXbenchwallet0000000000000000000001',
      reason: 'benchmark order',
      idempotencyKey: values.key,
    },
  };
}

const POOL_SIZE = 2000;

/**
 * Request pools for reads: the same sequence of (user, variables) for every candidate.
 * Inserts are generated on the fly (each needs a fresh idempotency key).
 */
export function readPool(
  candidate: Candidate,
  query: 'history' | 'by_pk',
  data: DataSet,
  tokens: TokenBook,
): BenchRequest[] {
  const random = mulberry32(query === 'history' ? 1 : 2);
  const requests: BenchRequest[] = [];
  for (let i = 0; i < POOL_SIZE; i++) {
    if (query === 'history') {
      const userId = data.readers[Math.floor(random() * data.readers.length)]!;
      const statuses = STATUS_SETS[i % STATUS_SETS.length]!;
      const body = isPostgraphile(candidate)
        ? { query: POSTGRAPHILE_QUERIES.history, variables: { userId, statuses } }
        : { query: ENGINE_QUERIES.history, variables: { statuses } };
      requests.push({ body: JSON.stringify(body), headers: tokens.headers(userId) });
    } else {
      const order = data.orders[Math.floor(random() * data.orders.length)]!;
      const body = isPostgraphile(candidate)
        ? { query: POSTGRAPHILE_QUERIES.by_pk, variables: { id: order.id } }
        : { query: ENGINE_QUERIES.by_pk, variables: { id: order.id } };
      requests.push({ body: JSON.stringify(body), headers: tokens.headers(order.userId) });
    }
  }
  return requests;
}

/** Insert requests: a fresh idempotency key each (runId keeps keys unique across runs). */
export function insertRequestFactory(
  candidate: Candidate,
  data: DataSet,
  tokens: TokenBook,
  runId: string,
) {
  let n = 0;
  return (): BenchRequest => {
    n += 1;
    const userId = data.inserters[n % data.inserters.length]!;
    const values = {
      userId,
      key: `bench-${runId}-${n}`,
      sendAmount: (1 + (n % 997) / 100).toFixed(2),
    };
    const object = insertObject(data, values);
    const body = isPostgraphile(candidate)
      ? {
          query: POSTGRAPHILE_QUERIES.insert,
          variables: { input: { transaction: object.postgraphile } },
        }
      : { query: ENGINE_QUERIES.insert, variables: { object: object.hasura } };
    return { body: JSON.stringify(body), headers: tokens.headers(userId) };
  };
}

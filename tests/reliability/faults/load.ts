import { randomUUID } from 'node:crypto';

import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

import { delay, uniqueEmail } from './services.ts';

/*
 * The client side of the fault checks: GraphQL and auth calls with a deadline, each answer
 * sorted into success, a clear retryable refusal, or a defect (a hang past the deadline, a 500,
 * a stack trace, a refusal without a stable code), and the steady load the issue names: orders
 * created with idempotency keys (a failed create is retried with the SAME key until it
 * succeeds), quotes, and token refreshes.
 */

/** How long a client waits for any answer; longer is a hang. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Codes a service answers a database outage with (HTTP 503), meaning "try again". */
export const RETRYABLE_CODES = new Set(['postgres-error', 'service-unavailable']);

export type Verdict =
  | { kind: 'ok'; body: unknown }
  | { kind: 'retryable'; status: number; code: string }
  | { kind: 'defect'; reason: string };

/** Outcomes of one operation over a run. */
export class Tally {
  ok = 0;
  retryable = 0;
  readonly defects: string[] = [];
  readonly codes = new Map<string, number>();
  /** Times (ms since the epoch) of successful calls, in order. */
  readonly successes: number[] = [];
  slowestMs = 0;

  constructor(readonly name: string) {}

  add(verdict: Verdict, startedAt: number): void {
    const ms = Date.now() - startedAt;
    this.slowestMs = Math.max(this.slowestMs, ms);
    if (verdict.kind === 'ok') {
      this.ok += 1;
      this.successes.push(Date.now());
    } else if (verdict.kind === 'retryable') {
      this.retryable += 1;
      const key = `${verdict.status} ${verdict.code}`;
      this.codes.set(key, (this.codes.get(key) ?? 0) + 1);
    } else if (this.defects.length < 50) {
      this.defects.push(verdict.reason);
    }
  }

  /** The first success at or after `time`, if any. */
  firstSuccessAfter(time: number): number | undefined {
    return this.successes.find((at) => at >= time);
  }

  summary() {
    return {
      ok: this.ok,
      retryable: this.retryable,
      retryableCodes: Object.fromEntries(this.codes),
      defects: this.defects.length,
      slowestMs: this.slowestMs,
    };
  }
}

const looksLikeStack = (text: string) =>
  /\n\s+at [^\n]+:\d+:\d+/.test(text) || /"stack"/.test(text);

async function fetchText(
  url: string,
  init: RequestInit,
): Promise<{ status: number; text: string } | { failure: string }> {
  try {
    const response = await fetch(url, {
      ...init,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return { failure: `no answer within ${REQUEST_TIMEOUT_MS} ms (a hang)` };
    const cause = (error as { cause?: { code?: string } }).cause;
    return { failure: `no HTTP answer: ${cause?.code ?? (error as Error).message}` };
  }
}

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

/** A GraphQL call to the engine, judged. */
export async function graphqlCall(
  engineUrl: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<Verdict> {
  const answer = await fetchText(`${engineUrl}/v1/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  if ('failure' in answer) return { kind: 'defect', reason: answer.failure };
  const { status, text } = answer;
  if (looksLikeStack(text))
    return { kind: 'defect', reason: `HTTP ${status} with a stack: ${text.slice(0, 300)}` };
  let body: GraphqlBody;
  try {
    body = JSON.parse(text) as GraphqlBody;
  } catch {
    return { kind: 'defect', reason: `HTTP ${status}, not JSON: ${text.slice(0, 200)}` };
  }
  if (status === 200 && !body.errors && body.data) return { kind: 'ok', body: body.data };
  const code = body.errors?.[0]?.extensions?.code;
  if ((status === 503 || status === 200) && code !== undefined && RETRYABLE_CODES.has(code))
    return { kind: 'retryable', status, code };
  return { kind: 'defect', reason: `HTTP ${status}: ${text.slice(0, 300)}` };
}

/** A JSON POST to the auth service, judged. */
export async function authCall(authUrl: string, route: string, body: unknown): Promise<Verdict> {
  const answer = await fetchText(`${authUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if ('failure' in answer) return { kind: 'defect', reason: answer.failure };
  const { status, text } = answer;
  if (looksLikeStack(text))
    return { kind: 'defect', reason: `HTTP ${status} with a stack: ${text.slice(0, 300)}` };
  let parsed: { code?: string };
  try {
    parsed = JSON.parse(text) as { code?: string };
  } catch {
    return { kind: 'defect', reason: `HTTP ${status}, not JSON: ${text.slice(0, 200)}` };
  }
  if (status === 200) return { kind: 'ok', body: parsed };
  if (status === 503 && parsed.code !== undefined && RETRYABLE_CODES.has(parsed.code))
    return { kind: 'retryable', status, code: parsed.code };
  return { kind: 'defect', reason: `HTTP ${status}: ${text.slice(0, 300)}` };
}

export const QUOTE = `query ($input: QuoteInput!) {
  quote(input: $input) { sendAmount receiveAmount rate }
}`;
export const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) { id number status }
}`;
/** A read the engine answers from the database alone (no action). */
export const CURRENCIES = `query { currencies(limit: 1, order_by: { code: asc }) { code } }`;

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

export const orderInput = (email: string, idempotencyKey: string) => ({
  from: 'BTC',
  to: 'USDTTRC20',
  side: 'send',
  amount: '0.015',
  email,
  fullName: 'Reliability Check',
  walletAddress: TRC20_ADDRESS,
  reason: 'Savings',
  agreeTerms: true,
  agreeAml: true,
  idempotencyKey,
});

export interface Customer {
  email: string;
  accessToken: string;
  refreshToken: string;
}

/**
 * A new customer who signed up and confirmed the address (in the database, as following the
 * mailed code does): an unconfirmed account may have only a few orders (decision 016), and the
 * load orders without pause. Confirming ends the sign-up's session, so the tokens are a login's.
 */
export async function newCustomer(
  authUrl: string,
  db: { query(sql: string, params: unknown[]): Promise<unknown> },
  prefix = 'load',
): Promise<Customer> {
  const email = uniqueEmail(prefix);
  const password = `Load-${randomUUID()}`;
  const signedUp = await authCall(authUrl, '/register', { email, password });
  if (signedUp.kind !== 'ok') throw new Error(`register failed: ${JSON.stringify(signedUp)}`);
  await db.query('UPDATE public.portal_users SET is_verified_email = true WHERE email = $1', [
    email.toLowerCase(),
  ]);
  const verdict = await authCall(authUrl, '/login', { email, password });
  if (verdict.kind !== 'ok') throw new Error(`login failed: ${JSON.stringify(verdict)}`);
  const tokens = verdict.body as { accessToken: string; refreshToken: string };
  return { email, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
}

export interface AcknowledgedOrder {
  id: string;
  idempotencyKey: string;
  email: string;
  /** Tries it took (1 = first). */
  tries: number;
  at: number;
}

export interface LoadOptions {
  engineUrl: () => string;
  authUrl: () => string;
  customers: Customer[];
  /** Pause between one worker's orders. */
  orderPauseMs?: number;
  /** Pause between retries of a failed create (same key). */
  retryPauseMs?: number;
  /** How long one order may keep being retried before the worker gives up on it. */
  giveUpAfterMs?: number;
}

/**
 * The steady load: one order worker per customer, a quoter and a token refresher, until
 * stop(). Every create that failed is retried with the same idempotency key until it
 * succeeds; stop() lets each worker finish the order it is on.
 */
export function startLoad(options: LoadOptions) {
  const orders = new Tally('createExchange');
  const quotes = new Tally('quote');
  const reads = new Tally('engine read');
  const refreshes = new Tally('refresh');
  const acknowledged: AcknowledgedOrder[] = [];
  /** Keys tried at least once, acknowledged or not. */
  const attempted = new Set<string>();
  const abandoned: string[] = [];
  let stopping = false;
  const retryPause = options.retryPauseMs ?? 200;
  const giveUpAfter = options.giveUpAfterMs ?? 90_000;

  const orderWorker = async (customer: Customer) => {
    while (!stopping) {
      const key = `reliability-${randomUUID()}`;
      attempted.add(key);
      const first = Date.now();
      for (let tries = 1; ; tries++) {
        const started = Date.now();
        const verdict = await graphqlCall(
          options.engineUrl(),
          CREATE,
          { input: orderInput(customer.email, key) },
          customer.accessToken,
        );
        orders.add(verdict, started);
        if (verdict.kind === 'ok') {
          const created = (verdict.body as { createExchange: { id: string } }).createExchange;
          acknowledged.push({
            id: created.id,
            idempotencyKey: key,
            email: customer.email,
            tries,
            at: Date.now(),
          });
          break;
        }
        if (Date.now() - first > giveUpAfter) {
          abandoned.push(key);
          break;
        }
        await delay(retryPause);
      }
      await delay(options.orderPauseMs ?? 100);
    }
  };

  const quoter = async () => {
    while (!stopping) {
      const started = Date.now();
      quotes.add(
        await graphqlCall(options.engineUrl(), QUOTE, {
          input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.015' },
        }),
        started,
      );
      const readStarted = Date.now();
      reads.add(await graphqlCall(options.engineUrl(), CURRENCIES, {}), readStarted);
      await delay(100);
    }
  };

  /** Rotates one customer's refresh token; a failed rotation is retried with the same token. */
  const refresher = async (customer: Customer) => {
    while (!stopping) {
      const started = Date.now();
      const verdict = await authCall(options.authUrl(), '/refresh_tokens', {
        refreshToken: customer.refreshToken,
      });
      refreshes.add(verdict, started);
      if (verdict.kind === 'ok') {
        const tokens = verdict.body as { accessToken: string; refreshToken: string };
        customer.refreshToken = tokens.refreshToken;
        customer.accessToken = tokens.accessToken;
      }
      await delay(verdict.kind === 'ok' ? 250 : retryPause);
    }
  };

  const workers = [
    ...options.customers.map((customer) => orderWorker(customer)),
    quoter(),
    refresher(options.customers[0]!),
  ];

  return {
    orders,
    quotes,
    reads,
    refreshes,
    acknowledged,
    attempted,
    abandoned,
    tallies: () => [orders, quotes, reads, refreshes],
    async stop() {
      stopping = true;
      await Promise.all(workers);
    },
  };
}

/** A live query on the engine (graphql-transport-ws), kept for the whole run. */
export interface OrderWatch {
  /** Order ids seen, with when each was first seen. */
  seen: Map<string, number>;
  /** Error payloads pushed (a refetch failed while the database was away), by code. */
  errors: Map<string, number>;
  /** Whether the subscription or its socket ended (it must not). */
  ended(): string | undefined;
  close(): Promise<void>;
}

/** Subscribes to the customer's latest orders, as the order page does. */
export function watchOrders(engineUrl: string, accessToken: string): OrderWatch {
  const seen = new Map<string, number>();
  const errors = new Map<string, number>();
  let ended: string | undefined;
  const client = createClient({
    url: `${engineUrl.replace(/^http/, 'ws')}/v1/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { headers: { Authorization: `Bearer ${accessToken}` } },
    retryAttempts: 0,
    on: { closed: (event) => (ended ??= `socket closed: ${JSON.stringify(event)}`) },
  });
  client.subscribe<{ transactions: Array<{ id: string }> }>(
    { query: 'subscription { transactions(order_by: { number: desc }, limit: 3) { id } }' },
    {
      next: (result) => {
        if (result.errors) {
          for (const error of result.errors) {
            const code = String((error.extensions as { code?: unknown } | undefined)?.code);
            errors.set(code, (errors.get(code) ?? 0) + 1);
          }
          return;
        }
        for (const order of result.data?.transactions ?? [])
          if (!seen.has(order.id)) seen.set(order.id, Date.now());
      },
      error: (error) => (ended ??= `error: ${JSON.stringify(error)}`),
      complete: () => (ended ??= 'completed'),
    },
  );
  let closing = false;
  return {
    seen,
    errors,
    ended: () => (closing ? undefined : ended),
    async close() {
      closing = true;
      await client.dispose();
    },
  };
}

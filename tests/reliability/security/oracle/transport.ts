import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

import type { GraphqlRequest } from './query.ts';

/*
 * The two ways a client reaches the engine: POST /v1/graphql, and a WebSocket speaking
 * graphql-transport-ws (queries, and subscriptions: live queries, whose first answer is the
 * query's and whose later answers come when the result changes).
 */

export type Answer =
  | { kind: 'data'; data: unknown }
  | { kind: 'errors'; codes: string[]; messages: string[]; data: unknown }
  | { kind: 'failed'; reason: string };

interface GraphqlBody {
  data?: unknown;
  errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }>;
}

const textOf = (value: unknown, fallback: string) =>
  typeof value === 'string' ? value : value === undefined ? fallback : JSON.stringify(value);

function toAnswer(body: GraphqlBody | readonly unknown[]): Answer {
  if (Array.isArray(body)) {
    const errors = body as GraphqlBody['errors'] & unknown[];
    return {
      kind: 'errors',
      codes: errors.map((error) => textOf(error?.extensions?.code, 'none')),
      messages: errors.map((error) => textOf(error?.message, '')),
      data: null,
    };
  }
  const graphql = body as GraphqlBody;
  if (graphql.errors && graphql.errors.length > 0)
    return {
      kind: 'errors',
      codes: graphql.errors.map((error) => textOf(error.extensions?.code, 'none')),
      messages: graphql.errors.map((error) => textOf(error.message, '')),
      data: graphql.data ?? null,
    };
  if (graphql.data === undefined) return { kind: 'failed', reason: 'neither data nor errors' };
  return { kind: 'data', data: graphql.data };
}

export async function postGraphql(
  url: string,
  headers: Record<string, string>,
  request: GraphqlRequest,
  timeoutMs = 60_000,
): Promise<Answer> {
  try {
    const response = await fetch(`${url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    try {
      return toAnswer(JSON.parse(text) as GraphqlBody);
    } catch {
      return { kind: 'failed', reason: `HTTP ${response.status}: ${text.slice(0, 300)}` };
    }
  } catch (error) {
    return { kind: 'failed', reason: `HTTP request failed: ${(error as Error).message}` };
  }
}

export interface LiveSubscription {
  /** The first answer. */
  first: Promise<Answer>;
  /** Every answer so far, the first included. */
  answers: Answer[];
  close(): void;
}

/** One graphql-transport-ws connection per role, reused for every operation. */
export class WsClients {
  private readonly clients = new Map<string, Client>();

  constructor(
    private readonly engineUrl: string,
    private readonly headers: (role: string) => Record<string, string>,
  ) {}

  private client(role: string): Client {
    let client = this.clients.get(role);
    if (!client) {
      client = createClient({
        url: `${this.engineUrl.replace(/^http/, 'ws')}/v1/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { headers: this.headers(role) },
        lazy: true,
        lazyCloseTimeout: 60_000,
        retryAttempts: 0,
      });
      this.clients.set(role, client);
    }
    return client;
  }

  /** Subscribes; the subscription stays open until closed. */
  live(role: string, request: GraphqlRequest, timeoutMs = 60_000): LiveSubscription {
    const answers: Answer[] = [];
    let settle: (answer: Answer) => void = () => {};
    const first = new Promise<Answer>((resolve) => {
      settle = resolve;
    });
    const timer = setTimeout(
      () => settle({ kind: 'failed', reason: 'no answer over the WebSocket' }),
      timeoutMs,
    );
    const push = (answer: Answer) => {
      answers.push(answer);
      clearTimeout(timer);
      settle(answer);
    };
    const unsubscribe = this.client(role).subscribe(request, {
      next: (result) => push(toAnswer(result as GraphqlBody)),
      error: (error: unknown) => {
        if (Array.isArray(error)) push(toAnswer(error));
        else
          push({
            kind: 'failed',
            reason: `WebSocket error: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
          });
      },
      complete: () => {
        clearTimeout(timer);
        settle({ kind: 'failed', reason: 'completed without an answer' });
      },
    });
    return {
      first,
      answers,
      close() {
        clearTimeout(timer);
        unsubscribe();
      },
    };
  }

  /** A query or a subscription's first answer. */
  async once(role: string, request: GraphqlRequest): Promise<Answer> {
    const subscription = this.live(role, request);
    try {
      return await subscription.first;
    } finally {
      subscription.close();
    }
  }

  async close(): Promise<void> {
    for (const client of this.clients.values()) await client.dispose();
    this.clients.clear();
  }
}

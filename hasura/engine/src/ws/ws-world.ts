import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import WebSocket from 'ws';

import {
  ADMIN_SECRET,
  RawClient,
  startTestDatabase,
  startTestEngine,
  type Message,
  type TestDatabase,
  type TestEngine,
} from './test-fixture.ts';

/*
 * The WebSocket suites' world: a real engine on embedded PGlite (reset before each test), real
 * `ws` sockets and the graphql-ws library's client over loopback. Each suite file calls
 * useWsEngine() once; `db` and `server` are live bindings, set once the engine runs.
 */

export const INTERVAL_MS = 100;
export const ADMIN = { headers: { 'X-Hasura-Admin-Secret': ADMIN_SECRET } };
export const asUser = (id: string) => ({
  headers: {
    'X-Hasura-Admin-Secret': ADMIN_SECRET,
    'X-Hasura-Role': 'user',
    'X-Hasura-User-Id': id,
  },
});

export let db: TestDatabase;
export let server: TestEngine;

/** Starts the engine before the file's tests, resets the data before each, stops it after. */
export function useWsEngine(): void {
  beforeAll(async () => {
    db = await startTestDatabase();
    server = await startTestEngine(db.url, { liveQueryRefetchIntervalMs: INTERVAL_MS });
  });
  afterAll(async () => {
    await server.close();
    await db.stop();
  });
  beforeEach(async () => {
    await db.reset();
  });
}

/** Opens a client (graphql-transport-ws by default) and initialises it. */
export async function connect(
  protocol = 'graphql-transport-ws',
  payload: Record<string, unknown> = ADMIN,
): Promise<RawClient> {
  const client = await RawClient.open(server.wsUrl, protocol);
  await client.init(payload);
  return client;
}

export const ofId = (id: string) => (message: Message) => message.id === id;

export function graphqlWsClient(connectionParams: Record<string, unknown> = ADMIN): Client {
  return createClient({
    url: server.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
  });
}

/** Values of a graphql-ws subscription, as an async queue. */
export function iterate(client: Client, query: string, variables?: Record<string, unknown>) {
  return client.iterate({ query, ...(variables && { variables }) });
}

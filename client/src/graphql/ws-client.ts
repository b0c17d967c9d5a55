import { createClient, type Client } from 'graphql-ws';

import type { AuthChangeListener } from '../auth/session-types.ts';

import type { ActingRole } from './acting-role.ts';

/*
 * The live connection to the engine (spec sections 7 and 8): graphql-transport-ws on
 * /v1/graphql, lazy (opened by the first subscription), the bearer token in the connection-init
 * payload, 5 retries with graphql-ws's randomised exponential backoff, and no retry after a
 * fatal close code. Signing in or out restarts it, so subscriptions run as the new session.
 */

/** Close codes after which retrying cannot help (spec section 8). */
export const FATAL_CLOSE_CODES = new Set([
  4500, 4005, 4400, 4004, 4401, 4403, 4406, 4409, 4429, 4499, 4205,
]);

const RETRY_ATTEMPTS = 5;

export function isFatalClose(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && FATAL_CLOSE_CODES.has(code);
}

/** The websocket URL of an HTTP GraphQL endpoint. */
export const websocketUrl = (httpUrl: string): string => httpUrl.replace(/^http/, 'ws');

export interface WsSession {
  graphqlUrl(): string;
  getAccessToken(): Promise<string | null>;
  onAuthChange(listener: AuthChangeListener): () => void;
}

/** The graphql-ws client of one acting role, made on first use. */
export type WsClients = (role?: ActingRole) => Client;

/**
 * One connection per acting role (the role is part of the connection-init headers) for a
 * session; a new sign-in or a sign-out closes them, and the next subscription opens a fresh one.
 */
export function createWsClients(session: WsSession): WsClients {
  const clients = new Map<ActingRole | 'default', Client>();

  session.onAuthChange((event) => {
    // A refreshed token is for the next connection; a new session restarts the live queries.
    if (event.type === 'refresh') return;
    for (const client of clients.values()) {
      client.terminate();
      void client.dispose();
    }
    clients.clear();
  });

  return (role) => {
    const key = role ?? 'default';
    const existing = clients.get(key);
    if (existing) return existing;
    const client = createClient({
      url: websocketUrl(session.graphqlUrl()),
      lazy: true,
      retryAttempts: RETRY_ATTEMPTS,
      shouldRetry: (error) => !isFatalClose(error),
      connectionParams: async () => {
        const token = await session.getAccessToken();
        if (!token) return {};
        return {
          headers: {
            Authorization: `Bearer ${token}`,
            ...(role ? { 'x-hasura-role': role } : {}),
          },
        };
      },
    });
    clients.set(key, client);
    return client;
  };
}

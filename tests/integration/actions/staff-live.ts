import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

import { signHs256, userClaims } from '../../support/jwt.ts';

/*
 * Subscriptions as the console makes them: graphql-transport-ws on the engine's /v1/graphql,
 * the access token and the chosen role in the connection-init payload's headers.
 */

export interface LiveValues<T> {
  values: T[];
  /** The first answer: a value, or the errors the subscription was refused with. */
  first: Promise<{ data: T } | { errors: unknown }>;
  /** The first value (delivered so far or later) that satisfies `predicate`. */
  next(predicate: (value: T) => boolean, timeoutMs?: number): Promise<T>;
}

export interface LiveClient {
  subscribe<T>(query: string, variables?: Record<string, unknown>): LiveValues<T>;
  close(): Promise<void>;
}

/** A client signed in as `caller` acting in its role; a visitor without `caller`. */
export function liveClient(
  engineUrl: string,
  caller?: { userId: string; role: 'user' | 'manager' | 'administrator' },
): LiveClient {
  const roles = caller?.role === 'user' ? ['user'] : ['user', caller?.role ?? 'user'];
  const client: Client = createClient({
    url: `${engineUrl.replace(/^http/, 'ws')}/v1/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: caller
      ? {
          headers: {
            Authorization: `Bearer ${signHs256(userClaims(caller.userId, roles))}`,
            'x-hasura-role': caller.role,
          },
        }
      : {},
    retryAttempts: 0,
  });
  return {
    subscribe<T>(query: string, variables: Record<string, unknown> = {}): LiveValues<T> {
      const values: T[] = [];
      const waiters = new Set<() => void>();
      let failure: unknown;
      let settle: (outcome: { data: T } | { errors: unknown }) => void = () => {};
      const first = new Promise<{ data: T } | { errors: unknown }>((resolve) => {
        settle = resolve;
      });
      const wake = () => {
        for (const waiter of waiters) waiter();
      };
      client.subscribe<T>(
        { query, variables },
        {
          next: (result) => {
            if (result.errors) {
              failure = result.errors;
              settle({ errors: result.errors });
            } else if (result.data) {
              values.push(result.data);
              settle({ data: result.data });
            }
            wake();
          },
          error: (error) => {
            failure = error;
            settle({ errors: error });
            wake();
          },
          complete: () => {},
        },
      );
      return {
        values,
        first,
        async next(predicate: (value: T) => boolean, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            if (failure !== undefined)
              throw new Error(`subscription failed: ${JSON.stringify(failure)}`);
            const found = values.find(predicate);
            if (found !== undefined) return found;
            const left = deadline - Date.now();
            if (left <= 0)
              throw new Error(`no matching subscription value; got ${JSON.stringify(values)}`);
            await new Promise<void>((resolve) => {
              const done = () => {
                waiters.delete(done);
                clearTimeout(timer);
                resolve();
              };
              const timer = setTimeout(done, left);
              waiters.add(done);
            });
          }
        },
      };
    },
    close: () => client.dispose() as Promise<void>,
  };
}

import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

import { ensureAdminAccount } from '@app/auth-service/admin-account';

import type { TestDatabase } from '../../support/databases.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type GraphqlBody,
} from '../actions/harness.ts';
import { startAuth, type AuthServer } from '../auth/harness.ts';

/*
 * The whole product back end as a client meets it: the auth service's HTTP API for accounts
 * and tokens, and the engine's GraphQL (HTTP and websocket) for everything else, on one
 * migrated and seeded database. Tests drive it only through those two doors; the admin account
 * is provisioned as the launcher does.
 */

export const ADMIN = { email: 'admin@example.com', password: 'Admin-password-42' };
export const PASSWORD = 'Correct-horse-42';

/** A signed-in person: their tokens' holder, acting as `role` (default their default role). */
export interface Session {
  userId: string;
  accessToken: string;
  /** Sends a GraphQL request as this session; `role` picks one of the token's allowed roles. */
  graphql(
    query: string,
    variables?: Record<string, unknown>,
    role?: 'user' | 'manager' | 'administrator',
  ): Promise<GraphqlBody>;
}

/** Values a subscription delivered, in order, and a way to wait for one. */
export interface Subscription<T> {
  values: T[];
  next(predicate: (value: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): void;
}

export interface Product {
  auth: AuthServer;
  stack: ActionsStack;
  /** Anonymous GraphQL. */
  graphql(query: string, variables?: Record<string, unknown>): Promise<GraphqlBody>;
  /** POST /register (password account), optionally referred by `referralCode`. */
  register(email: string, referralCode?: string): Promise<Session>;
  /** POST /quick-auth for a new e-mail (a session straight away). */
  quickAuth(email: string, referralCode?: string): Promise<Session>;
  login(email: string, password: string): Promise<Session>;
  /** The provisioned admin grants `email` the manager role; the person signs in again. */
  appointManager(admin: Session, email: string): Promise<Session>;
  subscribe<T>(
    session: Session,
    query: string,
    variables: Record<string, unknown>,
  ): Subscription<T>;
  close(): Promise<void>;
}

function payloadOf(token: string): { userId: string } {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    userId: string;
  };
}

export async function startProduct(db: TestDatabase): Promise<Product> {
  await prepareDatabase(db, {});
  await ensureAdminAccount(db.pool, ADMIN);
  const auth = await startAuth(db, undefined);
  const stack = await startActionsStack(db, {
    env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
  });
  const clients: Client[] = [];

  const post = async (query: string, variables: Record<string, unknown>, headers = {}) => {
    const response = await fetch(`${stack.engineUrl}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphqlBody;
  };

  const sessionFrom = (accessToken: unknown): Session => {
    if (typeof accessToken !== 'string') throw new Error('the auth service gave no access token');
    return {
      userId: payloadOf(accessToken).userId,
      accessToken,
      graphql: (query, variables = {}, role) =>
        post(query, variables, {
          authorization: `Bearer ${accessToken}`,
          ...(role ? { 'x-hasura-role': role } : {}),
        }),
    };
  };

  const signIn = async (path: string, body: Record<string, unknown>): Promise<Session> => {
    const reply = await auth.post(path, body);
    if (reply.status !== 200)
      throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return sessionFrom(reply.body['accessToken']);
  };

  function subscribe<T>(
    session: Session,
    query: string,
    variables: Record<string, unknown>,
  ): Subscription<T> {
    const client = createClient({
      url: `${stack.engineUrl.replace(/^http/, 'ws')}/v1/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { headers: { Authorization: `Bearer ${session.accessToken}` } },
      retryAttempts: 0,
    });
    clients.push(client);
    const values: T[] = [];
    const waiters = new Set<() => void>();
    let failure: unknown;
    const stop = client.subscribe<T>(
      { query, variables },
      {
        next: (result) => {
          if (result.errors) failure = result.errors;
          else if (result.data) values.push(result.data);
          for (const wake of waiters) wake();
        },
        error: (error) => {
          failure = error;
          for (const wake of waiters) wake();
        },
        complete: () => {},
      },
    );
    return {
      values,
      stop,
      async next(predicate, timeoutMs = 10_000) {
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
            const wake = () => {
              waiters.delete(wake);
              clearTimeout(timer);
              resolve();
            };
            const timer = setTimeout(wake, left);
            waiters.add(wake);
          });
        }
      },
    };
  }

  const product: Product = {
    auth,
    stack,
    graphql: (query, variables = {}) => post(query, variables),
    register: (email, referralCode) =>
      signIn('/register', {
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        ...(referralCode ? { referralCode } : {}),
      }),
    quickAuth: (email, referralCode) =>
      signIn('/quick-auth', { email, ...(referralCode ? { referralCode } : {}) }),
    login: (email, password) => signIn('/login', { email, password }),
    async appointManager(admin, email) {
      const granted = await admin.graphql(
        'mutation ($email: String!) { grantManagerRole(email: $email) { userId isManager } }',
        { email },
        'administrator',
      );
      if (granted.errors) throw new Error(JSON.stringify(granted.errors));
      return product.login(email, PASSWORD);
    },
    subscribe,
    async close() {
      await Promise.all(clients.map(async (client) => client.dispose()));
      await stack.close();
      await auth.close();
    },
  };
  return product;
}

/** The `data` of a GraphQL answer, failing the test on errors. */
export function dataOf(body: GraphqlBody): Record<string, unknown> {
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data ?? {};
}

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { Kind, parse, print, type OperationDefinitionNode, type SelectionNode } from 'graphql';

import {
  expectGraphqlData,
  expectJson,
  HttpClient,
  RequestError,
  type Task,
} from '../support/load.ts';
import { signUpUsers, type SignedUpUser, type Stack } from '../support/stack.ts';

/*
 * The four operations issue 11 puts under load, as clients send them:
 *
 * - history: the web's TransactionsHistory page (client/src/graphql/operations/user/
 *   transactions-history.graphql) as a signed-in user with orders. The web runs its two
 *   operations (the page of rows, the count) as subscriptions; over HTTP the same selections
 *   go as one query, the request a page load makes;
 * - quote: the exchange widget's Quote (operations/anonymous/quote.graphql), anonymous;
 * - create: the order form's CreateExchange (operations/user/transaction.graphql), for users
 *   in turn, each with an idempotency key of its own;
 * - refresh: POST /refresh_tokens. Each answer rotates the token, so every user holds one
 *   chain: a chain is taken while its request is in flight and given back with the new token,
 *   and a token is never presented twice. A failed refresh ends its chain.
 */

const OPERATIONS = new URL('../../../client/src/graphql/operations/', import.meta.url);

function operationsIn(file: string): OperationDefinitionNode[] {
  return parse(readFileSync(new URL(file, OPERATIONS), 'utf8')).definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  );
}

function operationNamed(file: string, name: string): string {
  const operation = operationsIn(file).find((definition) => definition.name?.value === name);
  if (!operation) throw new Error(`no operation ${name} in ${file}`);
  return print(operation);
}

/** TransactionsHistoryPage and TransactionsHistoryCount as one query (their variables, both selections). */
export function historyQuery(): string {
  const operations = operationsIn('user/transactions-history.graphql');
  const merged: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION,
    operation: 'query' as OperationDefinitionNode['operation'],
    name: { kind: Kind.NAME, value: 'TransactionsHistory' },
    variableDefinitions: operations.flatMap((operation) => operation.variableDefinitions ?? []),
    directives: [],
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: operations.flatMap(
        (operation): readonly SelectionNode[] => operation.selectionSet.selections,
      ),
    },
  };
  return print(merged);
}

export const QUOTE = operationNamed('anonymous/quote.graphql', 'Quote');
export const CREATE_EXCHANGE = operationNamed('user/transaction.graphql', 'CreateExchange');
export const HISTORY = historyQuery();
/** The web's page size (web/app/account/format.ts). */
export const HISTORY_PAGE_SIZE = 20;

/** BTC -> USDT (TRC20): no working-hours window, inside the BTC limits (as bench:orders). */
export const PAIR = { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.015' } as const;
const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

export type OperationName = 'history' | 'quote' | 'create' | 'refresh';
export const OPERATION_NAMES: readonly OperationName[] = ['history', 'quote', 'create', 'refresh'];

export interface Workload {
  users: SignedUpUser[];
  tasks: Record<OperationName, Task>;
  /** Refresh chains still usable (each failed refresh ends one). */
  liveChains(): number;
  close(): void;
}

/**
 * Signs up `users` users (POST /register), gives the first `historyUsers` of them `ordersEach`
 * orders through the API, and returns the four tasks. Orders are made for all `users` in turn.
 * A refresh runs on a chain no other request holds; with none free it fails as `shed` (too
 * many in flight), so make `refreshChains` at least the most refreshes any run keeps in flight.
 */
export async function prepareWorkload(
  stack: Stack,
  options: {
    users: number;
    historyUsers: number;
    ordersEach: number;
    /** Refresh chains: the users' own sessions, then quick-auth accounts' up to this many. */
    refreshChains: number;
    /** Sockets each operation may open at once. */
    maxSockets: number;
  },
): Promise<Workload> {
  const users = await signUpUsers(stack, options.users, { prefix: 'load' });
  const sessionsOnly = await signUpUsers(stack, Math.max(0, options.refreshChains - users.length), {
    prefix: 'chain',
    via: 'quick-auth',
  });
  const clients = {
    history: new HttpClient(options.maxSockets),
    quote: new HttpClient(options.maxSockets),
    create: new HttpClient(options.maxSockets),
    refresh: new HttpClient(options.maxSockets),
  };
  const run = randomBytes(4).toString('hex');
  const bearer = (user: SignedUpUser) => ({ authorization: `Bearer ${user.accessToken}` });

  const createOrder = async (user: SignedUpUser, key: string) => {
    const answer = await clients.create.post(
      stack.urls.graphql,
      bearer(user),
      JSON.stringify({
        query: CREATE_EXCHANGE,
        variables: {
          input: {
            ...PAIR,
            email: user.email,
            fullName: 'Load Test',
            walletAddress: TRC20_ADDRESS,
            reason: 'Savings',
            agreeTerms: true,
            agreeAml: true,
            idempotencyKey: key,
          },
        },
      }),
    );
    const data = expectGraphqlData(answer) as { createExchange?: { id?: string } | null };
    if (!data.createExchange?.id) {
      throw new RequestError('graphql: no order', answer.text.slice(0, 300));
    }
  };

  const historyUsers = users.slice(0, Math.max(1, options.historyUsers));
  for (const [index, user] of historyUsers.entries()) {
    await Promise.all(
      Array.from({ length: options.ordersEach }, (_, n) =>
        createOrder(user, `history-${run}-${index}-${n}`),
      ),
    );
  }

  const idle = [...users, ...sessionsOnly].map((user) => ({ token: user.refreshToken }));
  let live = idle.length;

  const tasks: Record<OperationName, Task> = {
    async history(sequence) {
      const user = historyUsers[sequence % historyUsers.length]!;
      const answer = await clients.history.post(
        stack.urls.graphql,
        bearer(user),
        JSON.stringify({ query: HISTORY, variables: { limit: HISTORY_PAGE_SIZE, offset: 0 } }),
      );
      const data = expectGraphqlData(answer) as { transactions?: unknown[] };
      if (!Array.isArray(data.transactions) || data.transactions.length === 0) {
        throw new RequestError('graphql: empty history', answer.text.slice(0, 300));
      }
    },
    async quote() {
      const answer = await clients.quote.post(
        stack.urls.graphql,
        {},
        JSON.stringify({ query: QUOTE, variables: { input: PAIR } }),
      );
      const data = expectGraphqlData(answer) as { quote?: { receiveAmount?: string } | null };
      if (!data.quote?.receiveAmount) {
        throw new RequestError('graphql: no quote', answer.text.slice(0, 300));
      }
    },
    async create(sequence) {
      await createOrder(users[sequence % users.length]!, `load-${run}-${sequence}`);
    },
    async refresh() {
      const chain = idle.pop();
      if (!chain) throw new RequestError('shed', `all ${live} live refresh chains in flight`);
      let next: string | undefined;
      try {
        const body = expectJson<{ refreshToken?: string; accessToken?: string }>(
          await clients.refresh.post(
            `${stack.urls.auth}/refresh_tokens`,
            {},
            JSON.stringify({ refreshToken: chain.token }),
          ),
        );
        if (!body.refreshToken || !body.accessToken) {
          throw new RequestError('no tokens', JSON.stringify(body).slice(0, 300));
        }
        next = body.refreshToken;
      } finally {
        if (next) idle.push({ token: next });
        else live -= 1;
      }
    },
  };

  return {
    users,
    tasks,
    liveChains: () => live,
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}

/** Waits (up to `timeoutMs`) until every event trigger written so far has been tried once. */
export async function drainEvents(stack: Stack, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { rows } = await stack.pool.query<{ untried: number }>(
      `SELECT count(*)::int AS untried FROM hdb_catalog.event_log
        WHERE NOT delivered AND NOT error AND tries = 0`,
    );
    if ((rows[0]?.untried ?? 0) === 0 || performance.now() - started > timeoutMs) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return Math.round(performance.now() - started);
}

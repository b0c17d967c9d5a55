import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  Kind,
  parse,
  print,
  type OperationDefinitionNode,
  type TypeNode,
  type DocumentNode,
} from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

import type { Tokens } from './accounts.ts';
import { adminTokens, newCustomer, signInAsPerson } from './staff-session.ts';
import { GRAPHQL_URL } from './stack.ts';
import { expect, hydrated, test } from './support.ts';

/*
 * The staff console is closed to everyone else (issue 7): a visitor reaching an admin route is
 * sent to login, a signed-in customer gets "No access" (decision 041), and every GraphQL operation the
 * console sends (its operation files, read here, so a new one is covered the day it lands)
 * is refused to both or answers nothing that is not theirs. The guard in the page is
 * convenience; the engine's permissions are what this proves.
 */

const ADMIN_ROUTES = [
  '/admin/transactions',
  '/admin/managers',
  '/admin/bank-accounts',
  '/admin/support-requests',
  '/admin/user-custom-currency',
  '/admin/audit-log',
];

test('a visitor reaching an admin route is sent to login, and comes back after it', async ({
  page,
}) => {
  for (const route of ADMIN_ROUTES) {
    await page.goto(route);
    await hydrated(page);
    await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(route)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
  }
  await page.goto('/ru/admin/bank-accounts');
  await hydrated(page);
  await expect(page).toHaveURL(
    `/ru/login?redirectTo=${encodeURIComponent('/ru/admin/bank-accounts')}`,
  );
});

test('a signed-in customer gets "No access" on every admin route, and no staff menu', async ({
  page,
}) => {
  const customer = await newCustomer('guard');
  await signInAsPerson(page, customer);
  for (const route of ADMIN_ROUTES) {
    await page.goto(route);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No access');
    await expect(page.getByRole('link', { name: 'Bank accounts' })).toHaveCount(0);
  }
  await page.goto('/ua/admin/transactions');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Немає доступу');
});

// ------------------------------------------------------------------ the console's operations

const OPERATIONS_DIR = fileURLToPath(
  new URL('../../client/src/graphql/operations/', import.meta.url),
);

interface ConsoleOperation {
  name: string;
  kind: 'query' | 'mutation' | 'subscription';
  text: string;
  variables: Record<string, unknown>;
  rootFields: string[];
}

/**
 * What the engine serves to visitors (the committed schema, kept current by a test): reference
 * data such as the currencies is public, and a console read of only that leaks nothing.
 */
function publicRootFields(): Set<string> {
  const schema = parse(
    readFileSync(
      new URL('../../client/src/graphql/schema/anonymous.graphql', import.meta.url),
      'utf8',
    ),
  );
  const fields = new Set<string>();
  for (const definition of schema.definitions) {
    if (
      definition.kind === Kind.OBJECT_TYPE_DEFINITION &&
      ['query_root', 'subscription_root'].includes(definition.name.value)
    ) {
      for (const field of definition.fields ?? []) fields.add(field.name.value);
    }
  }
  return fields;
}

/** A value of the named type that passes coercion, so only permissions can refuse it. */
function sample(type: TypeNode): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return sample(type.type);
  if (type.kind === Kind.LIST_TYPE) return [];
  switch (type.name.value) {
    case 'uuid':
      return randomUUID();
    case 'Int':
    case 'smallint':
      return 1;
    case 'Float':
      return 1.5;
    case 'numeric':
    case 'bigint':
      return '1';
    case 'Boolean':
      return true;
    case 'timestamptz':
      return new Date().toISOString();
    case 'String':
      return 'guard@example.com';
    default:
      // Input objects (filters, order_by, inputs): an empty one.
      return {};
  }
}

function consoleOperations(): ConsoleOperation[] {
  const operations: ConsoleOperation[] = [];
  for (const role of ['manager', 'administrator']) {
    const dir = path.join(OPERATIONS_DIR, role);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.graphql'))) {
      const document: DocumentNode = parse(readFileSync(path.join(dir, file), 'utf8'));
      const fragments = document.definitions.filter(
        (definition) => definition.kind === Kind.FRAGMENT_DEFINITION,
      );
      for (const definition of document.definitions) {
        if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
        const operation: OperationDefinitionNode = definition;
        operations.push({
          name: `${role}/${file}: ${operation.name?.value ?? '(anonymous)'}`,
          kind: operation.operation,
          text: [operation, ...fragments].map((node) => print(node)).join('\n'),
          rootFields: operation.selectionSet.selections.flatMap((selection) =>
            selection.kind === Kind.FIELD ? [selection.name.value] : [],
          ),
          variables: Object.fromEntries(
            (operation.variableDefinitions ?? []).map((variable) => [
              variable.variable.name.value,
              sample(variable.type),
            ]),
          ),
        });
      }
    }
  }
  return operations;
}

interface Answer {
  data?: unknown;
  errors?: unknown[];
}

async function overHttp(
  operation: ConsoleOperation,
  headers: Record<string, string>,
): Promise<Answer> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: operation.text, variables: operation.variables }),
  });
  return (await response.json()) as Answer;
}

function overWebsocket(
  operation: ConsoleOperation,
  headers: Record<string, string>,
): Promise<Answer> {
  const client = createClient({
    url: GRAPHQL_URL.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { headers },
    retryAttempts: 0,
    lazy: true,
  });
  return new Promise<Answer>((resolve) => {
    const stop = client.subscribe(
      { query: operation.text, variables: operation.variables },
      {
        next: (result) => {
          stop();
          resolve(result as Answer);
        },
        error: (error) => resolve({ errors: [error] }),
        complete: () => resolve({ errors: ['completed without an answer'] }),
      },
    );
  }).finally(() => void client.dispose());
}

/** Nothing in the answer is a row: only empty lists, nulls and zero counts. */
function holdsNothing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'number') return value === 0;
  if (typeof value === 'object') return Object.values(value).every(holdsNothing);
  return false;
}

const callers: Array<{ who: string; headers: (tokens: Tokens) => Record<string, string> }> = [
  { who: 'a visitor', headers: () => ({}) },
  { who: 'a customer', headers: (tokens) => ({ authorization: `Bearer ${tokens.accessToken}` }) },
  {
    who: 'a customer asking for the manager role',
    headers: (tokens) => ({
      authorization: `Bearer ${tokens.accessToken}`,
      'x-hasura-role': 'manager',
    }),
  },
  {
    who: 'a customer asking for the administrator role',
    headers: (tokens) => ({
      authorization: `Bearer ${tokens.accessToken}`,
      'x-hasura-role': 'administrator',
    }),
  },
];

test('every GraphQL operation of the console is refused to visitors and customers', async () => {
  const publicFields = publicRootFields();
  const operations = consoleOperations().filter(
    (operation) =>
      operation.kind === 'mutation' ||
      !operation.rootFields.every((field) => publicFields.has(field)),
  );
  // The console's pages: at least the queue, staff, accounts, support and rates documents.
  expect(operations.length).toBeGreaterThanOrEqual(10);
  const customer = await newCustomer('guard-api');
  const leaks: string[] = [];
  for (const caller of callers) {
    const headers = caller.headers(customer.tokens);
    for (const operation of operations) {
      const answer =
        operation.kind === 'subscription'
          ? await overWebsocket(operation, headers)
          : await overHttp(operation, headers);
      const refused = (answer.errors?.length ?? 0) > 0;
      // A mutation must be refused outright; a read may answer only with nothing of anyone's.
      const allowed =
        operation.kind === 'mutation' ? refused : refused || holdsNothing(answer.data);
      if (!allowed) leaks.push(`${caller.who} → ${operation.name}: ${JSON.stringify(answer)}`);
    }
  }
  expect(leaks).toEqual([]);

  // The control: the same reads, sent the same way by the administrator, are answered, so the
  // refusals above are the permissions' and not a malformed request's.
  const admin = await adminTokens();
  const headers = {
    authorization: `Bearer ${admin.accessToken}`,
    'x-hasura-role': 'administrator',
  };
  const unanswered: string[] = [];
  for (const operation of operations.filter((candidate) => candidate.kind !== 'mutation')) {
    const answer =
      operation.kind === 'subscription'
        ? await overWebsocket(operation, headers)
        : await overHttp(operation, headers);
    if (answer.errors?.length)
      unanswered.push(`${operation.name}: ${JSON.stringify(answer.errors)}`);
  }
  expect(unanswered).toEqual([]);
});

import pg from 'pg';

import { orderLinkToken } from '@app/actions/orders/link-token';

import { adminGraphql } from './accounts.ts';
import { graphqlAs, newCustomer, type Person } from './staff-session.ts';
import { DATABASE_URL, E2E_PORTS } from './stack.ts';

/*
 * The trust paths of issue 10 end to end (tests/e2e/trust.e2e.ts): orders made through the API
 * as the order form sends them, the operator's steps through the engine in the manager role,
 * the deadlines job run on demand, and the clock moved by writing the deadlines themselves in
 * the stack's database.
 */

export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
/** A Bitcoin address, used as the refund address of BTC orders. */
export const BTC_REFUND_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

/** The development secret of order links (hasura/actions/src/env.ts); the e2e stack uses it. */
export const DEV_ORDER_LINK_SECRET = 'dev-only-order-link-secret-0123456789';
const ACTIONS_SECRET = 'dev-only-actions-secret';

export interface Order {
  id: string;
  number: string;
}

export { newCustomer, type Person };

/** A BTC → USDT (TRC20) order of `amount` BTC through the API, as the order form sends it. */
export async function createBtcOrder(customer: Person, amount = '0.05'): Promise<Order> {
  const body = await graphqlAs<{ createExchange: { id: string; number: string } }>(
    customer.tokens,
    `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id number } }`,
    {
      input: {
        from: 'BTC',
        to: 'USDTTRC20',
        side: 'send',
        amount,
        walletAddress: TRC20_ADDRESS,
        email: customer.email,
        fullName: 'Tanya Trust',
        reason: 'Savings',
        agreeTerms: true,
        agreeAml: true,
        idempotencyKey: crypto.randomUUID(),
      },
    },
  );
  if (!body.data) throw new Error(`createExchange: ${JSON.stringify(body.errors)}`);
  return { id: body.data.createExchange.id, number: String(body.data.createExchange.number) };
}

let staffId: string | undefined;

/** A mutation as staff: the provisioned administrator acting in the manager role. */
async function asManager<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  staffId ??= (
    await adminGraphql<{ roles: Array<{ user_id: string }> }>(
      'query { roles(where: { role_type: { _eq: "admin" } }, limit: 1) { user_id } }',
    )
  ).roles[0]?.user_id;
  if (!staffId) throw new Error('no provisioned admin');
  const response = await fetch(`http://localhost:${E2E_PORTS.engine}/v1/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hasura-admin-secret': 'dev-only-hasura-admin-secret',
      'x-hasura-role': 'manager',
      'x-hasura-user-id': staffId,
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

/** The operator's steps of issue 10 (hasura/metadata/actions.graphql). */
export const operator = {
  supplyAddress: (id: string, address: string) =>
    asManager(
      `mutation ($id: uuid!, $address: String!) {
         supplyRequisites(transactionId: $id, depositAddress: $address) { status }
       }`,
      { id, address },
    ),
  confirmPayment: (id: string, receivedAmount?: string) =>
    asManager(
      `mutation ($id: uuid!, $received: numeric) {
         confirmPayment(transactionId: $id, receivedAmount: $received) { status }
       }`,
      { id, received: receivedAmount ?? null },
    ),
  hold: (id: string, category: string) =>
    asManager(
      `mutation ($id: uuid!, $category: String!) {
         holdOrder(transactionId: $id, category: $category) { status }
       }`,
      { id, category },
    ),
  releaseHold: (id: string, outcome: 'release' | 'refund') =>
    asManager(
      `mutation ($id: uuid!, $outcome: String!) {
         releaseHold(transactionId: $id, outcome: $outcome) { status }
       }`,
      { id, outcome },
    ),
  // Shortcuts for an operator who has already decided: a retried test reuses its tx id, which
  // the actions would otherwise refuse as a duplicate (decision 044; tx-duplicates.test.ts).
  completeRefund: (id: string, refundTxId: string) =>
    asManager(
      `mutation ($id: uuid!, $tx: String!) {
         completeRefund(transactionId: $id, refundTxId: $tx, allowDuplicateTxId: true) { status }
       }`,
      { id, tx: refundTxId },
    ),
  complete: (id: string, payoutTxId: string) =>
    asManager(
      `mutation ($id: uuid!, $tx: String!) {
         completeExchange(transactionId: $id, payoutTxId: $tx, allowDuplicateTxId: true) { status }
       }`,
      { id, tx: payoutTxId },
    ),
};

/** A statement on the stack's database (the embedded PostgreSQL), e.g. to move a deadline. */
export async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Runs the deadlines job now, as the engine's `order_deadlines` cron trigger does every minute. */
export async function runDeadlines(): Promise<{ expired: string[]; flaggedLate: string[] }> {
  const response = await fetch(`http://127.0.0.1:${E2E_PORTS.actions}/cron/order-deadlines`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-actions-secret': ACTIONS_SECRET },
    body: '{}',
  });
  if (!response.ok) throw new Error(`order-deadlines: ${response.status} ${await response.text()}`);
  return (await response.json()) as { expired: string[]; flaggedLate: string[] };
}

/** The secret link token of an order, as the order-created e-mail builds it. */
export const linkTokenOf = (orderId: string): string =>
  orderLinkToken(DEV_ORDER_LINK_SECRET, orderId);

/** The same token with one character changed (its MAC no longer matches). */
export function alteredToken(token: string): string {
  const at = 30;
  const swapped = token[at] === 'A' ? 'B' : 'A';
  return `${token.slice(0, at)}${swapped}${token.slice(at + 1)}`;
}

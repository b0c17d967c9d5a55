import { ADMIN_SECRET, GRAPHQL_URL } from './stack.ts';

/*
 * Staff steps through the engine's API, as the staff console will send them: the provisioned
 * admin account acting in the manager role.
 */

async function adminGraphql<T>(
  query: string,
  variables: Record<string, unknown>,
  session: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hasura-admin-secret': ADMIN_SECRET,
      ...session,
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

let staffId: string | undefined;

async function asManager<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  staffId ??= (
    await adminGraphql<{ roles: Array<{ user_id: string }> }>(
      'query { roles(where: { role_type: { _eq: "admin" } }, limit: 1) { user_id } }',
      {},
    )
  ).roles[0]?.user_id;
  if (!staffId) throw new Error('no provisioned admin');
  return adminGraphql<T>(query, variables, {
    'x-hasura-role': 'manager',
    'x-hasura-user-id': staffId,
  });
}

export const staff = {
  supplyAddress: (id: string, address: string) =>
    asManager(
      `mutation ($id: uuid!, $address: String!) {
         supplyRequisites(transactionId: $id, depositAddress: $address) { status }
       }`,
      { id, address },
    ),
  confirmPayment: (id: string) =>
    asManager('mutation ($id: uuid!) { confirmPayment(transactionId: $id) { status } }', { id }),
  // A shortcut for an operator who has already decided: a retried test reuses its tx id, which
  // the action would otherwise refuse as a duplicate (decision 044; tx-duplicates.test.ts).
  complete: (id: string, txId: string) =>
    asManager(
      `mutation ($id: uuid!, $tx: String!) {
         completeExchange(transactionId: $id, payoutTxId: $tx, allowDuplicateTxId: true) { status }
       }`,
      { id, tx: txId },
    ),
};

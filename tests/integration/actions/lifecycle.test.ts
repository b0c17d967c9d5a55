import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
  type GraphqlBody,
} from './harness.ts';

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

const OUTPUT = 'id number status transaction { id status }';
const CANCEL = `mutation ($id: uuid!) { cancelExchange(transactionId: $id) { ${OUTPUT} } }`;
const SUPPLY = `mutation ($id: uuid!, $address: String, $memo: String, $account: uuid) {
  supplyRequisites(
    transactionId: $id, depositAddress: $address, depositMemo: $memo, bankAccountId: $account
  ) { ${OUTPUT} }
}`;
const CONFIRM = `mutation ($id: uuid!) { confirmPayment(transactionId: $id) { ${OUTPUT} } }`;
const COMPLETE = `mutation ($id: uuid!, $tx: String!) {
  completeExchange(transactionId: $id, payoutTxId: $tx) { ${OUTPUT} }
}`;
const STAFF_CANCEL = `mutation ($id: uuid!, $reason: String!) {
  cancelExchangeByStaff(transactionId: $id, reason: $reason) { ${OUTPUT} }
}`;

describe.each(databaseTargets)('order lifecycle actions through the engine on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const alice = randomUUID();
  const bob = randomUUID();
  const staffId = randomUUID();
  const owner: Caller = { userId: alice, role: 'user' };
  const other: Caller = { userId: bob, role: 'user' };
  const staff: Caller = { userId: staffId, role: 'manager' };

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, bob, staff: staffId });
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
    });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  const graphql = (query: string, variables: Record<string, unknown>, caller: Caller) =>
    stack.graphql(query, variables, caller);

  /** An order as createExchange leaves it (waiting_for_operator), written directly. */
  async function newOrder(from = 'BTC', to = 'USDTTRC20'): Promise<string> {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                 receive_amount, rate, email, full_name, wallet_address, reason)
       VALUES ($1, $2, $3, 1, 2, 2, 'alice@example.com', 'Alice Example', $4, 'Savings')
       RETURNING id`,
      [alice, from, to, to === 'BTC' ? BTC_ADDRESS : TRC20_ADDRESS],
    );
    return rows[0]!.id;
  }

  async function orderRow(id: string) {
    const { rows } = await db.pool.query<Record<string, string | null>>(
      `SELECT number::text AS number, status, canceled_by, cancel_reason, deposit_address,
              deposit_memo, bank_account_id, payment_reference, payout_tx_id
         FROM transactions WHERE id = $1`,
      [id],
    );
    return rows[0]!;
  }

  const codeOf = (body: GraphqlBody) => body.errors?.[0]?.extensions['code'];

  it('lets the owner cancel an unpaid order', async () => {
    const id = await newOrder();
    const { data, errors } = await graphql(CANCEL, { id }, owner);
    expect(errors).toBeUndefined();
    expect(data?.['cancelExchange']).toMatchObject({
      id,
      status: 'canceled',
      transaction: { id, status: 'canceled' },
    });
    expect(await orderRow(id)).toMatchObject({ status: 'canceled', canceled_by: 'user' });
    const history = await db.pool.query<{ to_status: string; changed_by: string | null }>(
      `SELECT to_status, changed_by FROM transaction_status_history
        WHERE transaction_id = $1 ORDER BY id`,
      [id],
    );
    expect(history.rows.at(-1)).toEqual({ to_status: 'canceled', changed_by: alice });

    // Final: a second cancel is not a legal step.
    expect(codeOf(await graphql(CANCEL, { id }, owner))).toBe('invalid-transition');
  });

  it("does not let another user cancel someone's order", async () => {
    const id = await newOrder();
    const before = await orderRow(id);
    const result = await graphql(CANCEL, { id }, other);
    expect(result.data?.['cancelExchange'] ?? null).toBeNull();
    expect(codeOf(result)).toBe('not-found');
    expect(await orderRow(id)).toEqual(before);
    expect(codeOf(await graphql(CANCEL, { id: randomUUID() }, owner))).toBe('not-found');
  });

  it("does not let another user read or change someone's order", async () => {
    const id = await newOrder();
    const before = await orderRow(id);
    const read = await graphql(
      `
        query ($id: uuid!) {
          transactions_by_pk(id: $id) {
            id
          }
          transactions(where: { id: { _eq: $id } }) {
            id
          }
          transaction_status_history(where: { transaction_id: { _eq: $id } }) {
            id
          }
        }
      `,
      { id },
      other,
    );
    expect(read.data).toEqual({
      transactions_by_pk: null,
      transactions: [],
      transaction_status_history: [],
    });
    // No user writes orders directly, own or not: only the actions move them.
    for (const mutation of [
      `mutation ($id: uuid!) { update_transactions_by_pk(pk_columns: { id: $id }, _set: { status: "paid" }) { id } }`,
      `mutation ($id: uuid!) { delete_transactions_by_pk(id: $id) { id } }`,
    ]) {
      for (const caller of [other, owner]) {
        const result = await graphql(mutation, { id }, caller);
        expect(result.errors?.[0]?.message).toMatch(/not found in type/);
      }
    }
    expect(await orderRow(id)).toEqual(before);
    // The owner reads it.
    const own = await graphql(
      'query ($id: uuid!) { transactions_by_pk(id: $id) { id } }',
      { id },
      owner,
    );
    expect(own.data).toEqual({ transactions_by_pk: { id } });
  });

  it('takes an order through requisites, payment and payout to completed', async () => {
    const id = await newOrder();
    const supplied = await graphql(SUPPLY, { id, address: BTC_ADDRESS, memo: 'memo-1' }, staff);
    expect(supplied.errors).toBeUndefined();
    expect(supplied.data?.['supplyRequisites']).toMatchObject({
      id,
      status: 'waiting_for_payment',
      transaction: { status: 'waiting_for_payment' },
    });
    expect(await orderRow(id)).toMatchObject({
      deposit_address: BTC_ADDRESS,
      deposit_memo: 'memo-1',
      bank_account_id: null,
    });

    // Not paid yet: completing is refused and changes nothing.
    const early = await graphql(COMPLETE, { id, tx: 'payout-tx-1' }, staff);
    expect(codeOf(early)).toBe('invalid-transition');
    expect(await orderRow(id)).toMatchObject({ status: 'waiting_for_payment', payout_tx_id: null });

    const confirmed = await graphql(CONFIRM, { id }, staff);
    expect(confirmed.errors).toBeUndefined();
    expect(confirmed.data?.['confirmPayment']).toMatchObject({ status: 'paid' });

    // A blank payout id is missing input.
    expect(codeOf(await graphql(COMPLETE, { id, tx: '  ' }, staff))).toBe('invalid-input');

    const completed = await graphql(COMPLETE, { id, tx: 'payout-tx-1' }, staff);
    expect(completed.errors).toBeUndefined();
    const output = completed.data?.['completeExchange'] as Record<string, unknown>;
    expect(output).toMatchObject({ id, status: 'completed' });
    const row = await orderRow(id);
    expect(output['number']).toBe(row.number);
    expect(row).toMatchObject({ status: 'completed', payout_tx_id: 'payout-tx-1' });

    const history = await db.pool.query<{ to_status: string; changed_by: string | null }>(
      `SELECT to_status, changed_by FROM transaction_status_history
        WHERE transaction_id = $1 ORDER BY id`,
      [id],
    );
    expect(history.rows).toEqual([
      { to_status: 'waiting_for_operator', changed_by: null },
      { to_status: 'waiting_for_payment', changed_by: staffId },
      { to_status: 'paid', changed_by: staffId },
      { to_status: 'completed', changed_by: staffId },
    ]);
  });

  it('supplies a bank account with a generated payment reference', async () => {
    const {
      rows: [active, inactive],
    } = await db.pool.query<{ id: string }>(
      `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address,
                                  currency_code, is_active)
       VALUES ('Exchange Ltd', 'DE89370400440532013000', 'COBADEFFXXX', 'Berlin', 'EUR', true),
              ('Exchange Ltd', 'DE89370400440532013000', 'COBADEFFXXX', 'Berlin', 'EUR', false)
       RETURNING id`,
    );
    const id = await newOrder('EUR', 'BTC');
    const cryptoOrder = await newOrder();

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ id }, 'invalid-input'],
      [{ id, address: BTC_ADDRESS, account: active!.id }, 'invalid-input'],
      [{ id, account: inactive!.id }, 'invalid-input'],
      [{ id, account: randomUUID() }, 'invalid-input'],
      [{ id: cryptoOrder, account: active!.id }, 'invalid-input'],
      [{ id: randomUUID(), account: active!.id }, 'not-found'],
    ];
    for (const [variables, code] of refusals) {
      expect(codeOf(await graphql(SUPPLY, variables, staff)), JSON.stringify(variables)).toBe(code);
    }
    expect(await orderRow(id)).toMatchObject({ status: 'waiting_for_operator' });

    const { data, errors } = await graphql(SUPPLY, { id, account: active!.id }, staff);
    expect(errors).toBeUndefined();
    expect(data?.['supplyRequisites']).toMatchObject({ status: 'waiting_for_payment' });
    const row = await orderRow(id);
    expect(row).toMatchObject({
      bank_account_id: active!.id,
      payment_reference: `EX-${row.number}`,
      deposit_address: null,
    });

    // Requisites are given once.
    const again = await graphql(SUPPLY, { id, account: active!.id }, staff);
    expect(codeOf(again)).toBe('invalid-transition');
  });

  it('lets staff cancel an unpaid order with a reason', async () => {
    const id = await newOrder();
    const { data, errors } = await graphql(STAFF_CANCEL, { id, reason: 'No payment' }, staff);
    expect(errors).toBeUndefined();
    expect(data?.['cancelExchangeByStaff']).toMatchObject({ status: 'canceled' });
    expect(await orderRow(id)).toMatchObject({
      status: 'canceled',
      canceled_by: 'staff',
      cancel_reason: 'No payment',
    });
  });

  it('has no staff actions in a plain user schema', async () => {
    const id = await newOrder();
    const before = await orderRow(id);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [SUPPLY, { id, address: BTC_ADDRESS }, 'supplyRequisites'],
      [CONFIRM, { id }, 'confirmPayment'],
      [COMPLETE, { id, tx: 'payout-tx' }, 'completeExchange'],
      [STAFF_CANCEL, { id, reason: 'x' }, 'cancelExchangeByStaff'],
    ];
    for (const [query, variables, field] of cases) {
      const result = await graphql(query, variables, owner);
      expect(result.data ?? null).toBeNull();
      expect(codeOf(result), field).toBe('validation-failed');
      expect(result.errors?.[0]?.message).toContain(field);
    }
    expect(await orderRow(id)).toEqual(before);
  });
});

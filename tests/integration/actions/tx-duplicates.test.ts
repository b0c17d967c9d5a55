import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { normalizeTxId } from '../../../hasura/actions/src/orders/tx-duplicates.ts';
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

/*
 * Issue 23: the same payout tx id was accepted for three different orders without a word. A
 * tx id already recorded on another order or withdrawal of the same network is refused with
 * `duplicate-tx-id` naming them, until the operator says to record it anyway (decision 044).
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

const COMPLETE = `mutation ($id: uuid!, $tx: String!, $allow: Boolean) {
  completeExchange(transactionId: $id, payoutTxId: $tx, allowDuplicateTxId: $allow) { status }
}`;
const PROCESS = `mutation ($id: uuid!, $tx: String, $allow: Boolean) {
  processBonusWithdrawal(
    withdrawalId: $id, outcome: "paid", payoutTxId: $tx, allowDuplicateTxId: $allow
  ) { status }
}`;

describe('normalizeTxId', () => {
  it('trims, and lower-cases hexadecimal ids only', () => {
    expect(normalizeTxId('  0xABCdef12 ')).toBe('0xabcdef12');
    expect(normalizeTxId('A1075DB5')).toBe('a1075db5');
    // base58 (Solana, ...) is case-sensitive: kept as typed.
    expect(normalizeTxId(' 5VfYgZ9Qk ')).toBe('5VfYgZ9Qk');
  });
});

describe.each(databaseTargets)('duplicate payout tx ids on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const alice = randomUUID();
  const staffId = randomUUID();
  const staff: Caller = { userId: staffId, role: 'manager' };

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, staff: staffId });
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  const errorOf = (body: GraphqlBody) => body.errors?.[0]?.extensions;

  /** A paid order paying out in `to`. */
  async function paidOrder(to: string): Promise<{ id: string; number: string }> {
    const wallet = to === 'USDTTRC20' ? TRC20_ADDRESS : ETH_ADDRESS;
    const { rows } = await db.pool.query<{ id: string; number: string }>(
      `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                 receive_amount, rate, email, full_name, wallet_address, reason)
       VALUES ($1, 'BTC', $2, 1, 2, 2, 'alice@example.com', 'Alice', $3, 'Savings')
       RETURNING id, number::text AS number`,
      [alice, to, wallet],
    );
    const order = rows[0]!;
    await db.pool.query(
      `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = $2 WHERE id = $1`,
      [order.id, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    );
    await db.pool.query(`UPDATE transactions SET status = 'paid' WHERE id = $1`, [order.id]);
    return order;
  }

  async function payoutOf(id: string): Promise<string | null> {
    const { rows } = await db.pool.query<{ payout_tx_id: string | null }>(
      'SELECT payout_tx_id FROM transactions WHERE id = $1',
      [id],
    );
    return rows[0]!.payout_tx_id;
  }

  it('refuses a payout id already on another order of the network, names it, records it when allowed', async () => {
    const tx = `0x${randomUUID().replaceAll('-', '')}`;
    const first = await paidOrder('USDTTRC20');
    expect(errorOf(await stack.graphql(COMPLETE, { id: first.id, tx }, staff))).toBeUndefined();

    // The same id in another case and with spaces is the same hex id.
    const second = await paidOrder('USDTTRC20');
    const refused = await stack.graphql(
      COMPLETE,
      { id: second.id, tx: `  ${tx.toUpperCase().replace('0X', '0x')} ` },
      staff,
    );
    expect(errorOf(refused)).toMatchObject({
      code: 'duplicate-tx-id',
      network: 'TRC20',
      duplicates: [{ kind: 'order', id: first.id, number: first.number, field: 'payout' }],
    });
    expect(await payoutOf(second.id)).toBeNull();

    // On purpose (a batch payout): recorded, and a third names both.
    const allowed = await stack.graphql(COMPLETE, { id: second.id, tx, allow: true }, staff);
    expect(errorOf(allowed)).toBeUndefined();
    expect(await payoutOf(second.id)).toBe(tx);
    const third = await paidOrder('USDTTRC20');
    const again = errorOf(await stack.graphql(COMPLETE, { id: third.id, tx }, staff));
    expect(again?.['code']).toBe('duplicate-tx-id');
    expect((again?.['duplicates'] as Array<{ id: string }>).map((each) => each.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );
  });

  it('compares per network, and non-hex ids with their case', async () => {
    const tx = `Batch-${randomUUID()}`;
    const trc20 = await paidOrder('USDTTRC20');
    expect(errorOf(await stack.graphql(COMPLETE, { id: trc20.id, tx }, staff))).toBeUndefined();
    // Another network: not the same transaction.
    const erc20 = await paidOrder('USDTERC20');
    expect(errorOf(await stack.graphql(COMPLETE, { id: erc20.id, tx }, staff))).toBeUndefined();
    // Not hexadecimal: another case is another id.
    const other = await paidOrder('USDTTRC20');
    expect(
      errorOf(await stack.graphql(COMPLETE, { id: other.id, tx: tx.toLowerCase() }, staff)),
    ).toBeUndefined();
  });

  it("refuses a withdrawal's payout id already on a TRC20 order, until allowed", async () => {
    const tx = randomUUID().replaceAll('-', '');
    const order = await paidOrder('USDTTRC20');
    expect(errorOf(await stack.graphql(COMPLETE, { id: order.id, tx }, staff))).toBeUndefined();
    // A pending withdrawal, written directly (the balance rules are affiliate.test.ts's).
    await db.pool.query('ALTER TABLE bonus_withdrawals DISABLE TRIGGER USER');
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO bonus_withdrawals (user_id, amount_usdt, wallet_address)
       VALUES ($1, 100, $2) RETURNING id`,
      [alice, TRC20_ADDRESS],
    );
    await db.pool.query('ALTER TABLE bonus_withdrawals ENABLE TRIGGER USER');
    const withdrawal = rows[0]!.id;
    expect(errorOf(await stack.graphql(PROCESS, { id: withdrawal, tx }, staff))).toMatchObject({
      code: 'duplicate-tx-id',
      duplicates: [{ kind: 'order', id: order.id, number: order.number }],
    });
    const allowed = await stack.graphql(PROCESS, { id: withdrawal, tx, allow: true }, staff);
    expect(errorOf(allowed)).toBeUndefined();
    // And the order side sees the withdrawal.
    const next = await paidOrder('USDTTRC20');
    const refused = errorOf(await stack.graphql(COMPLETE, { id: next.id, tx }, staff));
    expect(refused?.['duplicates']).toEqual(
      expect.arrayContaining([{ kind: 'withdrawal', id: withdrawal }]),
    );
  });
});

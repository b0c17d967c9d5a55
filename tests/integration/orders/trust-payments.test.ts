import { describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';

import {
  BTC_ADDRESS,
  COMPLETE,
  CONFIRM,
  HOLD,
  MINE,
  MINUTE,
  OTHER_BTC_ADDRESS,
  REFUNDED,
  RELEASE,
  RESOLVE,
  TRC20_ADDRESS,
} from './trust-documents.ts';
import { useTrustWorld } from './trust-harness.ts';

/*
 * Issue 10's payment paths through the real engine and actions service (decision 015): holds,
 * underpayment and overpayment, and refunds.
 */

describe.each(databaseTargets)('order trust paths on $name', (target) => {
  const world = useTrustWorld(target);
  const { clock, alice, bob, staff, graphql, ok, refused, order, awaitingPayment, runDeadlines } =
    world;

  it('holds a payment for review, then releases it to paid and on to completed', async () => {
    const id = await awaitingPayment();
    expect(await refused(graphql(HOLD, { id, category: 'because' }, staff))).toMatchObject({
      code: 'invalid-input',
    });
    expect(await refused(graphql(HOLD, { id, category: 'aml_review' }, alice))).toBeDefined();
    expect((await order(id))['status']).toBe('waiting_for_payment');

    await ok(graphql(HOLD, { id, category: 'source_of_funds' }, staff));
    const held = await order(id);
    expect(held).toMatchObject({
      status: 'on_hold',
      hold_category: 'source_of_funds',
      received_amount: '0.01500000',
    });
    const mine = await ok(graphql(MINE, { id }, alice));
    expect(mine['transactions_by_pk']).toMatchObject({
      status: 'on_hold',
      hold_category: 'source_of_funds',
    });

    await ok(graphql(RELEASE, { id, outcome: 'release' }, staff));
    expect(await order(id)).toMatchObject({ status: 'paid', hold_category: null });
    await ok(graphql(COMPLETE, { id, tx: 'payout-tx-1' }, staff));
    expect((await order(id))['status']).toBe('completed');
  });

  it('a released hold of a different or late amount still asks the user, never pays out the locked figures', async () => {
    const short = await awaitingPayment();
    await ok(
      graphql(
        `
          mutation ($id: uuid!) {
            holdOrder(transactionId: $id, category: "aml_review", receivedAmount: "0.01") {
              id
            }
          }
        `,
        { id: short },
        staff,
      ),
    );
    await ok(graphql(RELEASE, { id: short, outcome: 'release' }, staff));
    expect(await order(short)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'underpaid',
    });

    const late = await awaitingPayment();
    clock.shift = 31 * MINUTE;
    await runDeadlines();
    clock.shift = 0;
    await ok(graphql(HOLD, { id: late, category: 'aml_review' }, staff));
    await ok(graphql(RELEASE, { id: late, outcome: 'release' }, staff));
    expect(await order(late)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'late_payment',
    });
  });

  it('underpaid: the user chooses a refund to a valid address, staff send it, the order is refunded', async () => {
    const id = await awaitingPayment();
    await ok(graphql(CONFIRM, { id, received: '0.01' }, staff));
    expect(await order(id)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'underpaid',
      received_amount: '0.01',
    });

    // Bad input changes nothing.
    expect(
      await refused(graphql(RESOLVE, { id, choice: 'refund', address: TRC20_ADDRESS }, alice)),
    ).toMatchObject({ code: 'invalid-input', field: 'refundAddress' });
    expect(await refused(graphql(RESOLVE, { id, choice: 'refund' }, alice))).toMatchObject({
      code: 'invalid-input',
    });
    expect(await refused(graphql(RESOLVE, { id, choice: 'maybe' }, alice))).toMatchObject({
      code: 'invalid-input',
    });
    // Only the owner decides.
    expect(
      await refused(graphql(RESOLVE, { id, choice: 'refund', address: BTC_ADDRESS }, bob)),
    ).toMatchObject({ code: 'not-found' });
    expect((await order(id))['status']).toBe('needs_user_action');

    await ok(graphql(RESOLVE, { id, choice: 'refund', address: BTC_ADDRESS }, alice));
    expect(await order(id)).toMatchObject({
      status: 'refund_in_progress',
      refund_address: BTC_ADDRESS,
      action_reason: null,
    });
    // The address is fixed while the refund is under way.
    await expect(
      world.db.pool.query(`UPDATE transactions SET refund_address = $2 WHERE id = $1`, [
        id,
        OTHER_BTC_ADDRESS,
      ]),
    ).rejects.toThrow(/refund address/);

    expect(await refused(graphql(REFUNDED, { id, tx: 'r-1' }, alice))).toBeDefined();
    await ok(graphql(REFUNDED, { id, tx: 'refund-tx-42' }, staff));
    expect(await order(id)).toMatchObject({ status: 'refunded', refund_tx_id: 'refund-tx-42' });
    const mine = await ok(graphql(MINE, { id }, alice));
    expect(mine['transactions_by_pk']).toMatchObject({
      status: 'refunded',
      refund_tx_id: 'refund-tx-42',
    });
    // Refunded is final.
    expect(await refused(graphql(REFUNDED, { id, tx: 'again' }, staff))).toMatchObject({
      code: 'invalid-transition',
    });
  });

  it('overpaid: the user continues at the current rate with the amount that arrived', async () => {
    const id = await awaitingPayment();
    const locked = await order(id);
    await ok(graphql(CONFIRM, { id, received: '0.02' }, staff));
    expect(await order(id)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'overpaid',
    });
    await ok(graphql(RESOLVE, { id, choice: 'continue' }, alice));
    const settled = await order(id);
    expect(settled['status']).toBe('paid');
    // The quote of 0.02 BTC now, through the quote action itself.
    const quote = await ok(
      graphql(
        `
          query ($input: QuoteInput!) {
            quote(input: $input) {
              receiveAmount
              rate
            }
          }
        `,
        { input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.02' } },
        alice,
      ),
    );
    expect(settled['settled_receive_amount']).toBe(
      (quote['quote'] as { receiveAmount: string }).receiveAmount,
    );
    expect(settled['settled_rate']).toBe((quote['quote'] as { rate: string }).rate);
    // The locked terms stay as they were.
    expect(settled['receive_amount']).toBe(locked['receive_amount']);
    await ok(graphql(COMPLETE, { id, tx: 'payout-tx-2' }, staff));
  });

  it('a refused hold asks the user for a refund address and offers no way to continue', async () => {
    const id = await awaitingPayment();
    await ok(graphql(HOLD, { id, category: 'sanctions_screening' }, staff));
    await ok(graphql(RELEASE, { id, outcome: 'refund' }, staff));
    expect(await order(id)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'refund_required',
    });
    expect(await refused(graphql(RESOLVE, { id, choice: 'continue' }, alice))).toMatchObject({
      code: 'refund-required',
    });
    await ok(graphql(RESOLVE, { id, choice: 'refund', address: BTC_ADDRESS }, alice));
    expect((await order(id))['status']).toBe('refund_in_progress');

    // With a refund address given at creation, a refused hold goes straight to the refund.
    const upfront = await awaitingPayment({ refundAddress: BTC_ADDRESS });
    await ok(graphql(HOLD, { id: upfront, category: 'aml_review' }, staff));
    await ok(graphql(RELEASE, { id: upfront, outcome: 'refund' }, staff));
    expect(await order(upfront)).toMatchObject({
      status: 'refund_in_progress',
      refund_address: BTC_ADDRESS,
    });
  });
});

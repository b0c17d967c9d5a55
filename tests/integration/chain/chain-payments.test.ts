import { randomBytes, randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';

import { databaseTargets } from '../../support/databases.ts';
import { ACTIONS_SECRET } from '../actions/harness.ts';
import {
  BTC_ADDRESS,
  CONFIRM,
  cryptoPair,
  until,
  useNotificationsWorld,
} from '../notifications/notifications-world.ts';

/*
 * A payment a chain watcher saw, through the real parts (issue 25, decision 052): the watcher's
 * row in public.chain_payments reaches its confirmations, the engine's event trigger posts it to
 * the actions service, and the order moves on confirmPayment's rule, recorded as the
 * watcher's. Rows are written as the watcher writes them (plain SQL, no session).
 */

const txHash = () => randomBytes(32).toString('hex');

describe.each(databaseTargets)('payments seen on-chain on $name', (target) => {
  const world = useNotificationsWorld(target);

  /** An order of `pair` waiting for its payment at a fresh deposit address. */
  async function waitingOrder(pair = cryptoPair, email = `chain-${randomUUID()}@example.com`) {
    const order = await world.insertOrder({ email, locale: 'en', pair });
    await world.giveRequisites(order.id, 'crypto');
    const { rows } = await world.db.pool.query<{ address: string }>(
      'SELECT deposit_address AS address FROM transactions WHERE id = $1',
      [order.id],
    );
    return { ...order, address: rows[0]!.address };
  }

  /** What a watcher writes when it first sees a transfer: state seen, 0 or more confirmations. */
  async function seen(options: {
    orderId: string | null;
    address: string;
    amount: string;
    currency?: string;
    network?: string;
    required?: number;
  }) {
    const { rows } = await world.db.pool.query<{ id: string }>(
      `INSERT INTO chain_payments (network, tx_hash, output_index, currency_code, to_address, amount,
                                   block_number, block_hash, confirmations, confirmations_required,
                                   transaction_id)
       VALUES ($1, $2, 0, $3, $4, $5, 100, $6, 1, $7, $8) RETURNING id`,
      [
        options.network ?? 'BTC',
        txHash(),
        options.currency ?? 'BTC',
        options.address,
        options.amount,
        txHash(),
        options.required ?? 2,
        options.orderId,
      ],
    );
    return rows[0]!.id;
  }

  async function confirm(paymentId: string) {
    await world.db.pool.query(
      `UPDATE chain_payments SET state = 'confirmed', confirmations = confirmations_required,
              confirmed_at = now() WHERE id = $1`,
      [paymentId],
    );
  }

  const payment = async (id: string) =>
    (
      await world.db.pool.query<{ outcome: string | null; applied: boolean }>(
        'SELECT outcome, applied_at IS NOT NULL AS applied FROM chain_payments WHERE id = $1',
        [id],
      )
    ).rows[0]!;

  const appliedOutcome = (id: string) =>
    until(async () => (await payment(id)).outcome ?? undefined, `payment ${id} applied`);

  const order = async (id: string) =>
    (
      await world.db.pool.query<{
        status: string;
        received: string | null;
        reason: string | null;
      }>(
        `SELECT status, received_amount::text AS received, action_reason AS reason
           FROM transactions WHERE id = $1`,
        [id],
      )
    ).rows[0]!;

  const history = async (id: string) =>
    (
      await world.db.pool.query<{ to: string; source: string | null; by: string | null }>(
        `SELECT to_status AS to, source, changed_by AS by FROM transaction_status_history
          WHERE transaction_id = $1 ORDER BY id`,
        [id],
      )
    ).rows;

  it('moves an order paid exactly to paid at its confirmations, recorded as the watcher', async () => {
    const { id, address } = await waitingOrder();
    const paymentId = await seen({ orderId: id, address, amount: '0.02' });
    // Seen but not confirmed: the order waits.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await order(id)).status).toBe('waiting_for_payment');
    expect(await payment(paymentId)).toEqual({ outcome: null, applied: false });

    await confirm(paymentId);
    expect(await appliedOutcome(paymentId)).toBe('paid');
    expect(await order(id)).toEqual({ status: 'paid', received: '0.02', reason: null });
    expect((await history(id)).at(-1)).toEqual({ to: 'paid', source: 'watcher:BTC', by: null });
    // Staff's earlier step has no source: only the watcher's does.
    expect((await history(id)).at(-2)).toMatchObject({ to: 'waiting_for_payment', source: null });
  });

  it('asks the user when the amount is short, or arrives after the order expired', async () => {
    const short = await waitingOrder();
    const shortPayment = await seen({ orderId: short.id, address: short.address, amount: '0.015' });
    await confirm(shortPayment);
    expect(await appliedOutcome(shortPayment)).toBe('needs_user_action');
    expect(await order(short.id)).toEqual({
      status: 'needs_user_action',
      received: '0.015',
      reason: 'underpaid',
    });

    const late = await waitingOrder();
    await world.move(late.id, `status = 'expired'`);
    const latePayment = await seen({ orderId: late.id, address: late.address, amount: '0.02' });
    await confirm(latePayment);
    expect(await appliedOutcome(latePayment)).toBe('needs_user_action');
    expect(await order(late.id)).toMatchObject({
      status: 'needs_user_action',
      reason: 'late_payment',
    });
    expect((await history(late.id)).at(-1)).toMatchObject({ source: 'watcher:BTC' });
  });

  it('asks for a refund address when another currency of the network arrived', async () => {
    const pair = {
      from: 'USDTTRC20',
      to: 'BTC',
      send: '500',
      receive: '0.005',
      wallet: BTC_ADDRESS,
    };
    const { id, address } = await waitingOrder(pair);
    const paymentId = await seen({
      orderId: id,
      address,
      amount: '500',
      currency: 'TRX',
      network: 'TRC20',
      required: 19,
    });
    await confirm(paymentId);
    expect(await appliedOutcome(paymentId)).toBe('needs_user_action');
    // The order's received amount is in its own currency: TRX is not recorded there.
    expect(await order(id)).toEqual({
      status: 'needs_user_action',
      received: null,
      reason: 'refund_required',
    });
    expect((await history(id)).at(-1)).toMatchObject({ source: 'watcher:TRC20' });
  });

  it('moves nothing when the network is switched off, the order already paid, or no order is paid', async () => {
    await world.db.pool.query(
      `UPDATE chain_networks SET automation_enabled = false WHERE network = 'BTC'`,
    );
    try {
      const off = await waitingOrder();
      const offPayment = await seen({ orderId: off.id, address: off.address, amount: '0.02' });
      await confirm(offPayment);
      expect(await appliedOutcome(offPayment)).toBe('automation_off');
      expect((await order(off.id)).status).toBe('waiting_for_payment');
    } finally {
      await world.db.pool.query(
        `UPDATE chain_networks SET automation_enabled = true WHERE network = 'BTC'`,
      );
    }

    // Staff confirmed by hand first; the watcher's confirmation then finds the order paid.
    const byHand = await waitingOrder();
    await world.graphql(CONFIRM, { id: byHand.id }, world.staff);
    const second = await seen({ orderId: byHand.id, address: byHand.address, amount: '0.02' });
    await confirm(second);
    expect(await appliedOutcome(second)).toBe('order_not_waiting');
    expect((await history(byHand.id)).filter((row) => row.to === 'paid')).toEqual([
      { to: 'paid', source: null, by: world.staff.userId },
    ]);

    const stray = await seen({ orderId: null, address: 'bc1qstray000000000000000', amount: '0.1' });
    await confirm(stray);
    expect(await appliedOutcome(stray)).toBe('no_order');
  });

  it('applies a payment once, however often its event is delivered', async () => {
    const { id, address } = await waitingOrder();
    const paymentId = await seen({ orderId: id, address, amount: '0.02' });
    await confirm(paymentId);
    expect(await appliedOutcome(paymentId)).toBe('paid');
    // The same event again (a lost response, a second engine), and a manual redelivery.
    const again = async () => {
      const response = await fetch(`${world.stack.actionsUrl}/events/chain_payment_confirmed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SECRET_HEADER]: ACTIONS_SECRET },
        body: JSON.stringify({
          id: randomUUID(),
          trigger: { name: 'chain_payment_confirmed' },
          table: { schema: 'public', name: 'chain_payments' },
          event: { op: 'MANUAL', data: { old: null, new: { id: paymentId, state: 'confirmed' } } },
        }),
      });
      expect(response.status).toBe(200);
      return response.json();
    };
    const answers = await Promise.all([again(), again(), again()]);
    expect(answers).toEqual(
      Array(3).fill({ status: 'applied', applied: false, reason: 'already-applied' }),
    );
    expect((await history(id)).filter((row) => row.to === 'paid')).toHaveLength(1);
  });

  it('refuses to undo a confirmed payment or change what a transfer was', async () => {
    const { id, address } = await waitingOrder();
    const paymentId = await seen({ orderId: id, address, amount: '0.02' });
    await expect(
      world.db.pool.query(`UPDATE chain_payments SET amount = 0.03 WHERE id = $1`, [paymentId]),
    ).rejects.toThrow(/the transfer itself cannot change/);
    await confirm(paymentId);
    await appliedOutcome(paymentId);
    await expect(
      world.db.pool.query(`UPDATE chain_payments SET state = 'dropped' WHERE id = $1`, [paymentId]),
    ).rejects.toThrow(/a confirmed payment cannot be undone/);
    await expect(
      world.db.pool.query(`UPDATE chain_payments SET outcome = 'no_order' WHERE id = $1`, [
        paymentId,
      ]),
    ).rejects.toThrow(/outcome was already recorded/);
    // Below its confirmations a transfer may still be dropped (a re-org took it).
    const other = await waitingOrder();
    const dropped = await seen({ orderId: other.id, address: other.address, amount: '0.02' });
    await world.db.pool.query(
      `UPDATE chain_payments SET state = 'dropped', block_number = NULL, block_hash = NULL WHERE id = $1`,
      [dropped],
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await order(other.id)).status).toBe('waiting_for_payment');
  });

  it("shows the order's owner their payments, and nobody else's", async () => {
    const email = `owner-${randomUUID()}@example.com`;
    const mine = await waitingOrder(cryptoPair, email);
    const paymentId = await seen({ orderId: mine.id, address: mine.address, amount: '0.02' });
    const owner = await world.customer(email);
    const query = `query ($id: uuid!) {
      transactions_by_pk(id: $id) {
        chain_payments { id tx_hash amount confirmations confirmations_required state network }
      }
      chain_payments { id }
    }`;
    const data = (await world.graphql(query, { id: mine.id }, owner)) as {
      transactions_by_pk: { chain_payments: Array<Record<string, unknown>> };
      chain_payments: Array<{ id: string }>;
    };
    expect(data.transactions_by_pk.chain_payments).toEqual([
      {
        id: paymentId,
        tx_hash: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
        amount: '0.02',
        confirmations: 1,
        confirmations_required: 2,
        state: 'seen',
        network: 'BTC',
      },
    ]);
    expect(data.chain_payments.map((row) => row.id)).toEqual([paymentId]);

    const stranger = await world.customer(`stranger-${randomUUID()}@example.com`);
    const theirs = (await world.graphql('{ chain_payments { id } }', {}, stranger)) as {
      chain_payments: unknown[];
    };
    expect(theirs.chain_payments).toEqual([]);
  });
});

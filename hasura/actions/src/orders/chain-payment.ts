import type pg from 'pg';

import { lockOrder, PAYABLE, recordPayment, updated } from './lifecycle.ts';

/*
 * A payment a chain watcher saw reached its currency's confirmations (issue 25, decision 052).
 * The watcher only writes what it saw (public.chain_payments); this is where the order moves,
 * on the same rule as staff's confirmPayment, in one transaction:
 *
 * - the amount comes from the payment's row, never from the caller;
 * - a payment already applied, or not (or no longer) confirmed, changes nothing: the event
 *   that brings it here is delivered at least once, by any engine, and may come again;
 * - the order moves only while it waits for a payment (or has expired: a late payment), only
 *   when the network's automation is on, and is recorded in its history as
 *   `watcher:<network>`;
 * - the wrong currency to the address (USDC sent to a USDT order) cannot be settled at the
 *   order's figures, so the user is asked for a refund address (refund_required).
 *
 * Whatever happens is written on the payment (`outcome`), so staff see why an order did or did
 * not move.
 */

export type ChainPaymentOutcome =
  'paid' | 'needs_user_action' | 'automation_off' | 'order_not_waiting' | 'no_order';

export type ApplyResult =
  | { applied: true; outcome: ChainPaymentOutcome; orderStatus: string | null }
  | { applied: false; reason: 'no-such-payment' | 'not-confirmed' | 'already-applied' };

interface PaymentRow {
  id: string;
  network: string;
  currency: string;
  amount: string;
  state: string;
  transactionId: string | null;
  outcome: string | null;
  automation: boolean;
}

export async function applyChainPayment(pool: pg.Pool, paymentId: string): Promise<ApplyResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await applyLocked(client, paymentId);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function applyLocked(client: pg.PoolClient, paymentId: string): Promise<ApplyResult> {
  // The order first, then the payment: the same order as staff's confirmPayment takes the
  // order's lock, so the two never wait on each other the other way round.
  const { rows: found } = await client.query<{ transactionId: string | null }>(
    'SELECT transaction_id AS "transactionId" FROM public.chain_payments WHERE id = $1',
    [paymentId],
  );
  if (!found[0]) return { applied: false, reason: 'no-such-payment' };
  const order = found[0].transactionId
    ? await lockOrder(client, found[0].transactionId)
    : undefined;

  const { rows } = await client.query<PaymentRow>(
    `SELECT p.id, p.network, p.currency_code AS currency, p.amount::text AS amount, p.state,
            p.transaction_id AS "transactionId", p.outcome,
            n.automation_enabled AS automation
       FROM public.chain_payments p JOIN public.chain_networks n ON n.network = p.network
      WHERE p.id = $1
        FOR UPDATE OF p`,
    [paymentId],
  );
  const payment = rows[0];
  if (!payment) return { applied: false, reason: 'no-such-payment' };
  if (payment.state !== 'confirmed') return { applied: false, reason: 'not-confirmed' };
  if (payment.outcome !== null) return { applied: false, reason: 'already-applied' };

  let outcome: ChainPaymentOutcome;
  let orderStatus: string | null = order?.status ?? null;
  if (!order) {
    outcome = 'no_order';
  } else if (!(PAYABLE as readonly string[]).includes(order.status)) {
    outcome = 'order_not_waiting';
  } else if (!payment.automation) {
    outcome = 'automation_off';
  } else {
    await client.query("SELECT set_config('app.status_source', $1, true)", [
      `watcher:${payment.network}`,
    ]);
    const moved =
      payment.currency === order.sendCurrency
        ? await recordPayment(client, order, payment.amount)
        : await updated(
            client,
            `UPDATE public.transactions
                SET status = 'needs_user_action', action_reason = 'refund_required'
              WHERE id = $1`,
            [order.id],
          );
    await client.query("SELECT set_config('app.status_source', '', true)");
    outcome = moved.status === 'paid' ? 'paid' : 'needs_user_action';
    orderStatus = moved.status;
  }
  await client.query(
    'UPDATE public.chain_payments SET outcome = $2, applied_at = now() WHERE id = $1',
    [payment.id, outcome],
  );
  return { applied: true, outcome, orderStatus };
}

import type pg from 'pg';

import {
  HOLD_CATEGORIES,
  isHoldCategory,
  type OrderStatus as Status,
} from '@app/shared/orders/vocabulary';
import { Dec } from '@app/shared/quote';

import { inSession } from '../db/session.ts';
import {
  invalidInput,
  optionalText,
  requiredText,
  requiredUuid,
  text,
  uuidArgument,
} from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';
import { requireStaff, requireUser } from '../http/roles.ts';

import { amountArgument } from './amount-argument.ts';
import { serverQuote } from './quote.ts';
import { guardTxId, networkOf } from './tx-duplicates.ts';

/** What every lifecycle action answers (`ExchangeStatusOutput`). */
export interface OrderStatus {
  id: string;
  number: string;
  status: string;
}

/** The locked row, as the steps need it. */
export interface LockedOrder extends OrderStatus {
  userId: string;
  sendCurrency: string;
  receiveCurrency: string;
  sendAmount: string;
  receiveAmount: string;
  rate: string;
  receivedAmount: string | null;
  refundAddress: string | null;
  actionReason: string | null;
  requisitesDueAt: Date;
  requoted: boolean;
}

const RETURNING = 'RETURNING id, number::text AS number, status';

export function requireStatus(order: LockedOrder, allowed: readonly Status[], step: string): void {
  if (!(allowed as readonly string[]).includes(order.status)) {
    throw new ActionFailure(
      'invalid-transition',
      `Order ${order.number} is ${order.status}; it cannot be ${step}.`,
      400,
      { status: order.status },
    );
  }
}

/**
 * Runs one step on one order: in a transaction, with the session as the engine sets it (the
 * status history records the acting user), the order row locked so that concurrent steps see
 * each other's result. `ownerId` limits the order to one user's; another's answers not-found.
 */
export async function onLockedOrder(
  options: ActionContext,
  ownerId: string | null,
  step: (client: pg.PoolClient, order: LockedOrder) => Promise<OrderStatus>,
): Promise<OrderStatus> {
  const id = requiredUuid(options.input, 'transactionId');
  return inSession(options.pool, options.sessionVariables, async (client) => {
    const order = await lockOrder(client, id, ownerId);
    if (!order) throw new ActionFailure('not-found', 'No such order.', 404);
    return step(client, order);
  });
}

/** Locks one order (one user's, when `ownerId` is given) for the rest of the transaction. */
export async function lockOrder(
  client: pg.PoolClient,
  id: string,
  ownerId: string | null = null,
): Promise<LockedOrder | undefined> {
  const { rows } = await client.query<LockedOrder>(
    `SELECT id, number::text AS number, status, user_id AS "userId",
            send_currency AS "sendCurrency", receive_currency AS "receiveCurrency",
            send_amount::text AS "sendAmount", receive_amount::text AS "receiveAmount",
            rate::text AS rate, received_amount::text AS "receivedAmount",
            refund_address AS "refundAddress", action_reason AS "actionReason",
            requisites_due_at AS "requisitesDueAt", requoted_at IS NOT NULL AS requoted
       FROM public.transactions
      WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2::uuid)
        FOR UPDATE`,
    [id, ownerId],
  );
  return rows[0];
}

export async function updated(
  client: pg.PoolClient,
  sql: string,
  params: unknown[],
): Promise<OrderStatus> {
  const { rows } = await client.query<OrderStatus>(`${sql} ${RETURNING}`, params);
  const row = rows[0];
  if (!row) throw new Error('the locked order was not updated');
  return row;
}

/** `cancelExchange`: the owner cancels an order nobody has been paid for yet. */
export async function cancelExchange(options: ActionContext): Promise<OrderStatus> {
  const { caller } = options;
  requireUser(caller, 'Only a signed-in user can cancel an order.');
  return onLockedOrder(options, caller.userId, async (client, order) => {
    requireStatus(order, ['waiting_for_operator', 'waiting_for_payment'], 'canceled');
    return updated(
      client,
      `UPDATE public.transactions SET status = 'canceled', canceled_by = 'user' WHERE id = $1`,
      [order.id],
    );
  });
}

/**
 * `supplyRequisites`: staff tell the user where to pay, either a deposit address (and memo) or
 * one of the service's active bank accounts in the order's send currency, with a unique
 * payment reference derived from the order number. Given after `requisites_due_at`, the order
 * is re-quoted and keeps the better receive amount for the user (decision 015).
 */
export async function supplyRequisites(
  options: ActionContext & { maxRateAgeSeconds: number },
): Promise<OrderStatus> {
  requireStaff(options.caller);
  const { input } = options;
  const depositAddress = text(input['depositAddress']);
  const depositMemo = optionalText(input, 'depositMemo', 64);
  const bankAccountId = uuidArgument(input, 'bankAccountId');
  if ((depositAddress === undefined) === (bankAccountId === undefined)) {
    throw invalidInput(
      'Give exactly one of depositAddress or bankAccountId.',
      depositAddress === undefined ? 'depositAddress' : 'bankAccountId',
    );
  }
  if (depositAddress !== undefined && (depositAddress.length < 10 || depositAddress.length > 128))
    throw invalidInput('depositAddress: expected 10 to 128 characters.', 'depositAddress');
  if (depositMemo !== undefined && depositAddress === undefined)
    throw invalidInput('depositMemo goes with a deposit address.', 'depositMemo');

  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['waiting_for_operator'], 'given requisites');
    const requote = await betterRequote(client, order, options);
    let requisites: { sql: string; params: unknown[] };
    if (depositAddress !== undefined) {
      requisites = {
        sql: 'deposit_address = $2, deposit_memo = $3',
        params: [depositAddress, depositMemo ?? null],
      };
    } else {
      // Locked too, so it cannot be deactivated between the check and the update.
      const { rows } = await client.query<{ currency: string; active: boolean }>(
        `SELECT currency_code AS currency, is_active AS active FROM public.bank_accounts
          WHERE id = $1 FOR SHARE`,
        [bankAccountId],
      );
      const account = rows[0];
      if (!account) throw invalidInput('No such bank account.', 'bankAccountId');
      if (!account.active) throw invalidInput('The bank account is not active.', 'bankAccountId');
      if (account.currency !== order.sendCurrency) {
        throw invalidInput(
          `The bank account is in ${account.currency}; the order is paid in ${order.sendCurrency}.`,
          'bankAccountId',
        );
      }
      requisites = {
        sql: 'bank_account_id = $2, payment_reference = $3',
        params: [bankAccountId, `EX-${order.number}`],
      };
    }
    return updated(
      client,
      `UPDATE public.transactions
          SET status = 'waiting_for_payment', ${requisites.sql},
              receive_amount = COALESCE($4::numeric, receive_amount),
              rate = COALESCE($5::numeric, rate),
              quoted_receive_amount = CASE WHEN $4::numeric IS NULL THEN NULL ELSE receive_amount END,
              quoted_rate = CASE WHEN $4::numeric IS NULL THEN NULL ELSE rate END,
              requoted_at = CASE WHEN $4::numeric IS NULL THEN NULL ELSE $6::timestamptz END
        WHERE id = $1`,
      [
        order.id,
        ...requisites.params,
        requote?.receive ?? null,
        requote?.rate ?? null,
        options.now.toISOString(),
      ],
    );
  });
}

/**
 * The service's own delay must not cost the user: requisites given after the promised time
 * re-quote the same send amount at the order owner's current rate, and the order takes the new
 * figures only when they give the user more. A quote that cannot be made now (stale rates, a
 * limit moved) leaves the locked figures, which are never worse for the user.
 */
async function betterRequote(
  client: pg.PoolClient,
  order: LockedOrder,
  options: { now: Date; maxRateAgeSeconds: number },
): Promise<{ receive: string; rate: string } | null> {
  if (order.requoted || options.now.getTime() <= order.requisitesDueAt.getTime()) return null;
  try {
    const { quote } = await serverQuote(client, {
      from: order.sendCurrency,
      to: order.receiveCurrency,
      side: 'send',
      amount: order.sendAmount,
      userId: order.userId,
      now: options.now,
      maxRateAgeSeconds: options.maxRateAgeSeconds,
    });
    return new Dec(quote.receive).gt(order.receiveAmount)
      ? { receive: quote.receive, rate: quote.rate }
      : null;
  } catch (error) {
    if (error instanceof ActionFailure) return null;
    throw error;
  }
}

/**
 * `confirmPayment`: staff saw the user's payment arrive, optionally saying how much arrived
 * (`receivedAmount`, default the order's send amount). The agreed amount in time moves the
 * order to paid; a different amount, or any payment on an expired order, asks the user to
 * choose (needs_user_action: underpaid, overpaid, late_payment).
 */
export async function confirmPayment(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  const receivedAmount = amountArgument(options.input, 'receivedAmount');
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, PAYABLE, 'marked paid');
    return recordPayment(client, order, receivedAmount ?? order.sendAmount);
  });
}

/** The statuses in which a payment that arrives is recorded against the order. */
export const PAYABLE: readonly Status[] = ['waiting_for_payment', 'expired'];

/**
 * The rule for a payment that arrived on a locked order in PAYABLE, whoever saw it (staff, or
 * a watcher on the chain): the agreed amount in time moves the order to paid; a different
 * amount, or any payment on an expired order, asks the user to choose (decision 015).
 */
export async function recordPayment(
  client: pg.PoolClient,
  order: LockedOrder,
  received: string,
): Promise<OrderStatus> {
  const comparison = new Dec(received).comparedTo(order.sendAmount);
  const reason =
    order.status === 'expired'
      ? 'late_payment'
      : comparison < 0
        ? 'underpaid'
        : comparison > 0
          ? 'overpaid'
          : null;
  return updated(
    client,
    `UPDATE public.transactions
        SET status = CASE WHEN $3::text IS NULL THEN 'paid' ELSE 'needs_user_action' END,
            received_amount = $2::numeric, action_reason = $3
      WHERE id = $1`,
    [order.id, received, reason],
  );
}

/**
 * `holdOrder`: staff hold the incoming funds for review (spec section 9: AML check on incoming
 * crypto), with the category the user is shown. Recording the amount that arrived is part of
 * holding an unconfirmed payment.
 */
export async function holdOrder(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  const category = requiredText(options.input, 'category', 64);
  if (!isHoldCategory(category)) {
    throw invalidInput(`category: one of ${HOLD_CATEGORIES.join(', ')}.`, 'category');
  }
  const receivedAmount = amountArgument(options.input, 'receivedAmount');
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['waiting_for_payment', 'paid', 'expired'], 'held');
    return updated(
      client,
      `UPDATE public.transactions
          SET status = 'on_hold', hold_category = $2,
              received_amount = COALESCE($3::numeric, received_amount, send_amount)
        WHERE id = $1`,
      [order.id, category, receivedAmount ?? null],
    );
  });
}

/**
 * `releaseHold`: the review is over. `release` accepts the funds: on to paid when the agreed
 * amount arrived in time, else the user is asked to choose as for any such payment
 * (underpaid, overpaid, or late_payment when the order had expired before the hold). `refund`
 * returns the funds: straight to refund_in_progress when the user gave a refund address (cash
 * needs none, it is returned at the cash point), else the user is asked for one
 * (refund_required).
 */
export async function releaseHold(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  const outcome = requiredText(options.input, 'outcome', 16);
  if (outcome !== 'release' && outcome !== 'refund')
    throw invalidInput("outcome: 'release' or 'refund'.", 'outcome');
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['on_hold'], outcome === 'release' ? 'released' : 'refunded');
    if (outcome === 'release') {
      const { rows } = await client.query<{ from: string | null }>(
        `SELECT from_status AS from FROM public.transaction_status_history
          WHERE transaction_id = $1 AND to_status = 'on_hold' ORDER BY id DESC LIMIT 1`,
        [order.id],
      );
      const comparison = new Dec(order.receivedAmount ?? order.sendAmount).comparedTo(
        order.sendAmount,
      );
      const reason =
        rows[0]?.from === 'expired'
          ? 'late_payment'
          : comparison < 0
            ? 'underpaid'
            : comparison > 0
              ? 'overpaid'
              : null;
      return updated(
        client,
        `UPDATE public.transactions
            SET status = CASE WHEN $2::text IS NULL THEN 'paid' ELSE 'needs_user_action' END,
                action_reason = $2
          WHERE id = $1`,
        [order.id, reason],
      );
    }
    const { rows } = await client.query<{ kind: string }>(
      'SELECT kind FROM public.currencies WHERE code = $1',
      [order.sendCurrency],
    );
    const addressKnown = order.refundAddress !== null || rows[0]?.kind === 'cash';
    return updated(
      client,
      `UPDATE public.transactions
          SET status = CASE WHEN $2 THEN 'refund_in_progress' ELSE 'needs_user_action' END,
              action_reason = CASE WHEN $2 THEN NULL ELSE 'refund_required' END
        WHERE id = $1`,
      [order.id, addressKnown],
    );
  });
}

/**
 * `completeRefund`: staff sent the refund; its transaction id (or bank reference) is kept. An id
 * already recorded on the send currency's network is refused unless `allowDuplicateTxId`
 * (decision 044).
 */
export async function completeRefund(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  const refundTxId = requiredText(options.input, 'refundTxId', 256);
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['refund_in_progress'], 'marked refunded');
    await guardTxId(
      client,
      options.input,
      await networkOf(client, order.sendCurrency),
      refundTxId,
      {
        orderId: order.id,
      },
    );
    return updated(
      client,
      `UPDATE public.transactions SET status = 'refunded', refund_tx_id = $2 WHERE id = $1`,
      [order.id, refundTxId],
    );
  });
}

/**
 * `completeExchange`: staff sent the payout; its transaction id is recorded. An id already
 * recorded on the payout's network (another order, a withdrawal) is refused with
 * `duplicate-tx-id` naming them unless `allowDuplicateTxId` (decision 044).
 */
export async function completeExchange(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  const payoutTxId = requiredText(options.input, 'payoutTxId', 256);
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['paid'], 'completed');
    const network = await networkOf(client, order.receiveCurrency);
    await guardTxId(client, options.input, network, payoutTxId, { orderId: order.id });
    return updated(
      client,
      `UPDATE public.transactions SET status = 'completed', payout_tx_id = $2 WHERE id = $1`,
      [order.id, payoutTxId],
    );
  });
}

/** `cancelExchangeByStaff`: staff cancel an unpaid order, saying why. */
export async function cancelExchangeByStaff(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  const reason = requiredText(options.input, 'reason', 500);
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['waiting_for_operator', 'waiting_for_payment'], 'canceled');
    return updated(
      client,
      `UPDATE public.transactions
          SET status = 'canceled', canceled_by = 'staff', cancel_reason = $2
        WHERE id = $1`,
      [order.id, reason],
    );
  });
}

import type pg from 'pg';

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

/** What every lifecycle action answers (`ExchangeStatusOutput`). */
export interface OrderStatus {
  id: string;
  number: string;
  status: string;
}

interface LockedOrder extends OrderStatus {
  sendCurrency: string;
}

type Status = 'waiting_for_operator' | 'waiting_for_payment' | 'paid' | 'completed' | 'canceled';

const RETURNING = 'RETURNING id, number::text AS number, status';

function requireStatus(order: LockedOrder, allowed: readonly Status[], step: string): void {
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
async function onLockedOrder(
  options: ActionContext,
  ownerId: string | null,
  step: (client: pg.PoolClient, order: LockedOrder) => Promise<OrderStatus>,
): Promise<OrderStatus> {
  const id = requiredUuid(options.input, 'transactionId');
  return inSession(options.pool, options.sessionVariables, async (client) => {
    const { rows } = await client.query<LockedOrder>(
      `SELECT id, number::text AS number, status, send_currency AS "sendCurrency"
         FROM public.transactions
        WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2::uuid)
          FOR UPDATE`,
      [id, ownerId],
    );
    const order = rows[0];
    if (!order) throw new ActionFailure('not-found', 'No such order.', 404);
    return step(client, order);
  });
}

async function updated(
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
 * payment reference derived from the order number.
 */
export async function supplyRequisites(options: ActionContext): Promise<OrderStatus> {
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
    if (depositAddress !== undefined) {
      return updated(
        client,
        `UPDATE public.transactions
            SET status = 'waiting_for_payment', deposit_address = $2, deposit_memo = $3
          WHERE id = $1`,
        [order.id, depositAddress, depositMemo ?? null],
      );
    }
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
    return updated(
      client,
      `UPDATE public.transactions
          SET status = 'waiting_for_payment', bank_account_id = $2, payment_reference = $3
        WHERE id = $1`,
      [order.id, bankAccountId, `EX-${order.number}`],
    );
  });
}

/** `confirmPayment`: staff saw the user's payment arrive. */
export async function confirmPayment(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['waiting_for_payment'], 'marked paid');
    return updated(client, `UPDATE public.transactions SET status = 'paid' WHERE id = $1`, [
      order.id,
    ]);
  });
}

/** `completeExchange`: staff sent the payout; its transaction id is recorded. */
export async function completeExchange(options: ActionContext): Promise<OrderStatus> {
  requireStaff(options.caller);
  const payoutTxId = requiredText(options.input, 'payoutTxId', 256);
  return onLockedOrder(options, null, async (client, order) => {
    requireStatus(order, ['paid'], 'completed');
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

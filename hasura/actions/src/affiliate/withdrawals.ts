import type pg from 'pg';

import { MIN_WITHDRAWAL_USDT, USDT_AMOUNT } from '@app/shared/forms';

import { inSession } from '../db/session.ts';
import { invalidInput, optionalText, requiredText, requiredUuid, text } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';
import { requireStaff, requireUser } from '../http/roles.ts';
import { guardTxId, WITHDRAWAL_NETWORK } from '../orders/tx-duplicates.ts';
import { isValidAddress } from '../validation/address.ts';

/** Bonuses are paid in USDT on TRC20 (spec section 9, wallet network). */
const PAYOUT_NETWORK = WITHDRAWAL_NETWORK;

/** `BonusWithdrawalOutput`. */
export interface Withdrawal {
  id: string;
  amountUsdt: string;
  walletAddress: string;
  status: string;
  createdAt: string;
  /** What remains to withdraw after this request. */
  availableUsdt: string;
}

/**
 * The withdrawal as the action answers it. A statement of its own: the balance function in a
 * RETURNING clause would still see the table as it was before the change.
 */
async function withdrawalById(client: pg.PoolClient, id: string): Promise<Withdrawal> {
  const { rows } = await client.query<Withdrawal>(
    `SELECT id, amount_usdt::text AS "amountUsdt", wallet_address AS "walletAddress", status,
            to_json(created_at) #>> '{}' AS "createdAt",
            public.affiliate_available_usdt(user_id)::text AS "availableUsdt"
       FROM public.bonus_withdrawals WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

/**
 * `requestBonusWithdrawal`: the signed-in user asks for `amount` USDT of their affiliate
 * balance to `walletAddress` (TRC20). At least 100 USDT and at most the balance; the user's
 * row lock serialises concurrent requests, and the table's trigger checks the balance again.
 */
export async function requestBonusWithdrawal(options: ActionContext): Promise<Withdrawal> {
  const { caller, input } = options;
  requireUser(caller, 'Only a signed-in user can withdraw bonuses.');
  const amount = typeof input['amount'] === 'string' ? input['amount'] : '';
  if (!USDT_AMOUNT.test(amount))
    throw invalidInput('amount: expected a USDT amount with at most 6 decimals.', 'amount');
  const walletAddress = text(input['walletAddress']);
  if (walletAddress === undefined)
    throw invalidInput('walletAddress: The field is required.', 'walletAddress');
  if (!isValidAddress(PAYOUT_NETWORK, walletAddress))
    throw invalidInput('walletAddress: Invalid wallet address for this network', 'walletAddress');

  return inSession(options.pool, options.sessionVariables, async (client) => {
    // Lock first, then read the balance in a statement of its own: under READ COMMITTED a
    // statement that waited for the lock still reads with the snapshot it started with, and
    // would miss the withdrawal committed by the request it waited for.
    const locked = await client.query(
      'SELECT 1 FROM public.portal_users WHERE id = $1 FOR UPDATE',
      [caller.userId],
    );
    if (locked.rowCount === 0) throw new ActionFailure('not-found', 'No such user.', 404);
    const { rows } = await client.query<{ available: string; belowMin: boolean; over: boolean }>(
      `SELECT trim_scale(available)::text AS available,
              $1::numeric < $2::numeric AS "belowMin",
              $1::numeric > available AS over
         FROM public.affiliate_available_usdt($3) AS available`,
      [amount, MIN_WITHDRAWAL_USDT, caller.userId],
    );
    const balance = rows[0]!;
    if (balance.belowMin) {
      throw new ActionFailure(
        'below-minimum',
        `The minimum withdrawal is ${MIN_WITHDRAWAL_USDT} USDT.`,
        400,
        { field: 'amount', minimum: MIN_WITHDRAWAL_USDT },
      );
    }
    if (balance.over) {
      throw new ActionFailure(
        'insufficient-balance',
        `The amount exceeds your available bonus balance of ${balance.available} USDT.`,
        400,
        { field: 'amount', available: balance.available },
      );
    }
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO public.bonus_withdrawals (user_id, amount_usdt, wallet_address)
       VALUES ($1, $2::numeric, $3) RETURNING id`,
      [caller.userId, amount, walletAddress],
    );
    return withdrawalById(client, inserted.rows[0]!.id);
  });
}

/**
 * `processBonusWithdrawal`: staff record the outcome of a pending withdrawal: `paid` with the
 * payout's transaction id, or `rejected` with a reason (the amount returns to the balance). A
 * payout id already recorded on TRC20 (an order's, another withdrawal's) is refused with
 * `duplicate-tx-id` unless `allowDuplicateTxId` (decision 044).
 */
export async function processBonusWithdrawal(options: ActionContext): Promise<Withdrawal> {
  const { caller, input } = options;
  requireStaff(caller);
  const id = requiredUuid(input, 'withdrawalId');
  const outcome = input['outcome'];
  if (outcome !== 'paid' && outcome !== 'rejected')
    throw invalidInput("outcome: expected 'paid' or 'rejected'.", 'outcome');
  const payoutTxId =
    outcome === 'paid'
      ? requiredText(input, 'payoutTxId', 256)
      : optionalText(input, 'payoutTxId', 256);
  const reason =
    outcome === 'rejected'
      ? requiredText(input, 'reason', 500)
      : optionalText(input, 'reason', 500);
  if (outcome === 'rejected' && payoutTxId !== undefined)
    throw invalidInput('payoutTxId goes with a paid withdrawal.', 'payoutTxId');

  return inSession(options.pool, options.sessionVariables, async (client) => {
    const { rows } = await client.query<{ status: string }>(
      'SELECT status FROM public.bonus_withdrawals WHERE id = $1 FOR UPDATE',
      [id],
    );
    const current = rows[0];
    if (!current) throw new ActionFailure('not-found', 'No such withdrawal.', 404);
    if (current.status !== 'pending') {
      throw new ActionFailure(
        'invalid-transition',
        `The withdrawal is already ${current.status}.`,
        400,
        { status: current.status },
      );
    }
    if (payoutTxId !== undefined)
      await guardTxId(client, input, PAYOUT_NETWORK, payoutTxId, { withdrawalId: id });
    await client.query(
      `UPDATE public.bonus_withdrawals
          SET status = $2, payout_tx_id = $3, reject_reason = $4, processed_by = $5
        WHERE id = $1`,
      [id, outcome, payoutTxId ?? null, outcome === 'rejected' ? reason : null, caller.userId],
    );
    return withdrawalById(client, id);
  });
}

import { electronicFormatIBAN, isValidIBAN } from 'ibantools';

import { MEMO_MAX_LENGTH } from '@app/shared/forms';

import { invalidInput, requiredText, text } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';
import { requireUser } from '../http/roles.ts';
import { isValidAddress } from '../validation/address.ts';

import { onLockedOrder, requireStatus, updated, type OrderStatus } from './lifecycle.ts';
import { serverQuote } from './quote.ts';

/**
 * `resolvePaymentIssue`: the owner of an order in needs_user_action decides (decision 015).
 *
 * - `continue`: the amount that arrived is exchanged at the current rate, as a new quote at the
 *   owner's level; the order keeps its locked figures and records the settlement
 *   (`settled_receive_amount`, `settled_rate`), then goes on to paid. Not offered when the funds
 *   must go back (refund_required), and refused when that amount cannot be quoted now (below
 *   the minimum, say): the user can still ask for a refund.
 * - `refund`: to `refundAddress` on the send currency's network (with `refundMemo` where the
 *   network uses one), an IBAN when the user paid by bank, nothing for cash (returned at the
 *   cash point). An address given earlier is used when none is given now.
 */
export async function resolvePaymentIssue(
  options: ActionContext & { maxRateAgeSeconds: number },
): Promise<OrderStatus> {
  const { caller, input } = options;
  requireUser(caller, 'Only the owner of the order can decide.');
  const choice = requiredText(input, 'choice', 16);
  if (choice !== 'continue' && choice !== 'refund')
    throw invalidInput("choice: 'continue' or 'refund'.", 'choice');
  const givenAddress = text(input['refundAddress']);
  const refundMemo = text(input['refundMemo']);
  if (refundMemo !== undefined && refundMemo.length > MEMO_MAX_LENGTH)
    throw invalidInput(
      `refundMemo: at most ${MEMO_MAX_LENGTH} characters.`,
      'refundMemo',
      'too-long',
    );

  return onLockedOrder(options, caller.userId, async (client, order) => {
    requireStatus(order, ['needs_user_action'], 'decided on');
    const received = order.receivedAmount ?? order.sendAmount;

    if (choice === 'continue') {
      if (order.actionReason === 'refund_required') {
        throw new ActionFailure(
          'refund-required',
          'These funds cannot be exchanged after the review; choose a refund.',
          400,
        );
      }
      // ActionFailure (below the minimum, stale rates, ...) reaches the user as it is.
      const { quote } = await serverQuote(client, {
        from: order.sendCurrency,
        to: order.receiveCurrency,
        side: 'send',
        amount: received,
        userId: order.userId,
        now: options.now,
        maxRateAgeSeconds: options.maxRateAgeSeconds,
      });
      return updated(
        client,
        `UPDATE public.transactions
            SET status = 'paid', settled_receive_amount = $2::numeric, settled_rate = $3::numeric
          WHERE id = $1`,
        [order.id, quote.receive, quote.rate],
      );
    }

    const { rows } = await client.query<{ kind: string; network: string | null }>(
      'SELECT kind, network FROM public.currencies WHERE code = $1',
      [order.sendCurrency],
    );
    const currency = rows[0];
    if (!currency) throw new Error(`currency ${order.sendCurrency} of an order is missing`);
    let address: string | null = null;
    if (currency.kind === 'cash') {
      if (givenAddress !== undefined || refundMemo !== undefined)
        throw invalidInput(
          'Cash is returned at the cash point: no address.',
          'refundAddress',
          'not-applicable',
        );
    } else {
      const candidate = givenAddress ?? order.refundAddress ?? undefined;
      if (candidate === undefined)
        throw invalidInput('refundAddress: The field is required', 'refundAddress', 'required');
      if (currency.kind === 'fiat') {
        if (refundMemo !== undefined)
          throw invalidInput('A bank refund has no memo.', 'refundMemo', 'not-applicable');
        const iban = electronicFormatIBAN(candidate);
        if (!iban || !isValidIBAN(iban))
          throw invalidInput('refundAddress: Invalid IBAN', 'refundAddress', 'invalid-iban');
        address = iban;
      } else {
        if (!isValidAddress(currency.network ?? '', candidate))
          throw invalidInput(
            'refundAddress: Invalid wallet address for this network',
            'refundAddress',
            'invalid-wallet-address',
          );
        address = candidate;
      }
    }
    return updated(
      client,
      `UPDATE public.transactions
          SET status = 'refund_in_progress', refund_address = COALESCE($2, refund_address),
              refund_memo = CASE WHEN $2 IS NULL THEN refund_memo ELSE $3 END
        WHERE id = $1`,
      [order.id, address, refundMemo ?? null],
    );
  });
}

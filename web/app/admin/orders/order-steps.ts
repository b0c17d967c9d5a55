import { Dec } from '@app/shared/quote';

import { normalizeAmount, trimZeros } from '@app/shared/exchange';

/*
 * What the operator can do with an order and what it will lead to (decision 015), kept apart
 * from the page so it can be tested: the steps each status offers (exactly the transitions the
 * database allows staff), the late requisites, the time left or overdue, and the amount an
 * operator records as received.
 */

export type Step =
  | 'supply'
  | 'confirm'
  | 'latePayment'
  | 'hold'
  | 'complete'
  | 'release'
  | 'refund'
  | 'completeRefund'
  | 'cancel';

/**
 * The steps an order in `status` offers, in the order the buttons show them:
 *
 * - waiting_for_operator: payment details, cancel;
 * - waiting_for_payment: confirm the payment (with the amount received), hold, cancel;
 * - paid: complete with the payout, hold;
 * - expired: record a late payment (to the customer's choice), hold;
 * - on_hold: release (to paid) or refund;
 * - refund_in_progress: complete the refund;
 * - needs_user_action waits for the customer; completed, canceled and refunded are final.
 */
export function stepsFor(status: string): Step[] {
  switch (status) {
    case 'waiting_for_operator':
      return ['supply', 'cancel'];
    case 'waiting_for_payment':
      return ['confirm', 'hold', 'cancel'];
    case 'paid':
      return ['complete', 'hold'];
    case 'expired':
      return ['latePayment', 'hold'];
    case 'on_hold':
      return ['release', 'refund'];
    case 'refund_in_progress':
      return ['completeRefund'];
    default:
      return [];
  }
}

/** Whether holding an order in `status` records the amount received (not yet recorded). */
export const holdRecordsAmount = (status: string): boolean =>
  status === 'waiting_for_payment' || status === 'expired';

export interface RequisitesDeadline {
  status: string;
  requisites_due_at: string;
  requisites_late_at?: string | null | undefined;
}

/**
 * Where an order waiting for the operator stands against the promise: `late` once the deadlines
 * job flagged it or, on this page's clock, the moment `requisites_due_at` passes; `ms` is the
 * time overdue (late) or left (not yet). `null` when the order does not wait for the operator.
 */
export function requisitesState(
  order: RequisitesDeadline,
  now: number,
): { late: boolean; ms: number } | null {
  if (order.status !== 'waiting_for_operator') return null;
  const due = Date.parse(order.requisites_due_at);
  if (Number.isNaN(due)) return null;
  const late = Boolean(order.requisites_late_at) || now >= due;
  return { late, ms: late ? Math.max(0, now - due) : due - now };
}

/** A span of time as the timers show it. */
export type Span =
  | { kind: 'minutes'; minutes: number; seconds: string }
  | { kind: 'hours'; hours: number; minutes: string }
  | { kind: 'days'; days: number; hours: number };

/**
 * `ms` (rounded down to the second) as minutes and seconds under an hour, hours and minutes
 * under a day, days and hours beyond.
 */
export function spanOf(ms: number): Span {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 3600) {
    return {
      kind: 'minutes',
      minutes: Math.floor(total / 60),
      seconds: String(total % 60).padStart(2, '0'),
    };
  }
  if (total < 86_400) {
    return {
      kind: 'hours',
      hours: Math.floor(total / 3600),
      minutes: String(Math.floor((total % 3600) / 60)).padStart(2, '0'),
    };
  }
  return {
    kind: 'days',
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
  };
}

/** What an amount received leads to, against the order's send amount. */
export type PaymentOutcome = 'paid' | 'underpaid' | 'overpaid' | 'late_payment';

export type ReceivedCheck =
  | { ok: false; error: 'required' | 'invalid' | 'precision' }
  | { ok: true; amount: string; outcome: PaymentOutcome; difference: string };

/** Digits the API takes on either side of the point. */
const DECIMAL = /^\d{1,24}(?:\.\d{1,24})?$/;

/**
 * A typed amount received (comma or point, spaces ignored): a positive decimal with at most
 * `precision` decimals, kept exact. A payment on an expired order is always late; otherwise
 * less than `expected` is underpaid, more is overpaid, the same is paid. `difference` is
 * received − expected.
 */
export function checkReceived(
  typed: string,
  expected: string,
  precision: number,
  expired = false,
): ReceivedCheck {
  const value = normalizeAmount(typed);
  if (value === '') return { ok: false, error: 'required' };
  if (!DECIMAL.test(value) || !/[1-9]/.test(value)) return { ok: false, error: 'invalid' };
  const decimals = value.split('.')[1]?.replace(/0+$/, '').length ?? 0;
  if (decimals > precision) return { ok: false, error: 'precision' };
  const amount = trimZeros(value.replace(/^0+(?=\d)/, ''));
  const comparison = new Dec(amount).comparedTo(expected);
  const outcome: PaymentOutcome = expired
    ? 'late_payment'
    : comparison < 0
      ? 'underpaid'
      : comparison > 0
        ? 'overpaid'
        : 'paid';
  return { ok: true, amount, outcome, difference: new Dec(amount).minus(expected).toFixed() };
}

/**
 * `received − expected` as a sign (`+`, or the minus sign `−`) and the exact amount; `null`
 * when they are equal.
 */
export function signedDifference(
  received: string,
  expected: string,
): { sign: '+' | '−'; amount: string } | null {
  const difference = new Dec(received).minus(expected);
  if (difference.isZero()) return null;
  return { sign: difference.isNegative() ? '−' : '+', amount: difference.abs().toFixed() };
}

/** Where releasing a hold as a refund sends the order: it depends on a known refund address. */
export function refundDestination(order: {
  refund_address: string | null | undefined;
  send_currency_info?: { kind: string } | null | undefined;
}): 'address' | 'cash' | 'ask' {
  if (order.send_currency_info?.kind === 'cash') return 'cash';
  return order.refund_address ? 'address' : 'ask';
}

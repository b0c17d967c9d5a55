import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';

import {
  canMove,
  isSideStatus,
  ORDER_STATUSES,
  type OrderStatus,
} from '@app/shared/orders/vocabulary';

import {
  checkReceived,
  holdRecordsAmount,
  refundDestination,
  requisitesState,
  signedDifference,
  spanOf,
  stepsFor,
  type Step,
} from './order-steps.ts';
import { reasonLabel, statusClass, statusKey, statusLabel } from './statuses.ts';

/** Where each staff step can take an order in `from` (decision 015's table). */
function targets(step: Step, from: string): OrderStatus[] {
  switch (step) {
    case 'supply':
      return ['waiting_for_payment'];
    case 'confirm':
      return ['paid', 'needs_user_action'];
    case 'latePayment':
      return ['needs_user_action'];
    case 'hold':
      return ['on_hold'];
    case 'complete':
      return ['completed'];
    case 'release':
      return ['paid'];
    case 'refund':
      return ['refund_in_progress', 'needs_user_action'];
    case 'completeRefund':
      return ['refunded'];
    case 'cancel':
      return from === 'waiting_for_operator' || from === 'waiting_for_payment' ? ['canceled'] : [];
  }
}

describe('the steps each status offers', () => {
  it('are exactly the staff transitions of decision 015', () => {
    expect(stepsFor('waiting_for_operator')).toEqual(['supply', 'cancel']);
    expect(stepsFor('waiting_for_payment')).toEqual(['confirm', 'hold', 'cancel']);
    expect(stepsFor('paid')).toEqual(['complete', 'hold']);
    expect(stepsFor('expired')).toEqual(['latePayment', 'hold']);
    expect(stepsFor('on_hold')).toEqual(['release', 'refund']);
    expect(stepsFor('refund_in_progress')).toEqual(['completeRefund']);
    // The customer decides; the final states offer nothing.
    for (const status of ['needs_user_action', 'completed', 'canceled', 'refunded', 'lost'])
      expect(stepsFor(status)).toEqual([]);
  });

  it('only ever lead to a transition the database allows', () => {
    for (const status of ORDER_STATUSES) {
      for (const step of stepsFor(status)) {
        const to = targets(step, status);
        expect(to.length, `${step} on ${status}`).toBeGreaterThan(0);
        for (const each of to) expect(canMove(status, each), `${status}>${each}`).toBe(true);
      }
    }
  });

  it('records the amount with a hold only where no payment was recorded yet', () => {
    expect(holdRecordsAmount('waiting_for_payment')).toBe(true);
    expect(holdRecordsAmount('expired')).toBe(true);
    expect(holdRecordsAmount('paid')).toBe(false);
  });
});

describe('late requisites', () => {
  const due = '2025-03-01T10:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('are late the moment the promise passes, on the page clock', () => {
    const order = {
      status: 'waiting_for_operator',
      requisites_due_at: due,
      requisites_late_at: null,
    };
    expect(requisitesState(order, at('2025-03-01T09:57:30.000Z'))).toEqual({
      late: false,
      ms: 150_000,
    });
    expect(requisitesState(order, at(due))).toEqual({ late: true, ms: 0 });
    expect(requisitesState(order, at('2025-03-01T10:04:05.000Z'))).toEqual({
      late: true,
      ms: 245_000,
    });
  });

  it('are late once the deadlines job flagged them, whatever the clock', () => {
    expect(
      requisitesState(
        {
          status: 'waiting_for_operator',
          requisites_due_at: due,
          requisites_late_at: '2025-03-01T10:00:30.000Z',
        },
        0,
      ),
    ).toEqual({ late: true, ms: 0 });
  });

  it('concern only orders waiting for the operator', () => {
    for (const status of ['waiting_for_payment', 'paid', 'canceled'])
      expect(requisitesState({ status, requisites_due_at: due }, at(due) + 1)).toBeNull();
  });
});

describe('timers', () => {
  it('show minutes and seconds, then hours, then days', () => {
    expect(spanOf(0)).toEqual({ kind: 'minutes', minutes: 0, seconds: '00' });
    expect(spanOf(245_999)).toEqual({ kind: 'minutes', minutes: 4, seconds: '05' });
    expect(spanOf(3_599_999)).toEqual({ kind: 'minutes', minutes: 59, seconds: '59' });
    expect(spanOf(3_600_000)).toEqual({ kind: 'hours', hours: 1, minutes: '00' });
    expect(spanOf(2 * 3_600_000 + 5 * 60_000)).toEqual({ kind: 'hours', hours: 2, minutes: '05' });
    expect(spanOf(3 * 86_400_000 + 4 * 3_600_000)).toEqual({ kind: 'days', days: 3, hours: 4 });
    expect(spanOf(-5)).toEqual({ kind: 'minutes', minutes: 0, seconds: '00' });
  });
});

describe('the amount received', () => {
  it('is an exact positive decimal within the currency precision', () => {
    expect(checkReceived('', '0.05', 8)).toEqual({ ok: false, error: 'required' });
    expect(checkReceived('  ', '0.05', 8)).toEqual({ ok: false, error: 'required' });
    for (const typed of ['abc', '-1', '0', '0.000', '1e-3', '1.2.3', '.5', '1.'])
      expect(checkReceived(typed, '0.05', 8), typed).toEqual({ ok: false, error: 'invalid' });
    expect(checkReceived('0.123456789', '0.05', 8)).toEqual({ ok: false, error: 'precision' });
    expect(checkReceived('150.001', '150', 2)).toEqual({ ok: false, error: 'precision' });
    // Trailing zeros are not decimals that count.
    expect(checkReceived('150.0000', '150', 2)).toMatchObject({ ok: true, amount: '150' });
  });

  it('says what it does to the order: paid, underpaid, overpaid, or late', () => {
    expect(checkReceived('0.05', '0.05000000', 8)).toEqual({
      ok: true,
      amount: '0.05',
      outcome: 'paid',
      difference: '0',
    });
    expect(checkReceived('0,04', '0.05', 8)).toEqual({
      ok: true,
      amount: '0.04',
      outcome: 'underpaid',
      difference: '-0.01',
    });
    expect(checkReceived('1 000.5', '1000', 2)).toEqual({
      ok: true,
      amount: '1000.5',
      outcome: 'overpaid',
      difference: '0.5',
    });
    expect(checkReceived('0.05', '0.05', 8, true)).toMatchObject({ outcome: 'late_payment' });
    // Exact, where a float would see no difference.
    expect(checkReceived('0.3', '0.30000000000000000001', 20)).toMatchObject({
      outcome: 'underpaid',
      difference: '-0.00000000000000000001',
    });
    expect(checkReceived('007.10', '7.1', 8)).toMatchObject({ amount: '7.1', outcome: 'paid' });
  });

  it('shows the difference with its sign', () => {
    expect(signedDifference('0.04', '0.05')).toEqual({ sign: '−', amount: '0.01' });
    expect(signedDifference('0.06', '0.05')).toEqual({ sign: '+', amount: '0.01' });
    expect(signedDifference('0.050', '0.05')).toBeNull();
  });
});

describe('a refund', () => {
  it('goes to the known address, is cash at the cash point, or is asked for', () => {
    expect(
      refundDestination({ refund_address: 'bc1qxyz', send_currency_info: { kind: 'crypto' } }),
    ).toBe('address');
    expect(
      refundDestination({ refund_address: null, send_currency_info: { kind: 'crypto' } }),
    ).toBe('ask');
    expect(refundDestination({ refund_address: null, send_currency_info: { kind: 'cash' } })).toBe(
      'cash',
    );
  });
});

describe('the ten statuses', () => {
  const t = ((key: string) => `<${key}>`) as unknown as TFunction;

  it('list the backbone, then the side states, as the counts view orders them', () => {
    expect(ORDER_STATUSES).toEqual([
      'waiting_for_operator',
      'waiting_for_payment',
      'paid',
      'completed',
      'canceled',
      'on_hold',
      'needs_user_action',
      'refund_in_progress',
      'refunded',
      'expired',
    ]);
  });

  it('name the side states in staff words and mark their chips', () => {
    expect(statusKey('paid')).toBe('exchange:transaction.statuses.paid');
    expect(statusKey('needs_user_action')).toBe('staffOrders:statuses.needs_user_action');
    expect(statusKey('lost')).toBeNull();
    expect(statusLabel(t, 'on_hold')).toBe('<staffOrders:statuses.on_hold>');
    expect(statusLabel(t, 'lost')).toBe('lost');
    expect(statusClass('paid')).toBe('status status--paid');
    expect(statusClass('expired')).toBe('status status--expired status--side');
    expect(isSideStatus('refunded')).toBe(true);
    expect(isSideStatus('completed')).toBe(false);
  });

  it('name reasons and hold categories', () => {
    expect(reasonLabel(t, 'underpaid')).toBe('<staffOrders:reasons.underpaid>');
    expect(reasonLabel(t, 'aml_review')).toBe('<staffOrders:holdCategories.aml_review>');
    expect(reasonLabel(t, 'a free text note')).toBe('a free text note');
    expect(reasonLabel(t, null)).toBeNull();
  });
});

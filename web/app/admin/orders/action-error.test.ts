import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

import { actionErrorMessage, failureOf } from './action-error.ts';
import { actionsFor, paidByAddress } from './order-actions.tsx';
import { countsFromAggregates, countsFromView, totalOf } from './use-status-counts.ts';

/** A translate function that shows the key and its values, to see which message was chosen. */
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;

const failed = (code: string, extensions: Record<string, unknown> = {}, message = 'Nope.') =>
  new GraphqlRequestError([{ message, extensions: { code, ...extensions } }]);

describe('a failed staff action', () => {
  it('reads the code, the field and the status from the engine error', () => {
    expect(failureOf(failed('invalid-input', { field: 'bankAccountId' }))).toEqual({
      code: 'invalid-input',
      field: 'bankAccountId',
      status: undefined,
      message: 'Nope.',
    });
    expect(failureOf(new TypeError('Failed to fetch')).code).toBe('network-error');
    expect(failureOf(new GraphqlRequestError([{ message: 'HTTP 502' }], 502)).code).toBe(
      'http-502',
    );
  });

  it('becomes a sentence the operator can act on', () => {
    expect(actionErrorMessage(failed('invalid-transition', { status: 'canceled' }), t)).toBe(
      'staffOrders:errors.invalidTransition {"status":"exchange:transaction.statuses.canceled"}',
    );
    expect(actionErrorMessage(failed('invalid-transition', { status: 'on_hold' }), t)).toBe(
      'staffOrders:errors.invalidTransition {"status":"staffOrders:statuses.on_hold"}',
    );
    expect(actionErrorMessage(failed('invalid-transition'), t)).toBe(
      'staffOrders:errors.invalidTransitionPlain',
    );
    expect(actionErrorMessage(failed('invalid-input', { field: 'bankAccountId' }), t)).toBe(
      'staffOrders:errors.bankAccount',
    );
    expect(actionErrorMessage(failed('invalid-input', { field: 'depositAddress' }), t)).toBe(
      'staffOrders:errors.addressLength',
    );
    expect(actionErrorMessage(failed('invalid-input', { field: 'receivedAmount' }), t)).toBe(
      'staffOrders:errors.amountInvalid',
    );
    expect(actionErrorMessage(failed('invalid-input', { field: 'category' }), t)).toBe(
      'staffOrders:errors.category',
    );
    expect(actionErrorMessage(failed('invalid-input', { field: 'x' }, 'Bad x.'), t)).toBe(
      'staffOrders:errors.invalidInput {"message":"Bad x."}',
    );
    expect(actionErrorMessage(failed('not-found'), t)).toBe('staffOrders:errors.notFound');
    expect(actionErrorMessage(failed('validation-failed'), t)).toBe('staffOrders:errors.forbidden');
    expect(actionErrorMessage(new TypeError('Failed to fetch'), t)).toBe(
      'staffOrders:errors.network',
    );
    expect(actionErrorMessage(failed('mystery', {}, 'Odd.'), t)).toBe(
      'staffOrders:errors.other {"message":"Odd."}',
    );
  });
});

describe('the steps an order offers', () => {
  it('follows the lifecycle', () => {
    expect(actionsFor('waiting_for_operator')).toEqual(['supply', 'cancel']);
    expect(actionsFor('waiting_for_payment')).toEqual(['confirm', 'hold', 'cancel']);
    expect(actionsFor('paid')).toEqual(['complete', 'hold']);
    expect(actionsFor('completed')).toEqual([]);
    expect(actionsFor('canceled')).toEqual([]);
  });

  it('asks for a deposit address for crypto and a bank account otherwise', () => {
    const info = (kind: string) => ({
      send_currency_info: {
        code: 'X',
        symbol: 'X',
        name: 'X',
        kind,
        network: null,
        memo_required: false,
        precision: 8,
      },
    });
    expect(paidByAddress(info('crypto'))).toBe(true);
    expect(paidByAddress(info('fiat'))).toBe(false);
    expect(paidByAddress(info('cash'))).toBe(false);
  });
});

describe('the status counts', () => {
  it('come from the view or from the aggregates, zero when missing', () => {
    const view = countsFromView([
      { status: 'waiting_for_operator', total: 3 },
      { status: 'paid', total: 1 },
      { status: 'unknown', total: 9 },
    ]);
    expect(view).toEqual({
      waiting_for_operator: 3,
      waiting_for_payment: 0,
      paid: 1,
      completed: 0,
      canceled: 0,
      on_hold: 0,
      needs_user_action: 0,
      refund_in_progress: 0,
      refunded: 0,
      expired: 0,
    });
    expect(totalOf(view, null)).toBe(4);
    expect(
      totalOf(
        countsFromView([
          { status: 'paid', total: 1 },
          { status: 'on_hold', total: 2 },
          { status: 'expired', total: 4 },
        ]),
        null,
      ),
    ).toBe(7);
    expect(totalOf(view, 'paid')).toBe(1);
    const aggregate = (count: number) => ({ aggregate: { count } });
    expect(
      countsFromAggregates({
        waiting_for_operator: aggregate(1),
        waiting_for_payment: aggregate(2),
        paid: aggregate(0),
        completed: aggregate(5),
        canceled: { aggregate: null },
        on_hold: aggregate(6),
        needs_user_action: aggregate(7),
        refund_in_progress: aggregate(8),
        refunded: aggregate(9),
        expired: aggregate(10),
      }),
    ).toEqual({
      waiting_for_operator: 1,
      waiting_for_payment: 2,
      paid: 0,
      completed: 5,
      canceled: 0,
      on_hold: 6,
      needs_user_action: 7,
      refund_in_progress: 8,
      refunded: 9,
      expired: 10,
    });
  });
});

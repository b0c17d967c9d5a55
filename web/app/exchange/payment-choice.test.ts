import { describe, expect, it } from 'vitest';

import { validateForm } from '@app/shared/forms';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

import { choiceFailureMessage, choiceFailureOf, refundForm } from './payment-choice.ts';

describe('the refund form', () => {
  it('wants an address on the network for crypto, with the spec message when empty', () => {
    expect(validateForm(refundForm('crypto'), { refundAddress: ' ', refundMemo: '' })).toEqual({
      ok: false,
      errors: { refundAddress: 'common:validation.required' },
    });
    expect(validateForm(refundForm('crypto'), { refundAddress: 'short', refundMemo: '' })).toEqual({
      ok: false,
      errors: { refundAddress: 'exchange:create.errors.invalid-wallet-address' },
    });
    expect(
      validateForm(refundForm('crypto'), {
        refundAddress: ' rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh ',
        refundMemo: ' 12345 ',
      }),
    ).toEqual({
      ok: true,
      data: { refundAddress: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', refundMemo: '12345' },
    });
  });

  it('leaves an empty memo out and refuses a long one', () => {
    const address = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
    expect(validateForm(refundForm('crypto'), { refundAddress: address, refundMemo: '' })).toEqual({
      ok: true,
      data: { refundAddress: address, refundMemo: undefined },
    });
    expect(
      validateForm(refundForm('crypto'), { refundAddress: address, refundMemo: 'x'.repeat(65) }),
    ).toEqual({ ok: false, errors: { refundMemo: 'exchange:create.errors.too-long' } });
  });

  it('wants an IBAN in its electronic form for a bank payment, and nothing for cash', () => {
    expect(
      validateForm(refundForm('fiat'), { refundAddress: 'de89 3704 0044 0532 0130 00' }),
    ).toEqual({
      ok: true,
      data: { refundAddress: 'DE89370400440532013000' },
    });
    expect(validateForm(refundForm('fiat'), { refundAddress: 'not an iban' })).toEqual({
      ok: false,
      errors: { refundAddress: 'exchange:create.errors.invalid-iban' },
    });
    expect(validateForm(refundForm('cash'), { refundAddress: '', refundMemo: '' })).toEqual({
      ok: true,
      data: {},
    });
  });
});

describe('a refused choice', () => {
  const refused = (code: string, message: string, extensions: Record<string, unknown> = {}) =>
    choiceFailureOf(new GraphqlRequestError([{ message, extensions: { code, ...extensions } }]));

  it('goes under the refund field when the action names it', () => {
    expect(
      choiceFailureMessage(
        refused('invalid-input', 'refundAddress: Invalid wallet address for this network', {
          field: 'refundAddress',
          problem: 'invalid-wallet-address',
        }),
      ),
    ).toEqual({ field: 'refundAddress', message: 'exchange:create.errors.invalid-wallet-address' });
    expect(
      choiceFailureMessage(
        refused('invalid-input', 'refundAddress: Invalid IBAN', {
          field: 'refundAddress',
          problem: 'invalid-iban',
        }),
      ),
    ).toEqual({ field: 'refundAddress', message: 'exchange:create.errors.invalid-iban' });
    expect(
      choiceFailureMessage(
        refused('invalid-input', 'refundAddress: The field is required', {
          field: 'refundAddress',
          problem: 'required',
        }),
      ),
    ).toEqual({ field: 'refundAddress', message: 'common:validation.required' });
    expect(
      choiceFailureMessage(
        refused('invalid-input', 'refundMemo: at most 64 characters.', {
          field: 'refundMemo',
          problem: 'too-long',
        }),
      ),
    ).toEqual({ field: 'refundMemo', message: 'exchange:create.errors.too-long' });
  });

  it('is a sentence above the choice otherwise: its own, the quote’s, or the generic one', () => {
    expect(choiceFailureMessage(refused('refund-required', 'choose a refund'))).toEqual({
      message: [
        'trust:action.errors.refund-required',
        'home:widget.errors.refund-required',
        'errors:refund-required',
        'common:notify.somethingWentWrong',
      ],
    });
    expect(choiceFailureMessage(refused('amount-below-min', 'The minimum is 10'))).toEqual({
      message: [
        'trust:action.errors.amount-below-min',
        'home:widget.errors.amount-below-min',
        'errors:amount-below-min',
        'common:notify.somethingWentWrong',
      ],
    });
    expect(choiceFailureMessage(choiceFailureOf(new TypeError('Failed to fetch')))).toEqual({
      message: [
        'trust:action.errors.network-error',
        'home:widget.errors.network-error',
        'common:notify.somethingWentWrong',
      ],
    });
  });
});

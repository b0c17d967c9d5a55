import { describe, expect, it } from 'vitest';

import {
  createExchangeForm,
  EXCHANGE_PROBLEMS,
  exchangeProblemMessage,
  exchangeProblemOf,
} from './exchange.ts';
import { validateForm } from './fields.ts';

const filled = {
  email: ' Vera@Example.com ',
  fullName: 'Vera Visitor',
  reason: 'Savings',
  agreeTerms: true,
  agreeAml: true,
};

describe('the order form', () => {
  it('asks for every field and both agreements, with the spec messages', () => {
    const result = validateForm(createExchangeForm('crypto'), {
      email: '',
      fullName: ' ',
      reason: '',
      walletAddress: '',
      agreeTerms: false,
      agreeAml: false,
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        email: 'common:validation.required',
        fullName: 'common:validation.required',
        reason: 'common:validation.required',
        walletAddress: 'common:validation.required',
        agreeTerms: 'exchange:create.errors.must-agree',
        agreeAml: 'exchange:create.errors.must-agree',
      },
    });
  });

  it('wants a wallet for crypto, an IBAN for fiat and neither for cash', () => {
    const crypto = validateForm(createExchangeForm('crypto'), {
      ...filled,
      walletAddress: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
    });
    expect(crypto).toMatchObject({ ok: true, data: { email: 'vera@example.com' } });
    const fiat = validateForm(createExchangeForm('fiat'), {
      ...filled,
      iban: 'de89 3704 0044 0532 0130 00',
    });
    expect(fiat).toMatchObject({ ok: true, data: { iban: 'DE89370400440532013000' } });
    expect(
      validateForm(createExchangeForm('fiat'), { ...filled, iban: 'not an iban' }),
    ).toMatchObject({
      ok: false,
      errors: { iban: 'exchange:create.errors.invalid-iban' },
    });
    expect(validateForm(createExchangeForm('cash'), filled)).toMatchObject({ ok: true });
  });

  it('refuses an e-mail that is not one, and a wallet with spaces', () => {
    expect(
      validateForm(createExchangeForm('crypto'), {
        ...filled,
        email: 'nope',
        walletAddress: 'a b c d e f g h',
      }),
    ).toMatchObject({
      ok: false,
      errors: {
        email: 'common:validation.email',
        walletAddress: 'exchange:create.errors.invalid-wallet-address',
      },
    });
  });

  it("translates the action's field problems", () => {
    expect(exchangeProblemMessage('required')).toBe('common:validation.required');
    expect(exchangeProblemMessage('invalid-iban')).toBe('exchange:create.errors.invalid-iban');
  });
});

describe("the order form's optional fields (issue 10)", () => {
  const crypto = { ...filled, walletAddress: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh' };

  it('drops them when the client does not show them', () => {
    const result = validateForm(createExchangeForm('crypto'), {
      ...crypto,
      payoutMemo: '123',
      refundAddress: 'anything',
      refundMemo: '9',
    });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.data.payoutMemo).toBeUndefined();
      expect(result.data.refundAddress).toBeUndefined();
      expect(result.data.refundMemo).toBeUndefined();
    }
  });

  it('keeps what was given, trimmed, and leaves out what was left empty', () => {
    const schema = createExchangeForm('crypto', {
      payoutMemo: true,
      refundKind: 'crypto',
      refundMemo: true,
    });
    expect(
      validateForm(schema, {
        ...crypto,
        payoutMemo: ' 4242 ',
        refundAddress: ' TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC ',
        refundMemo: '',
      }),
    ).toMatchObject({
      ok: true,
      data: { payoutMemo: '4242', refundAddress: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC' },
    });
    expect(
      validateForm(schema, { ...crypto, payoutMemo: '', refundAddress: '', refundMemo: ' ' }),
    ).toMatchObject({
      ok: true,
      data: { payoutMemo: undefined, refundAddress: undefined, refundMemo: undefined },
    });
  });

  it('checks a refund address for the kind paid with, and memo lengths', () => {
    expect(
      validateForm(createExchangeForm('crypto', { refundKind: 'crypto' }), {
        ...crypto,
        refundAddress: 'short',
      }),
    ).toMatchObject({
      ok: false,
      errors: { refundAddress: 'exchange:create.errors.invalid-wallet-address' },
    });
    expect(
      validateForm(createExchangeForm('crypto', { refundKind: 'fiat' }), {
        ...crypto,
        refundAddress: 'de89 3704 0044 0532 0130 00',
      }),
    ).toMatchObject({ ok: true, data: { refundAddress: 'DE89370400440532013000' } });
    expect(
      validateForm(createExchangeForm('crypto', { payoutMemo: true }), {
        ...crypto,
        payoutMemo: 'x'.repeat(65),
      }),
    ).toMatchObject({ ok: false, errors: { payoutMemo: 'exchange:create.errors.too-long' } });
  });
});

describe('the action answers the schema’s messages as problem codes', () => {
  it('maps each code to its message and back', () => {
    for (const problem of EXCHANGE_PROBLEMS)
      expect(exchangeProblemOf(exchangeProblemMessage(problem))).toBe(problem);
  });

  it('answers invalid for a message it does not know', () => {
    expect(exchangeProblemOf('Invalid input: expected string')).toBe('invalid');
  });
});

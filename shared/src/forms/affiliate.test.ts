import { describe, expect, it } from 'vitest';

import { resources } from '../i18n/index.ts';
import {
  compareDecimals,
  ReferralNameForm,
  validateForm,
  withdrawalErrorMessage,
  withdrawalForm,
} from './index.ts';

/** The text behind an i18n key such as `common:validation.referralName`, in a locale. */
function text(key: string, locale: keyof typeof resources = 'en'): string {
  const [namespace = '', path = ''] = key.split(':');
  let node: unknown = (resources[locale] as Record<string, unknown>)[namespace];
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no ${locale} text for ${key}`);
  return node;
}

function messages(schema: Parameters<typeof validateForm>[0], values: unknown) {
  const result = validateForm(schema, values);
  if (result.ok) return {};
  return Object.fromEntries(
    Object.entries(result.errors).map(([field, key]) => [field, text(key as string)]),
  );
}

const WALLET = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

describe('referral name form', () => {
  it('takes 3 to 20 letters and digits, trimmed', () => {
    for (const name of ['abc', 'Partner42', 'A1b2C3d4E5f6G7h8I9j0'])
      expect(validateForm(ReferralNameForm, { referralName: name })).toEqual({
        ok: true,
        data: { referralName: name },
      });
    expect(validateForm(ReferralNameForm, { referralName: '  Partner42 ' })).toEqual({
      ok: true,
      data: { referralName: 'Partner42' },
    });
  });

  it('refuses anything else with the spec message', () => {
    for (const name of ['ab', 'a'.repeat(21), 'with space', 'dash-name', 'имя123', 'emoji😀x'])
      expect(messages(ReferralNameForm, { referralName: name })).toEqual({
        referralName: 'Referral name must be 3-20 alphanumeric characters.',
      });
  });

  it('says the field is required when empty', () => {
    expect(messages(ReferralNameForm, { referralName: ' ' })).toEqual({
      referralName: 'The field is required',
    });
  });
});

describe('withdrawal form', () => {
  it('accepts at least 100 USDT within the balance to a TRC20 wallet', () => {
    expect(validateForm(withdrawalForm('250.5'), { amount: '100', walletAddress: WALLET })).toEqual(
      { ok: true, data: { amount: '100', walletAddress: WALLET } },
    );
    expect(
      validateForm(withdrawalForm('250.5'), { amount: ' 250,5 ', walletAddress: ` ${WALLET}` }),
    ).toEqual({ ok: true, data: { amount: '250.5', walletAddress: WALLET } });
  });

  it('explains the minimum, the balance and the format', () => {
    expect(messages(withdrawalForm('500'), { amount: '99.999999', walletAddress: WALLET })).toEqual(
      { amount: 'The minimum withdrawal is 100 USDT.' },
    );
    expect(
      messages(withdrawalForm('150'), { amount: '150.000001', walletAddress: WALLET }),
    ).toEqual({ amount: 'The amount exceeds your available balance.' });
    expect(messages(withdrawalForm(), { amount: '1e3', walletAddress: WALLET })).toEqual({
      amount: 'Enter an amount in USDT with at most 6 decimals',
    });
    expect(messages(withdrawalForm(), { amount: '100.1234567', walletAddress: WALLET })).toEqual({
      amount: 'Enter an amount in USDT with at most 6 decimals',
    });
    // Without a known balance only the minimum is checked.
    expect(validateForm(withdrawalForm(), { amount: '1000000', walletAddress: WALLET }).ok).toBe(
      true,
    );
  });

  it('wants both fields and a TRC20 address', () => {
    expect(messages(withdrawalForm('0'), { amount: '', walletAddress: '' })).toEqual({
      amount: 'The field is required',
      walletAddress: 'The field is required',
    });
    for (const walletAddress of ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'T123', `${WALLET}0`])
      expect(messages(withdrawalForm(), { amount: '100', walletAddress })).toEqual({
        walletAddress: 'Invalid TRC20 wallet address',
      });
  });
});

describe('decimal comparison', () => {
  it('is exact, whatever the scale', () => {
    expect(compareDecimals('100', '100.000000')).toBe(0);
    expect(compareDecimals('99.999999', '100')).toBe(-1);
    expect(compareDecimals('100.000001', '100')).toBe(1);
    expect(compareDecimals('0.1', '0.09')).toBe(1);
    expect(compareDecimals('12345678901.000001', '12345678901')).toBe(1);
  });
});

describe('withdrawal errors', () => {
  it("map the action's codes to the field and a translated message", () => {
    const shown = (code: string | undefined, field?: string) => {
      const { field: target, message } = withdrawalErrorMessage(code, field);
      return { field: target, message: text(message) };
    };
    expect(shown('below-minimum')).toEqual({
      field: 'amount',
      message: 'The minimum withdrawal is 100 USDT.',
    });
    expect(shown('insufficient-balance')).toEqual({
      field: 'amount',
      message: 'The amount exceeds your available balance.',
    });
    expect(shown('invalid-input', 'walletAddress')).toEqual({
      field: 'walletAddress',
      message: 'Invalid TRC20 wallet address',
    });
    expect(shown('invalid-input', 'amount').field).toBe('amount');
    expect(shown('unexpected')).toEqual({ field: undefined, message: 'Something went wrong' });
    expect(shown(undefined)).toEqual({ field: undefined, message: 'Something went wrong' });
  });

  it('every message exists in every locale', () => {
    const keys = ['below-minimum', 'insufficient-balance', 'invalid-input', 'unexpected'].flatMap(
      (code) =>
        ['amount', 'walletAddress'].map((field) => withdrawalErrorMessage(code, field).message),
    );
    for (const locale of ['en', 'ru', 'ua'] as const) {
      for (const key of keys) expect(text(key, locale)).not.toBe('');
      expect(text('common:validation.referralName', locale)).not.toBe('');
    }
  });
});

import { describe, expect, it } from 'vitest';

import {
  accountName,
  BANK_ACCOUNT_MESSAGES,
  changedColumns,
  compactCode,
  EMPTY_BANK_ACCOUNT,
  firstInvalid,
  ibanChecksumValid,
  validateBankAccount,
  valuesOf,
  type BankAccountColumns,
} from './bank-account-form.ts';

const FIAT = ['EUR', 'USD', 'UAH'];

const GOOD = {
  label: '  EUR main ',
  beneficiary: ' Exchange Service Ltd ',
  accountNumber: 'de89 3704 0044 0532 0130 00',
  swiftBic: 'cobadeff xxx',
  bankAddress: ' Kaiserstrasse 16, Frankfurt ',
  currency: 'EUR',
};

const STORED: BankAccountColumns = {
  label: 'EUR main',
  beneficiary: 'Exchange Service Ltd',
  account_number: 'DE89370400440532013000',
  swift_bic: 'COBADEFFXXX',
  bank_address: 'Kaiserstrasse 16, Frankfurt',
  currency_code: 'EUR',
};

describe('validateBankAccount', () => {
  it('parses good input to the columns as the database stores them', () => {
    expect(validateBankAccount(GOOD, FIAT)).toEqual({ ok: true, data: STORED });
    const unlabelled = validateBankAccount({ ...GOOD, label: '   ' }, FIAT);
    expect(unlabelled.ok && unlabelled.data.label).toBeNull();
  });

  it('names every missing required field, the label excepted', () => {
    const result = validateBankAccount(EMPTY_BANK_ACCOUNT, FIAT);
    expect(result).toEqual({
      ok: false,
      errors: {
        beneficiary: BANK_ACCOUNT_MESSAGES.required,
        accountNumber: BANK_ACCOUNT_MESSAGES.required,
        swiftBic: BANK_ACCOUNT_MESSAGES.required,
        bankAddress: BANK_ACCOUNT_MESSAGES.required,
        currency: BANK_ACCOUNT_MESSAGES.required,
      },
    });
    expect(!result.ok && firstInvalid(result.errors)).toBe('beneficiary');
  });

  it('holds the database rules: lengths, formats and the currency list', () => {
    const errors = (values: Partial<typeof GOOD>) => {
      const result = validateBankAccount({ ...GOOD, ...values }, FIAT);
      return result.ok ? {} : result.errors;
    };
    expect(errors({ label: 'x'.repeat(65) })).toEqual({
      label: BANK_ACCOUNT_MESSAGES.labelTooLong,
    });
    expect(errors({ label: 'x'.repeat(64) })).toEqual({});
    expect(errors({ beneficiary: 'x'.repeat(141) })).toEqual({
      beneficiary: BANK_ACCOUNT_MESSAGES.beneficiaryTooLong,
    });
    expect(errors({ accountNumber: '1234' })).toEqual({
      accountNumber: BANK_ACCOUNT_MESSAGES.accountNumber,
    });
    expect(errors({ accountNumber: 'ABC/123456' })).toEqual({
      accountNumber: BANK_ACCOUNT_MESSAGES.accountNumber,
    });
    expect(errors({ accountNumber: '1'.repeat(35) })).toEqual({
      accountNumber: BANK_ACCOUNT_MESSAGES.accountNumber,
    });
    // A local account number (no IBAN shape) has no checksum to check.
    expect(errors({ accountNumber: '26007012345678' })).toEqual({});
    expect(errors({ accountNumber: 'DE89370400440532013001' })).toEqual({
      accountNumber: BANK_ACCOUNT_MESSAGES.iban,
    });
    expect(errors({ swiftBic: 'COBADEF' })).toEqual({ swiftBic: BANK_ACCOUNT_MESSAGES.swiftBic });
    expect(errors({ swiftBic: 'COBADEFFXX' })).toEqual({
      swiftBic: BANK_ACCOUNT_MESSAGES.swiftBic,
    });
    expect(errors({ swiftBic: '12BADEFF' })).toEqual({ swiftBic: BANK_ACCOUNT_MESSAGES.swiftBic });
    expect(errors({ swiftBic: 'PBANUA2X' })).toEqual({});
    expect(errors({ bankAddress: 'x'.repeat(301) })).toEqual({
      bankAddress: BANK_ACCOUNT_MESSAGES.bankAddressTooLong,
    });
    expect(errors({ currency: 'BTC' })).toEqual({ currency: BANK_ACCOUNT_MESSAGES.currency });
  });
});

describe('IBAN and codes', () => {
  it('checks IBAN check digits (ISO 13616, mod 97)', () => {
    for (const iban of [
      'DE89370400440532013000',
      'GB82WEST12345698765432',
      'UA213223130000026007233566001',
      'DE02120300000000202051',
    ])
      expect(ibanChecksumValid(iban)).toBe(true);
    expect(ibanChecksumValid('GB82WEST12345698765433')).toBe(false);
  });

  it('compacts what people paste', () => {
    expect(compactCode(' gb82 west-1234 5698\t7654 32 ')).toBe('GB82WEST12345698765432');
  });
});

describe('changedColumns', () => {
  it('writes only what changed', () => {
    expect(changedColumns(STORED, STORED, false)).toEqual({});
    expect(
      changedColumns(STORED, { ...STORED, label: null, bank_address: 'Elsewhere 1' }, false),
    ).toEqual({ label: null, bank_address: 'Elsewhere 1' });
  });

  it('never writes the fixed details of an account given to orders', () => {
    expect(
      changedColumns(STORED, { ...STORED, label: 'EUR (old)', account_number: 'X1234567' }, true),
    ).toEqual({ label: 'EUR (old)' });
  });
});

describe('naming', () => {
  it('uses the label, else the number; the form starts from the stored values', () => {
    expect(accountName(STORED)).toBe('EUR main');
    expect(accountName({ ...STORED, label: null })).toBe('DE89370400440532013000');
    expect(valuesOf({ ...STORED, label: null })).toEqual({
      label: '',
      beneficiary: 'Exchange Service Ltd',
      accountNumber: 'DE89370400440532013000',
      swiftBic: 'COBADEFFXXX',
      bankAddress: 'Kaiserstrasse 16, Frankfurt',
      currency: 'EUR',
    });
  });
});

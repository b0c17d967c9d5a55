import { IBAN_SHAPE, MESSAGES } from '@app/shared/forms';

/*
 * The bank account form of /admin/bank-accounts: what staff type, checked against the rules the
 * database holds (migration 1763740800200: the label at most 64 characters, the beneficiary
 * 1-140, the account number 5-34 capital letters and digits, the SWIFT/BIC 8 or 11 characters,
 * the bank address 1-300, a known currency), so a mistake is named next to its field instead of
 * coming back as a bare constraint violation. Messages are i18n keys.
 */

export type BankAccountField =
  'label' | 'beneficiary' | 'accountNumber' | 'swiftBic' | 'bankAddress' | 'currency';

export const BANK_ACCOUNT_FIELDS: readonly BankAccountField[] = [
  'label',
  'beneficiary',
  'accountNumber',
  'swiftBic',
  'bankAddress',
  'currency',
];

/**
 * The payment details: once an order was given the account, the database keeps them
 * (trigger `bank_accounts_details_fixed`); the label and the active flag stay editable.
 */
export const DETAIL_FIELDS: readonly BankAccountField[] = [
  'beneficiary',
  'accountNumber',
  'swiftBic',
  'bankAddress',
  'currency',
];

export type BankAccountValues = Record<BankAccountField, string>;

export const EMPTY_BANK_ACCOUNT: BankAccountValues = {
  label: '',
  beneficiary: '',
  accountNumber: '',
  swiftBic: '',
  bankAddress: '',
  currency: '',
};

/** The columns as the engine names them (`bank_accounts_insert_input`). */
export interface BankAccountColumns {
  label: string | null;
  beneficiary: string;
  account_number: string;
  swift_bic: string;
  bank_address: string;
  currency_code: string;
}

export const LIMITS = { label: 64, beneficiary: 140, bankAddress: 300 } as const;

const KEY = 'staffTeam:bankAccounts.errors';
export const BANK_ACCOUNT_MESSAGES = {
  required: MESSAGES.required,
  labelTooLong: `${KEY}.labelTooLong`,
  beneficiaryTooLong: `${KEY}.beneficiaryTooLong`,
  accountNumber: `${KEY}.accountNumber`,
  iban: `${KEY}.iban`,
  swiftBic: `${KEY}.swiftBic`,
  bankAddressTooLong: `${KEY}.bankAddressTooLong`,
  currency: `${KEY}.currency`,
} as const;

/** The form's values for an account as the engine sends it. */
export function valuesOf(account: BankAccountColumns): BankAccountValues {
  return {
    label: account.label ?? '',
    beneficiary: account.beneficiary,
    accountNumber: account.account_number,
    swiftBic: account.swift_bic,
    bankAddress: account.bank_address,
    currency: account.currency_code,
  };
}

/** An account number or a SWIFT/BIC as stored: no spaces (people copy them grouped), capitals. */
export const compactCode = (value: string): string => value.replace(/[\s-]+/g, '').toUpperCase();

const ACCOUNT_NUMBER = /^[A-Z0-9]{5,34}$/;
const SWIFT_BIC = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** ISO 13616: the IBAN with its first four characters moved to the end, letters as 10-35, mod 97 is 1. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let remainder = 0;
  for (const character of rearranged) {
    const code = character.charCodeAt(0);
    const digits = code >= 65 && code <= 90 ? String(code - 55) : character;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

export type BankAccountErrors = Partial<Record<BankAccountField, string>>;

/**
 * Checks the form and parses it to the columns: texts trimmed, an empty label null, the account
 * number and SWIFT/BIC compacted. `currencies` are the codes an account may hold. An account
 * number shaped like an IBAN must have right check digits (the database cannot tell a typo).
 */
export function validateBankAccount(
  values: BankAccountValues,
  currencies: readonly string[],
): { ok: true; data: BankAccountColumns } | { ok: false; errors: BankAccountErrors } {
  const errors: BankAccountErrors = {};
  const label = values.label.trim();
  const beneficiary = values.beneficiary.trim();
  const accountNumber = compactCode(values.accountNumber);
  const swiftBic = compactCode(values.swiftBic);
  const bankAddress = values.bankAddress.trim();
  const currency = values.currency.trim();

  if (label.length > LIMITS.label) errors.label = BANK_ACCOUNT_MESSAGES.labelTooLong;

  if (!beneficiary) errors.beneficiary = BANK_ACCOUNT_MESSAGES.required;
  else if (beneficiary.length > LIMITS.beneficiary)
    errors.beneficiary = BANK_ACCOUNT_MESSAGES.beneficiaryTooLong;

  if (!accountNumber) errors.accountNumber = BANK_ACCOUNT_MESSAGES.required;
  else if (!ACCOUNT_NUMBER.test(accountNumber))
    errors.accountNumber = BANK_ACCOUNT_MESSAGES.accountNumber;
  else if (IBAN_SHAPE.test(accountNumber) && !ibanChecksumValid(accountNumber))
    errors.accountNumber = BANK_ACCOUNT_MESSAGES.iban;

  if (!swiftBic) errors.swiftBic = BANK_ACCOUNT_MESSAGES.required;
  else if (!SWIFT_BIC.test(swiftBic)) errors.swiftBic = BANK_ACCOUNT_MESSAGES.swiftBic;

  if (!bankAddress) errors.bankAddress = BANK_ACCOUNT_MESSAGES.required;
  else if (bankAddress.length > LIMITS.bankAddress)
    errors.bankAddress = BANK_ACCOUNT_MESSAGES.bankAddressTooLong;

  if (!currency) errors.currency = BANK_ACCOUNT_MESSAGES.required;
  else if (!currencies.includes(currency)) errors.currency = BANK_ACCOUNT_MESSAGES.currency;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    data: {
      label: label || null,
      beneficiary,
      account_number: accountNumber,
      swift_bic: swiftBic,
      bank_address: bankAddress,
      currency_code: currency,
    },
  };
}

/** The first field with a problem, in the form's order (where focus goes). */
export const firstInvalid = (errors: BankAccountErrors): BankAccountField | undefined =>
  BANK_ACCOUNT_FIELDS.find((field) => errors[field] !== undefined);

/**
 * What an edit changes (`_set`), nothing else: an untouched field is not written, so a label
 * change of an account with fixed details never trips the trigger. `locked` leaves the details
 * out whatever the form holds.
 */
export function changedColumns(
  original: BankAccountColumns,
  next: BankAccountColumns,
  locked: boolean,
): Partial<BankAccountColumns> {
  const changes: Partial<BankAccountColumns> = {};
  if ((original.label ?? null) !== next.label) changes.label = next.label;
  if (locked) return changes;
  if (original.beneficiary !== next.beneficiary) changes.beneficiary = next.beneficiary;
  if (original.account_number !== next.account_number) changes.account_number = next.account_number;
  if (original.swift_bic !== next.swift_bic) changes.swift_bic = next.swift_bic;
  if (original.bank_address !== next.bank_address) changes.bank_address = next.bank_address;
  if (original.currency_code !== next.currency_code) changes.currency_code = next.currency_code;
  return changes;
}

/** How staff name an account: its label, else its number. */
export const accountName = (account: Pick<BankAccountColumns, 'label' | 'account_number'>) =>
  account.label?.trim() || account.account_number;

import * as z from 'zod/mini';

import { emailField, MESSAGES, requiredText } from './fields.ts';

/*
 * The order form of /create-transaction/{pair} (spec sections 2 and 5): e-mail, full name, the
 * payout target the direction needs (a wallet address when the user receives crypto, an IBAN
 * for fiat, nothing for cash), the reason, and both agreements. The server checks the address
 * for its network and the IBAN's checksum again; these catch the common mistakes first.
 */

export const EXCHANGE_MESSAGES = {
  mustAgree: 'exchange:create.errors.must-agree',
  invalidWallet: 'exchange:create.errors.invalid-wallet-address',
  invalidIban: 'exchange:create.errors.invalid-iban',
  tooLong: 'exchange:create.errors.too-long',
} as const;

export type PayoutKind = 'crypto' | 'fiat' | 'cash';

const agreement = () => z.boolean().check(z.refine((value) => value, EXCHANGE_MESSAGES.mustAgree));

const limited = (max: number) => requiredText().check(z.maxLength(max, EXCHANGE_MESSAGES.tooLong));

/** Wallet addresses are 10 to 128 characters without spaces on every network we pay to. */
const walletAddress = () =>
  requiredText().check(
    z.refine(
      (value) => value === '' || /^\S{10,128}$/.test(value),
      EXCHANGE_MESSAGES.invalidWallet,
    ),
  );

/** An IBAN in its electronic form: country, check digits, up to 30 letters and digits. */
const iban = () =>
  z.string({ error: MESSAGES.required }).check(
    z.overwrite((value) => value.replace(/\s+/g, '').toUpperCase()),
    z.minLength(1, MESSAGES.required),
    z.refine(
      (value) => value === '' || /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value),
      EXCHANGE_MESSAGES.invalidIban,
    ),
  );

/** The order form's fields, in the order the form shows them (the first with an error gets focus). */
export const EXCHANGE_FORM_FIELDS = [
  'email',
  'fullName',
  'walletAddress',
  'iban',
  'reason',
  'agreeTerms',
  'agreeAml',
] as const;
export type ExchangeFormField = (typeof EXCHANGE_FORM_FIELDS)[number];

/** What the person has typed and ticked; the schema below judges it. */
export interface ExchangeFormValues {
  email: string;
  fullName: string;
  walletAddress: string;
  iban: string;
  reason: string;
  agreeTerms: boolean;
  agreeAml: boolean;
}

/** An empty order form, with the e-mail prefilled when the person's is known. */
export const emptyExchangeForm = (email = ''): ExchangeFormValues => ({
  email,
  fullName: '',
  walletAddress: '',
  iban: '',
  reason: '',
  agreeTerms: false,
  agreeAml: false,
});

/** The form's schema for a direction whose received currency is of `kind`. */
export function createExchangeForm(kind: PayoutKind) {
  const base = {
    email: emailField(),
    fullName: limited(200),
    reason: limited(1000),
    agreeTerms: agreement(),
    agreeAml: agreement(),
  };
  if (kind === 'crypto') return z.object({ ...base, walletAddress: walletAddress() });
  if (kind === 'fiat') return z.object({ ...base, iban: iban() });
  return z.object(base);
}

/** Maps the createExchange action's field problems (`extensions.fields`) to i18n keys. */
export function exchangeProblemMessage(problem: string): string {
  switch (problem) {
    case 'required':
      return MESSAGES.required;
    case 'invalid-email':
      return MESSAGES.email;
    default:
      return `exchange:create.errors.${problem}`;
  }
}

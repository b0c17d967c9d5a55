import * as z from 'zod/mini';

import type { CatalogKey } from '../i18n/resource-types.ts';

import { emailField, MESSAGES, requiredText } from './fields.ts';
import { electronicIban, IBAN_SHAPE, MEMO_MAX_LENGTH, WALLET_ADDRESS } from './patterns.ts';

/*
 * The order form of /create-transaction/{pair} (spec sections 2 and 5): e-mail, full name, the
 * payout target the direction needs (a wallet address when the user receives crypto, an IBAN
 * for fiat, nothing for cash), the reason, and both agreements. The server checks the address
 * for its network and the IBAN's checksum again; these catch the common mistakes first.
 *
 * Issue 10 adds optional fields a client shows when they apply ({@link ExchangeFormOptions}):
 * the payout's memo or destination tag, and where a refund would go (an address on the send
 * currency's network with its memo, or an IBAN when paying by bank). Empty, they are left out
 * of the parsed values; a client that does not show them gets them dropped.
 */

export const EXCHANGE_MESSAGES = {
  mustAgree: 'exchange:create.errors.must-agree',
  invalidWallet: 'exchange:create.errors.invalid-wallet-address',
  invalidIban: 'exchange:create.errors.invalid-iban',
  tooLong: 'exchange:create.errors.too-long',
} as const satisfies Record<string, CatalogKey>;

export type PayoutKind = 'crypto' | 'fiat' | 'cash';

const agreement = () => z.boolean().check(z.refine((value) => value, EXCHANGE_MESSAGES.mustAgree));

const limited = (max: number) => requiredText().check(z.maxLength(max, EXCHANGE_MESSAGES.tooLong));

/** A wallet address: required, then {@link WALLET_ADDRESS}. */
const walletAddress = () =>
  requiredText().check(
    z.refine(
      (value) => value === '' || WALLET_ADDRESS.test(value),
      EXCHANGE_MESSAGES.invalidWallet,
    ),
  );

/** An IBAN in its electronic form: country, check digits, up to 30 letters and digits. */
const iban = () =>
  z.string({ error: MESSAGES.required }).check(
    z.overwrite(electronicIban),
    z.minLength(1, MESSAGES.required),
    z.refine((value) => value === '' || IBAN_SHAPE.test(value), EXCHANGE_MESSAGES.invalidIban),
  );

/** An optional field: trimmed, checked when given, left out (`undefined`) when empty. */
const optional = (text: z.ZodMiniString<string>) =>
  z.pipe(
    z.optional(text),
    z.transform((value: string | undefined) => (value ? value : undefined)),
  );

const optionalMemo = () =>
  optional(z.string().check(z.trim(), z.maxLength(MEMO_MAX_LENGTH, EXCHANGE_MESSAGES.tooLong)));

const optionalWallet = () =>
  optional(
    z.string().check(
      z.trim(),
      z.refine(
        (value) => value === '' || WALLET_ADDRESS.test(value),
        EXCHANGE_MESSAGES.invalidWallet,
      ),
    ),
  );

const optionalIban = () =>
  optional(
    z.string().check(
      z.overwrite(electronicIban),
      z.refine((value) => value === '' || IBAN_SHAPE.test(value), EXCHANGE_MESSAGES.invalidIban),
    ),
  );

/** A field that does not apply: whatever it holds is dropped. */
const dropped = () => optional(z.string().check(z.overwrite(() => '')));

/** The order form's fields, in the order the form shows them (the first with an error gets focus). */
export const EXCHANGE_FORM_FIELDS = [
  'email',
  'fullName',
  'walletAddress',
  'payoutMemo',
  'iban',
  'refundAddress',
  'refundMemo',
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
  /** Issue 10, optional: the payout's memo / destination tag. */
  payoutMemo?: string;
  /** Issue 10, optional: a refund address on the send network, or an IBAN when paying by bank. */
  refundAddress?: string;
  /** Issue 10, optional: the refund address's memo / destination tag. */
  refundMemo?: string;
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
  payoutMemo: '',
  refundAddress: '',
  refundMemo: '',
});

/** The optional fields of issue 10 that apply to a direction (none by default). */
export interface ExchangeFormOptions {
  /** The received currency's network uses a memo / destination tag (crypto payouts only). */
  payoutMemo?: boolean;
  /** The kind of the sent currency, when the form offers a refund target (none for cash). */
  refundKind?: PayoutKind;
  /** The sent currency's network uses a memo (with a crypto refund address). */
  refundMemo?: boolean;
}

function optionalFields(kind: PayoutKind, options: ExchangeFormOptions) {
  return {
    payoutMemo: options.payoutMemo && kind === 'crypto' ? optionalMemo() : dropped(),
    refundAddress:
      options.refundKind === 'crypto'
        ? optionalWallet()
        : options.refundKind === 'fiat'
          ? optionalIban()
          : dropped(),
    refundMemo: options.refundKind === 'crypto' && options.refundMemo ? optionalMemo() : dropped(),
  };
}

/**
 * The form's schema for a direction whose received currency is of `kind`, with the optional
 * fields `options` turns on.
 */
export function createExchangeForm(kind: PayoutKind, options: ExchangeFormOptions = {}) {
  const base = {
    email: emailField(),
    fullName: limited(200),
    reason: limited(1000),
    agreeTerms: agreement(),
    agreeAml: agreement(),
    ...optionalFields(kind, options),
  };
  if (kind === 'crypto') return z.object({ ...base, walletAddress: walletAddress() });
  if (kind === 'fiat') return z.object({ ...base, iban: iban() });
  return z.object(base);
}

/**
 * The createExchange action's field problems (`extensions.fields`): the schema's messages as
 * codes, and `not-applicable` / `invalid` for what only the server checks.
 */
export const EXCHANGE_PROBLEMS = [
  'required',
  'invalid-email',
  'too-long',
  'invalid-wallet-address',
  'invalid-iban',
  'not-applicable',
  'must-agree',
  'invalid',
] as const;
export type ExchangeProblem = (typeof EXCHANGE_PROBLEMS)[number];

/** Maps the createExchange action's field problems (`extensions.fields`) to i18n keys. */
export function exchangeProblemMessage(problem: string): CatalogKey {
  return Object.hasOwn(PROBLEM_MESSAGES, problem)
    ? PROBLEM_MESSAGES[problem as ExchangeProblem]
    : PROBLEM_MESSAGES.invalid;
}

const PROBLEM_MESSAGES = {
  required: MESSAGES.required,
  'invalid-email': MESSAGES.email,
  'too-long': EXCHANGE_MESSAGES.tooLong,
  'invalid-wallet-address': EXCHANGE_MESSAGES.invalidWallet,
  'invalid-iban': EXCHANGE_MESSAGES.invalidIban,
  'not-applicable': 'exchange:create.errors.not-applicable',
  'must-agree': EXCHANGE_MESSAGES.mustAgree,
  invalid: 'exchange:create.errors.invalid',
} as const satisfies Record<ExchangeProblem, CatalogKey>;

/** The problem code of one of the schema's messages (the action answers codes, not keys). */
export const exchangeProblemOf = (message: string): ExchangeProblem =>
  EXCHANGE_PROBLEMS.find((problem) => exchangeProblemMessage(problem) === message) ?? 'invalid';

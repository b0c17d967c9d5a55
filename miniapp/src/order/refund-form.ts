import * as z from 'zod/mini';

import {
  electronicIban,
  EXCHANGE_MESSAGES,
  IBAN_SHAPE,
  MEMO_MAX_LENGTH,
  MESSAGES,
  validateForm,
  WALLET_ADDRESS,
  type FieldErrors,
} from '@app/shared/forms';

/*
 * Where a refund goes (decision 015, resolvePaymentIssue): an address on the send currency's
 * network (with a memo where the network uses one) when the user paid in crypto, an IBAN when
 * they paid by bank, nothing for cash (returned at the cash point). The server checks the
 * address for its network and the IBAN's checksum again; these catch the common mistakes first,
 * with the order form's messages.
 */

export type RefundKind = 'crypto' | 'fiat' | 'cash';

export interface RefundValues {
  refundAddress: string;
  refundMemo: string;
}

export type RefundField = keyof RefundValues;

/** What the owner sends with a refund: the address (or IBAN) and memo, each only when it applies. */
export interface RefundTarget {
  refundAddress?: string;
  refundMemo?: string;
}

/** Addresses are 10 to 128 characters without spaces on every network (the database's CHECK). */
const address = () =>
  z.string({ error: MESSAGES.required }).check(
    z.trim(),
    z.minLength(1, MESSAGES.required),
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

/** A memo or destination tag: optional, at most 64 characters. */
const memo = () =>
  z.string().check(z.trim(), z.maxLength(MEMO_MAX_LENGTH, EXCHANGE_MESSAGES.tooLong));

/** The refund form's schema for a send currency of `kind`; the memo only where it is used. */
export function refundForm(kind: RefundKind, memoRequired: boolean) {
  if (kind === 'cash') return z.object({});
  if (kind === 'fiat') return z.object({ refundAddress: iban() });
  return memoRequired
    ? z.object({ refundAddress: address(), refundMemo: memo() })
    : z.object({ refundAddress: address() });
}

/** Validates the refund form: the mutation's arguments, or each field's first problem (i18n key). */
export function validateRefund(
  kind: RefundKind,
  memoRequired: boolean,
  values: RefundValues,
): { ok: true; target: RefundTarget } | { ok: false; errors: FieldErrors<RefundField> } {
  const parsed = validateForm(refundForm(kind, memoRequired), values);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const data = parsed.data as Partial<RefundValues>;
  const target: RefundTarget = {};
  if (data.refundAddress) target.refundAddress = data.refundAddress;
  if (data.refundMemo) target.refundMemo = data.refundMemo;
  return { ok: true, target };
}

/** The send currency's kind as the refund form needs it (a missing row is treated as crypto). */
export function refundKindOf(kind: string | null | undefined): RefundKind {
  return kind === 'fiat' || kind === 'cash' ? kind : 'crypto';
}

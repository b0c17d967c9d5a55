import * as z from 'zod/mini';

import {
  electronicIban,
  EXCHANGE_MESSAGES,
  IBAN_SHAPE,
  MEMO_MAX_LENGTH,
  MESSAGES,
  WALLET_ADDRESS,
} from '@app/shared/forms';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

/*
 * The owner's choice on an order that needs it (issue 10, `resolvePaymentIssue`): continue at
 * the current rate, or a refund. A refund goes to an address on the send currency's network
 * (with a memo where the network uses one), to an IBAN when the order was paid by bank, and
 * nowhere for cash (returned at the cash point). The action checks the address for its network
 * and the IBAN's checksum again.
 */

export type RefundKind = 'crypto' | 'fiat' | 'cash';

export const REFUND_MEMO_MAX = MEMO_MAX_LENGTH;

export interface RefundFormValues {
  refundAddress: string;
  refundMemo: string;
}

const optionalMemo = () =>
  z.pipe(
    z.string().check(z.trim(), z.maxLength(REFUND_MEMO_MAX, EXCHANGE_MESSAGES.tooLong)),
    z.transform((value: string) => (value === '' ? undefined : value)),
  );

/** The refund form's schema for a send currency of `kind`. */
export function refundForm(kind: RefundKind) {
  if (kind === 'crypto') {
    return z.object({
      refundAddress: z.string({ error: MESSAGES.required }).check(
        z.trim(),
        z.minLength(1, MESSAGES.required),
        z.refine(
          (value) => value === '' || WALLET_ADDRESS.test(value),
          EXCHANGE_MESSAGES.invalidWallet,
        ),
      ),
      refundMemo: optionalMemo(),
    });
  }
  if (kind === 'fiat') {
    return z.object({
      refundAddress: z.string({ error: MESSAGES.required }).check(
        z.overwrite(electronicIban),
        z.minLength(1, MESSAGES.required),
        z.refine((value) => value === '' || IBAN_SHAPE.test(value), EXCHANGE_MESSAGES.invalidIban),
      ),
    });
  }
  return z.object({});
}

/** What the page knows of a failed `resolvePaymentIssue`. */
export interface ChoiceFailure {
  code: string | undefined;
  field?: string | undefined;
  message?: string | undefined;
}

/** The engine's answer to a refused request, or a network failure. */
export function choiceFailureOf(error: unknown): ChoiceFailure {
  if (GraphqlRequestError.is(error)) {
    const field = error.errors[0]?.extensions?.['field'];
    return {
      code: error.code,
      field: typeof field === 'string' ? field : undefined,
      message: error.message,
    };
  }
  return { code: 'network-error' };
}

/**
 * Where to show a refused choice and with which text (an i18n key): a refund address or memo
 * the action refused goes under its field; anything else above the choice.
 */
export function choiceFailureMessage(failure: ChoiceFailure): {
  field?: 'refundAddress' | 'refundMemo';
  message: string | string[];
} {
  const text = failure.message ?? '';
  if (failure.code === 'invalid-input' || failure.code === 'validation-failed') {
    if (failure.field === 'refundAddress') {
      if (/required/i.test(text)) return { field: 'refundAddress', message: MESSAGES.required };
      if (/iban/i.test(text))
        return { field: 'refundAddress', message: EXCHANGE_MESSAGES.invalidIban };
      if (/wallet|address/i.test(text))
        return { field: 'refundAddress', message: EXCHANGE_MESSAGES.invalidWallet };
      return { field: 'refundAddress', message: 'exchange:create.errors.invalid' };
    }
    if (failure.field === 'refundMemo') {
      if (/at most/i.test(text)) return { field: 'refundMemo', message: EXCHANGE_MESSAGES.tooLong };
      return { field: 'refundMemo', message: 'exchange:create.errors.not-applicable' };
    }
  }
  const code = failure.code ?? 'unexpected';
  // A continuation is a new quote: its refusals (below the minimum, stale rates, ...) are the
  // exchange widget's.
  return {
    message: [
      `trust:action.errors.${code}`,
      `home:widget.errors.${code}`,
      'common:notify.somethingWentWrong',
    ],
  };
}

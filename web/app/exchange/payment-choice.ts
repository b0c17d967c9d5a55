import * as z from 'zod/mini';

import {
  electronicIban,
  EXCHANGE_MESSAGES,
  exchangeProblemMessage,
  IBAN_SHAPE,
  MEMO_MAX_LENGTH,
  MESSAGES,
  WALLET_ADDRESS,
} from '@app/shared/forms';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';
import { refusalKeys } from '@app/shared/errors';

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
  /** The order form's code for what is wrong with `field` (`required`, `invalid-iban`, ...). */
  problem?: string | undefined;
  message?: string | undefined;
}

/** The engine's answer to a refused request, or a network failure. */
export function choiceFailureOf(error: unknown): ChoiceFailure {
  if (GraphqlRequestError.is(error)) {
    const field = error.errors[0]?.extensions?.['field'];
    const problem = error.errors[0]?.extensions?.['problem'];
    return {
      code: error.code,
      field: typeof field === 'string' ? field : undefined,
      problem: typeof problem === 'string' ? problem : undefined,
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
  const field = failure.field;
  if (
    (failure.code === 'invalid-input' || failure.code === 'validation-failed') &&
    (field === 'refundAddress' || field === 'refundMemo')
  ) {
    const message = exchangeProblemMessage(failure.problem ?? 'invalid');
    return { field, message };
  }
  const code = failure.code ?? 'unexpected';
  // A continuation is a new quote: its refusals (below the minimum, stale rates, ...) are the
  // exchange widget's.
  return {
    message: refusalKeys(
      code,
      [`trust:action.errors.${code}`, `home:widget.errors.${code}`],
      'common:notify.somethingWentWrong',
    ),
  };
}

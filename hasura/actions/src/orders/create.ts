import { isValidIBAN } from 'ibantools';
import type pg from 'pg';

import {
  createExchangeForm,
  electronicIban,
  EXCHANGE_FORM_FIELDS,
  exchangeProblemOf,
  validateForm,
  type ExchangeProblem,
} from '@app/shared/forms';
import { isLocale } from '@app/shared/i18n';

import { inSession } from '../db/session.ts';
import { text } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { Caller } from '../http/payload.ts';
import { requireUser } from '../http/roles.ts';
import { isValidAddress } from '../validation/address.ts';

import { serverQuote } from './quote.ts';
import { checkUnprovenOrderLimits } from './unproven-limits.ts';

/** The English text of a problem, for the error's message (the clients translate the code). */
const PROBLEM_TEXT: Record<ExchangeProblem, string> = {
  required: 'The field is required',
  'invalid-email': 'Invalid email',
  'too-long': 'The value is too long',
  'invalid-wallet-address': 'Invalid wallet address for this network',
  'invalid-iban': 'Invalid IBAN',
  'not-applicable': 'The field does not apply to this exchange direction',
  'must-agree': 'You must agree to continue',
  invalid: 'The value is not valid',
};

/** Spec section 9: the operator supplies requisites in 2 to 10 minutes. */
export const OPERATOR_PROMISE_MINUTES = 10;

export interface CreatedOrder {
  id: string;
  number: string;
  sendAmount: string;
  receiveAmount: string;
  rate: string;
  status: string;
}

export interface CreateOptions {
  pool: pg.Pool;
  caller: Caller;
  sessionVariables: Record<string, string>;
  input: Record<string, unknown>;
  now: Date;
  maxRateAgeSeconds: number;
}

const ORDER_COLUMNS = `id, number::text AS number, send_amount::text AS "sendAmount",
  receive_amount::text AS "receiveAmount", rate::text AS rate, status`;

/**
 * `createExchange`: checks the form, recomputes the quote on the server (the client sends the
 * pair, the side and one amount; nothing else it says about money is read), validates the
 * payout target for the received currency and inserts the order for the session's user. The
 * idempotency key makes a repeated request return the order the first one created.
 */
export async function createExchange(options: CreateOptions): Promise<CreatedOrder> {
  const { pool, caller, input } = options;
  requireUser(caller, 'Only a signed-in user can create an exchange.');
  const userId = caller.userId;

  // What only the server knows of: the request's key and locale.
  const key = typeof input['idempotencyKey'] === 'string' ? input['idempotencyKey'] : '';
  const locale = text(input['locale']) ?? 'en';
  const requestProblems: Record<string, ExchangeProblem> = {};
  if (key.length < 8 || key.length > 128) requestProblems['idempotencyKey'] = 'invalid';
  if (!isLocale(locale)) requestProblems['locale'] = 'invalid';

  // An order already made with this key is the answer to a repeated click, whatever the rates
  // do meanwhile.
  if (requestProblems['idempotencyKey'] === undefined) {
    const existing = await findByKey(pool, userId, key);
    if (existing) return existing;
  }

  const { quote, from, to } = await serverQuote(pool, {
    from: input['from'],
    to: input['to'],
    side: input['side'],
    amount: input['amount'],
    userId,
    now: options.now,
    maxRateAgeSeconds: options.maxRateAgeSeconds,
  });

  // The form, judged by the schema the clients use for this direction, then by what only the
  // server checks: fields that do not apply, an address for its network, an IBAN's checksum.
  const form = createExchangeForm(to.kind, {
    payoutMemo: true,
    refundKind: from.kind,
    refundMemo: true,
  });
  const checked = validateForm(form, formValues(input));
  const problems: Record<string, ExchangeProblem> = {};
  if (!checked.ok) {
    for (const [field, message] of Object.entries(checked.errors))
      if (message) problems[field] = exchangeProblemOf(message);
  }
  Object.assign(problems, requestProblems);
  const serverProblems = directionProblems(input, to, from);
  for (const [field, problem] of Object.entries(serverProblems)) problems[field] ??= problem;

  const fields = Object.keys(problems);
  if (!checked.ok || fields.length > 0) {
    const first = fields[0] ?? 'form';
    throw new ActionFailure(
      'validation-failed',
      `${first}: ${PROBLEM_TEXT[problems[first] ?? 'invalid']}`,
      400,
      { fields: problems },
    );
  }
  const values = checked.data;
  const payoutAddress = 'walletAddress' in values ? values.walletAddress : null;
  const payoutIban = 'iban' in values ? values.iban : null;
  const refundTo = values.refundAddress ?? null;

  // As the engine does for mutations: triggers (status history) see the acting user.
  const inserted = await inSession(pool, options.sessionVariables, async (client) => {
    await checkUnprovenOrderLimits(client, userId, key);
    return client.query<CreatedOrder>(
      `INSERT INTO public.transactions
         (user_id, send_currency, receive_currency, send_amount, receive_amount, rate,
          email, full_name, wallet_address, iban, reason, locale, idempotency_key, amount_usdt,
          payout_memo, refund_address, refund_memo, requisites_due_at)
       VALUES ($1, $2, $3, $4::numeric, $5::numeric, $6::numeric, $7, $8, $9, $10, $11, $12, $13,
               trunc($4::numeric * $14::numeric, 6), $15, $16, $17,
               $18::timestamptz + interval '${OPERATOR_PROMISE_MINUTES} minutes')
       ON CONFLICT ON CONSTRAINT transactions_user_idempotency_key DO NOTHING
       RETURNING ${ORDER_COLUMNS}`,
      [
        userId,
        quote.from,
        quote.to,
        quote.send,
        quote.receive,
        quote.rate,
        values.email,
        values.fullName,
        payoutAddress,
        payoutIban,
        values.reason,
        locale,
        key,
        // The order's market value in USDT: the base of the referrer's bonus.
        quote.legs.from.marketPrice,
        values.payoutMemo ?? null,
        refundTo,
        refundTo === null ? null : (values.refundMemo ?? null),
        // The operator's promise runs from now, or from the opening of the direction's window
        // when the order came in outside it (decision 015).
        quote.processing.mode === 'next-window' ? quote.processing.at : options.now.toISOString(),
      ],
    );
  });
  const order = inserted.rows[0] ?? (await findByKey(pool, userId, key));
  if (!order) throw new Error('order vanished after an idempotency conflict');
  return order;
}

/** The form's fields as the schema reads them: the texts given, and whether each box is ticked. */
function formValues(input: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of EXCHANGE_FORM_FIELDS) {
    const value = input[field];
    if (field === 'agreeTerms' || field === 'agreeAml') values[field] = value === true;
    else if (typeof value === 'string') values[field] = value;
  }
  return values;
}

interface Side {
  kind: 'crypto' | 'fiat' | 'cash';
  network: string | null;
}

/**
 * The server-only checks of the payout and refund targets: a field the direction has no use
 * for is refused (the schema would drop it), an address must be valid on its network, an IBAN
 * must pass its checksum. Fields the schema already refused are judged by the schema.
 */
function directionProblems(
  input: Record<string, unknown>,
  to: Side,
  from: Side,
): Record<string, ExchangeProblem> {
  const problems: Record<string, ExchangeProblem> = {};
  const walletAddress = text(input['walletAddress']);
  const iban = text(input['iban']);
  const refundAddress = text(input['refundAddress']);

  // Where the payout goes depends on what the user receives; cash is handed out at a point of
  // issue, to neither a wallet nor an account.
  if (walletAddress !== undefined) {
    if (to.kind !== 'crypto') problems['walletAddress'] = 'not-applicable';
    else if (!isValidAddress(to.network ?? '', walletAddress))
      problems['walletAddress'] = 'invalid-wallet-address';
  }
  if (iban !== undefined) {
    if (to.kind !== 'fiat') problems['iban'] = 'not-applicable';
    else if (!isValidIBAN(electronicIban(iban))) problems['iban'] = 'invalid-iban';
  }
  // A memo or tag goes with a crypto payout address.
  if (text(input['payoutMemo']) !== undefined && to.kind !== 'crypto')
    problems['payoutMemo'] = 'not-applicable';

  // Where a refund would go, if the user gives it up front: the network the user pays from,
  // or an IBAN when paying by bank; cash is returned at the cash point.
  if (refundAddress !== undefined) {
    if (from.kind === 'crypto') {
      if (!isValidAddress(from.network ?? '', refundAddress))
        problems['refundAddress'] = 'invalid-wallet-address';
    } else if (from.kind === 'fiat') {
      if (!isValidIBAN(electronicIban(refundAddress))) problems['refundAddress'] = 'invalid-iban';
    } else {
      problems['refundAddress'] = 'not-applicable';
    }
  }
  if (
    text(input['refundMemo']) !== undefined &&
    (from.kind !== 'crypto' || refundAddress === undefined)
  )
    problems['refundMemo'] = 'not-applicable';
  return problems;
}

async function findByKey(
  db: Pick<pg.Pool, 'query'>,
  userId: string,
  key: string,
): Promise<CreatedOrder | undefined> {
  const { rows } = await db.query<CreatedOrder>(
    `SELECT ${ORDER_COLUMNS} FROM public.transactions WHERE user_id = $1 AND idempotency_key = $2`,
    [userId, key],
  );
  return rows[0];
}

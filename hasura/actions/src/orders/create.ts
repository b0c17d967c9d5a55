import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type pg from 'pg';

import { inSession } from '../db/session.ts';
import { EMAIL, text } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { Caller } from '../http/payload.ts';
import { requireUser } from '../http/roles.ts';
import { isValidAddress } from '../validation/address.ts';

import { serverQuote } from './quote.ts';
import { checkUnprovenOrderLimits } from './unproven-limits.ts';

/** Per-field problems, codes the clients translate (spec section 5). */
export type FieldProblem =
  | 'required'
  | 'invalid-email'
  | 'too-long'
  | 'invalid-wallet-address'
  | 'invalid-iban'
  | 'not-applicable'
  | 'must-agree'
  | 'invalid';

const PROBLEM_TEXT: Record<FieldProblem, string> = {
  required: 'The field is required',
  'invalid-email': 'Invalid email',
  'too-long': 'The value is too long',
  'invalid-wallet-address': 'Invalid wallet address for this network',
  'invalid-iban': 'Invalid IBAN',
  'not-applicable': 'The field does not apply to this exchange direction',
  'must-agree': 'You must agree to continue',
  invalid: 'The value is not valid',
};

const LOCALES = new Set(['en', 'ru', 'ua']);

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

  const problems: Record<string, FieldProblem> = {};
  const email = text(input['email']);
  const fullName = text(input['fullName']);
  const reason = text(input['reason']);
  const walletAddress = text(input['walletAddress']);
  const iban = text(input['iban']);
  const payoutMemo = text(input['payoutMemo']);
  const refundAddress = text(input['refundAddress']);
  const refundMemo = text(input['refundMemo']);
  const key = typeof input['idempotencyKey'] === 'string' ? input['idempotencyKey'] : '';
  const locale = text(input['locale']) ?? 'en';

  if (email === undefined) problems['email'] = 'required';
  else if (email.length > 254) problems['email'] = 'too-long';
  else if (!EMAIL.test(email)) problems['email'] = 'invalid-email';
  if (fullName === undefined) problems['fullName'] = 'required';
  else if (fullName.length > 200) problems['fullName'] = 'too-long';
  if (reason === undefined) problems['reason'] = 'required';
  else if (reason.length > 1000) problems['reason'] = 'too-long';
  if (input['agreeTerms'] !== true) problems['agreeTerms'] = 'must-agree';
  if (input['agreeAml'] !== true) problems['agreeAml'] = 'must-agree';
  if (key.length < 8 || key.length > 128) problems['idempotencyKey'] = 'invalid';
  if (!LOCALES.has(locale)) problems['locale'] = 'invalid';
  if (payoutMemo !== undefined && payoutMemo.length > 64) problems['payoutMemo'] = 'too-long';
  if (refundMemo !== undefined && refundMemo.length > 64) problems['refundMemo'] = 'too-long';

  // An order already made with this key is the answer to a repeated click, whatever the rates
  // do meanwhile.
  if (problems['idempotencyKey'] === undefined) {
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

  // Where the payout goes depends on what the user receives.
  let payoutAddress: string | null = null;
  let payoutIban: string | null = null;
  if (to.kind === 'crypto') {
    if (iban !== undefined) problems['iban'] = 'not-applicable';
    if (walletAddress === undefined) problems['walletAddress'] = 'required';
    else if (!isValidAddress(to.network ?? '', walletAddress))
      problems['walletAddress'] = 'invalid-wallet-address';
    else payoutAddress = walletAddress;
  } else if (to.kind === 'fiat') {
    if (walletAddress !== undefined) problems['walletAddress'] = 'not-applicable';
    const electronic = iban === undefined ? undefined : electronicFormatIBAN(iban);
    if (iban === undefined) problems['iban'] = 'required';
    else if (!electronic || !isValidIBAN(electronic)) problems['iban'] = 'invalid-iban';
    else payoutIban = electronic;
  } else {
    // Cash is handed out at a point of issue: neither a wallet nor an account.
    if (walletAddress !== undefined) problems['walletAddress'] = 'not-applicable';
    if (iban !== undefined) problems['iban'] = 'not-applicable';
  }
  // A memo or tag goes with a crypto payout address.
  if (payoutMemo !== undefined && to.kind !== 'crypto') problems['payoutMemo'] = 'not-applicable';

  // Where a refund would go, if the user gives it up front: the network the user pays from,
  // or an IBAN when paying by bank; cash is returned at the cash point.
  let refundTo: string | null = null;
  if (refundAddress !== undefined) {
    if (from.kind === 'crypto') {
      if (!isValidAddress(from.network ?? '', refundAddress))
        problems['refundAddress'] = 'invalid-wallet-address';
      else refundTo = refundAddress;
    } else if (from.kind === 'fiat') {
      const electronic = electronicFormatIBAN(refundAddress);
      if (!electronic || !isValidIBAN(electronic)) problems['refundAddress'] = 'invalid-iban';
      else refundTo = electronic;
    } else {
      problems['refundAddress'] = 'not-applicable';
    }
  }
  if (refundMemo !== undefined && (from.kind !== 'crypto' || refundAddress === undefined))
    problems['refundMemo'] = 'not-applicable';

  const fields = Object.keys(problems);
  if (fields.length > 0) {
    const first = fields[0]!;
    throw new ActionFailure(
      'validation-failed',
      `${first}: ${PROBLEM_TEXT[problems[first]!]}`,
      400,
      { fields: problems },
    );
  }

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
        email,
        fullName,
        payoutAddress,
        payoutIban,
        reason,
        locale,
        key,
        // The order's market value in USDT: the base of the referrer's bonus.
        quote.legs.from.marketPrice,
        payoutMemo ?? null,
        refundTo,
        refundTo === null ? null : (refundMemo ?? null),
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

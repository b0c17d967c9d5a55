import { parse } from 'lossless-json';
import * as z from 'zod';

import { ACTION_REASONS, HOLD_CATEGORIES, ORDER_STATUSES } from '@app/shared/orders/vocabulary';

import { ActionFailure } from '../http/errors.ts';

/*
 * The body the engine POSTs for a table event (Hasura's event trigger payload):
 *
 *   { id, created_at, trigger: { name }, table: { schema, name },
 *     event: { op, data: { old, new }, session_variables, trace_context },
 *     delivery_info: { max_retries, current_retry } }
 *
 * Parsed with every JSON number kept as its digits, so amounts stay exact even when the
 * engine does not stringify numeric types (HASURA_GRAPHQL_STRINGIFY_NUMERIC_TYPES=false).
 */

const Row = z.record(z.string(), z.unknown());

export const EventPayload = z.looseObject({
  /** Hasura's event id (a UUID); a repeat delivery of one event carries the same id. */
  id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
  created_at: z.string().optional(),
  trigger: z.looseObject({ name: z.string().min(1) }),
  table: z.looseObject({ schema: z.string(), name: z.string() }),
  event: z.looseObject({
    op: z.enum(['INSERT', 'UPDATE', 'DELETE', 'MANUAL']),
    data: z.looseObject({ old: Row.nullable().optional(), new: Row.nullable().optional() }),
  }),
});
export type EventPayload = z.infer<typeof EventPayload>;

/** A malformed event: answered 400 (Hasura still retries it num_retries times; it stays 400). */
export const invalidEvent = (message: string) => new ActionFailure('invalid-payload', message, 400);

export function parseEventPayload(body: string): EventPayload {
  let value: unknown;
  try {
    value = parse(body, null, (digits) => digits);
  } catch {
    throw invalidEvent('The request body is not valid JSON.');
  }
  const parsed = EventPayload.safeParse(value);
  if (!parsed.success) throw invalidEvent('The request body is not an event trigger payload.');
  return parsed.data;
}

/** Parses a row of `data.old` / `data.new` with `schema`; a mismatch is a malformed event. */
export function parseRow<T extends z.ZodType>(schema: T, row: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(row);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
    throw invalidEvent(`${what} is not a row of the expected shape (${fields.join(', ')}).`);
  }
  return parsed.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A digits-only JSON number (lossless) or a stringified numeric, as a string. */
const Decimal = z
  .union([z.string(), z.number()])
  .transform(String)
  .pipe(z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/));
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** An optional numeric column (absent from events written before it existed). */
const optionalDecimal = Decimal.nullish().transform((value) => value ?? null);
/** An optional enum column; a value this code does not know reads as absent. */
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .enum(values)
    .nullish()
    .catch(null)
    .transform((value) => value ?? null);

/**
 * The columns of `public.transactions` the order e-mails use. Never the requisites (deposit
 * address, memo, bank account, payment reference): e-mails do not carry them (decision 015).
 * The columns of issue 10 are optional, so events logged before them still parse.
 */
export const OrderRow = z.looseObject({
  id: z.string().regex(UUID),
  // The owner, whose proven address alone gets the mail (recipient.ts).
  user_id: z
    .string()
    .regex(UUID)
    .nullish()
    .transform((value) => value ?? null),
  number: Decimal,
  send_currency: z.string().min(1),
  receive_currency: z.string().min(1),
  send_amount: Decimal,
  receive_amount: Decimal,
  status: z.enum(ORDER_STATUSES),
  email: z.string().min(3),
  full_name: z.string(),
  locale: z.string().nullish(),
  wallet_address: text,
  iban: text,
  payout_memo: text,
  payout_tx_id: text,
  canceled_by: z
    .enum(['user', 'staff'])
    .nullish()
    .transform((value) => value ?? null),
  cancel_reason: text,
  // Issue 10 (decision 015): deadlines, the re-quote, side states, refunds.
  created_at: text,
  requisites_due_at: text,
  requisites_late_at: text,
  pay_by: text,
  quoted_receive_amount: optionalDecimal,
  requoted_at: text,
  received_amount: optionalDecimal,
  action_reason: optionalEnum(ACTION_REASONS),
  hold_category: optionalEnum(HOLD_CATEGORIES),
  settled_receive_amount: optionalDecimal,
  refund_address: text,
  refund_memo: text,
  refund_tx_id: text,
});
export type OrderRow = z.infer<typeof OrderRow>;

/** The columns of `public.support_requests` the staff e-mail uses. */
export const SupportRequestRow = z.looseObject({
  id: z.string().regex(UUID),
  name: text,
  email: z.string().min(3),
  order_id: text,
  subject: text,
  message: z.string(),
  created_at: text,
});
export type SupportRequestRow = z.infer<typeof SupportRequestRow>;

/** The columns of public.chain_payments the confirmed-payment event reads. */
export const ChainPaymentRow = z.looseObject({
  id: z.string().regex(UUID),
  state: z.enum(['seen', 'confirmed', 'dropped']),
});

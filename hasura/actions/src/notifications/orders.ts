import type pg from 'pg';

import { localeOrDefault, type Locale } from '@app/shared/i18n';
import type { MailMessage } from '@app/shared/mail';

import { orderLinkToken, orderLinkUrl } from '../orders/link-token.ts';

import { ORDER_TEMPLATES, type OrderFacts, type OrderTemplates } from './order-templates.ts';
import type { OrderRow } from './payload.ts';
import { orderRecipient } from './recipient.ts';
import { oneLine, render, type Letter } from './render.ts';

/*
 * Which e-mail an order event sends, with what the payload lacks read from the database: the
 * currencies' display names. Never the payment details: the letters link to the signed-in
 * order page, which shows them next to the user's anti-phishing phrase (decision 015).
 */

export type Db = Pick<pg.Pool, 'query'>;

/** The web portal's pages for an order, with the locale prefix (none for English). */
export function orderLinks(baseUrl: string, locale: Locale, id: string) {
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return {
    link: `${baseUrl}${prefix}/transaction/${id}`,
    home: `${baseUrl}${prefix}/`,
    contact: `${baseUrl}${prefix}/contact`,
  };
}

interface CurrencyLabel {
  code: string;
  symbol: string;
  kind: string;
  network: string | null;
}

async function currencyLabels(db: Db, codes: string[]): Promise<Map<string, CurrencyLabel>> {
  const { rows } = await db.query<CurrencyLabel>(
    'SELECT code, symbol, kind, network FROM public.currencies WHERE code = ANY($1::text[])',
    [codes],
  );
  return new Map(rows.map((row) => [row.code, row]));
}

/** `USDT (TRC20)`, `BTC`, `EUR`, `USD (cash)`; the code itself when the currency is unknown. */
function currencyName(labels: Map<string, CurrencyLabel>, code: string, t: OrderTemplates) {
  const label = labels.get(code);
  if (!label) return code;
  if (label.kind === 'cash') return `${label.symbol} (${t.cash})`;
  if (label.network && label.network !== label.symbol) return `${label.symbol} (${label.network})`;
  return label.symbol;
}

/** An exact decimal as people read it: `0.01500000` -> `0.015`, `1000.00` -> `1000`. */
export const displayAmount = (value: string): string =>
  value.includes('.') && !/e/i.test(value) ? value.replace(/\.?0+$/, '') : value;

/**
 * A timestamp of the event row (`row_to_json`: `2026-01-05T14:30:00.123456+03:00`) as
 * `2026-01-05 11:30 UTC`; null when absent or unreadable.
 */
export function utcTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const normalized = value
    .trim()
    .replace(' ', 'T')
    // Microseconds: JavaScript reads milliseconds.
    .replace(/(\.\d{3})\d+/, '$1')
    // `+03` -> `+03:00`.
    .replace(/([+-]\d{2})$/, '$1:00');
  const time = new Date(normalized);
  if (Number.isNaN(time.getTime())) return null;
  return `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

interface Context {
  locale: Locale;
  t: OrderTemplates;
  o: OrderFacts;
  /** An amount of the send / receive currency, display-ready. */
  sendAmount: (value: string) => string;
  receiveAmount: (value: string) => string;
  sendIsCash: boolean;
}

async function context(db: Db, order: OrderRow, baseUrl: string): Promise<Context> {
  const locale = localeOrDefault(order.locale);
  const t = ORDER_TEMPLATES[locale];
  const labels = await currencyLabels(db, [order.send_currency, order.receive_currency]);
  const sendAmount = (value: string) =>
    `${displayAmount(value)} ${currencyName(labels, order.send_currency, t)}`;
  const receiveAmount = (value: string) =>
    `${displayAmount(value)} ${currencyName(labels, order.receive_currency, t)}`;
  const o: OrderFacts = {
    number: order.number,
    send: sendAmount(order.send_amount),
    receive: receiveAmount(order.receive_amount),
    payoutTo: order.wallet_address ?? order.iban,
    payoutMemo: order.payout_memo === null ? null : oneLine(order.payout_memo, 64),
    ...orderLinks(baseUrl, locale, order.id),
  };
  return {
    locale,
    t,
    o,
    sendAmount,
    receiveAmount,
    sendIsCash: labels.get(order.send_currency)?.kind === 'cash',
  };
}

export type StatusMail =
  { kind: 'mail'; template: string; message: MailMessage } | { kind: 'skip'; reason: string };

const NO_PROVEN_ADDRESS: StatusMail = {
  kind: 'skip',
  reason: 'the account has no proven e-mail address',
};

/**
 * The letter for a new order, with its secret read-only link signed under `linkSecret`, to
 * the owner's proven address (recipient.ts), or why there is none.
 */
export async function orderCreatedMail(
  db: Db,
  order: OrderRow,
  baseUrl: string,
  linkSecret: string,
): Promise<StatusMail> {
  const to = await orderRecipient(db, order.user_id);
  if (to === null) return NO_PROVEN_ADDRESS;
  const { t, o, locale } = await context(db, order, baseUrl);
  const letter = t.created(o, {
    requisitesDue: utcTime(order.requisites_due_at),
    secretLink: orderLinkUrl(baseUrl, locale, orderLinkToken(linkSecret, order.id)),
  });
  return { kind: 'mail', template: 'created', message: render(letter, to) };
}

/** The letter for a status change, or why there is none. */
export async function orderStatusMail(
  db: Db,
  before: OrderRow | null,
  order: OrderRow,
  baseUrl: string,
): Promise<StatusMail> {
  if (before !== null && before.status === order.status)
    return { kind: 'skip', reason: 'the status did not change' };
  if (order.status === 'waiting_for_operator')
    return { kind: 'skip', reason: 'no e-mail for waiting_for_operator' };
  const to = await orderRecipient(db, order.user_id);
  if (to === null) return NO_PROVEN_ADDRESS;
  const { t, o, sendAmount, receiveAmount, sendIsCash } = await context(db, order, baseUrl);
  const received = order.received_amount === null ? null : sendAmount(order.received_amount);
  const settled =
    order.settled_receive_amount === null
      ? null
      : { received: received ?? o.send, receive: receiveAmount(order.settled_receive_amount) };
  let letter: Letter;
  switch (order.status) {
    case 'waiting_for_payment':
      letter = t.waitingForPayment(o, {
        payBy: utcTime(order.pay_by),
        quotedReceive:
          order.requoted_at !== null && order.quoted_receive_amount !== null
            ? receiveAmount(order.quoted_receive_amount)
            : null,
      });
      break;
    case 'paid':
      letter = t.paid(o, settled);
      break;
    case 'completed':
      // What was paid out: the settled amount when the user continued at the current rate.
      letter = t.completed(
        settled ? { ...o, receive: settled.receive } : o,
        order.payout_tx_id ?? '',
      );
      break;
    case 'canceled':
      letter = t.canceled(
        o,
        order.canceled_by ?? 'staff',
        order.cancel_reason === null ? null : oneLine(order.cancel_reason, 500),
      );
      break;
    case 'on_hold':
      letter = t.onHold(o, order.hold_category);
      break;
    case 'needs_user_action':
      letter = t.needsUserAction(o, order.action_reason, received);
      break;
    case 'refund_in_progress':
      letter = t.refundInProgress(o, {
        amount: received ?? o.send,
        to: sendIsCash || order.refund_address === null ? null : oneLine(order.refund_address, 128),
        memo: order.refund_memo === null ? null : oneLine(order.refund_memo, 64),
        cash: sendIsCash,
      });
      break;
    case 'refunded':
      letter = t.refunded(o, {
        amount: received ?? o.send,
        txId: oneLine(order.refund_tx_id, 256),
      });
      break;
    case 'expired':
      letter = t.expired(o, utcTime(order.pay_by));
      break;
  }
  return { kind: 'mail', template: order.status, message: render(letter, to) };
}

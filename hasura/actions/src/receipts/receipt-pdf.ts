import { localeOrDefault } from '@app/shared/i18n';
import { Dec } from '@app/shared/quote';

import { invalidInput, optionalText, uuidArgument } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext, Caller } from '../http/payload.ts';
import { orderIdOfLinkToken } from '../orders/link-token.ts';

import { renderReceiptPdf, type ReceiptContent } from './render.ts';
import { receiptTexts, type ReceiptTexts } from './texts.ts';

/*
 * `orderReceiptPdf` (issue 10): the receipt of a completed order as a PDF, in the order's
 * locale. Who may have it:
 *
 * - by `transactionId`: the order's owner (role user) or staff (manager, administrator);
 * - by `token`, the order's secret link: anyone holding it (the link already shows the order).
 *
 * Everyone else, and an unknown order or link, gets 'not-found' (404): a receipt never tells
 * whether someone else's order exists. An order that is not completed gets 'invalid-transition'.
 *
 * The figures are the ones the order was paid out at: the settlement (settled_receive_amount,
 * settled_rate) when the user continued with a different amount, else the locked quote
 * (receive_amount, rate); the amount paid is what arrived (received_amount) when staff recorded
 * it, else the order's send amount.
 */

const STAFF_ROLES = new Set(['manager', 'administrator']);

interface ReceiptRow {
  id: string;
  number: string;
  user_id: string;
  status: string;
  locale: string;
  send_currency: string;
  receive_currency: string;
  paid_amount: string;
  receive_amount: string;
  rate: string;
  payout_tx_id: string | null;
  wallet_address: string | null;
  iban: string | null;
  payout_memo: string | null;
  completed_at: Date | null;
  send_symbol: string | null;
  send_kind: string | null;
  send_network: string | null;
  receive_symbol: string | null;
  receive_kind: string | null;
  receive_network: string | null;
}

const notFound = () => new ActionFailure('not-found', 'No such order.', 404);

/** The order the caller asks for, or 'not-found' when they may not have its receipt. */
function requestedOrder(options: ActionContext & { linkSecret: string }): {
  id: string;
  /** Null: the secret link grants access; else the order must pass `mayRead`. */
  caller: Caller | null;
} {
  const transactionId = uuidArgument(options.input, 'transactionId');
  const token = optionalText(options.input, 'token', 128);
  if (token !== undefined) {
    const id = orderIdOfLinkToken(options.linkSecret, token);
    if (id === null || (transactionId !== undefined && transactionId !== id)) throw notFound();
    return { id, caller: null };
  }
  if (transactionId === undefined)
    throw invalidInput('Give the order id (transactionId) or its link (token).', 'transactionId');
  return { id: transactionId, caller: options.caller };
}

function mayRead(caller: Caller, order: ReceiptRow): boolean {
  if (caller.userId === null) return false;
  if (STAFF_ROLES.has(caller.role)) return true;
  return caller.role === 'user' && caller.userId === order.user_id;
}

/** An exact decimal as people read it: `0.01500000` -> `0.015`, `1000.00` -> `1000`. */
const plain = (value: string): string => new Dec(value).toString();

function currencyName(
  texts: ReceiptTexts,
  code: string,
  symbol: string | null,
  kind: string | null,
  network: string | null,
): string {
  if (symbol === null) return code;
  if (kind === 'cash') return `${symbol} (${texts.cash})`;
  if (network && network !== symbol) return `${symbol} (${network})`;
  return symbol;
}

function receiptContent(order: ReceiptRow, completedAt: Date, payoutTxId: string): ReceiptContent {
  const locale = localeOrDefault(order.locale);
  const texts = receiptTexts(locale);
  const send = currencyName(
    texts,
    order.send_currency,
    order.send_symbol,
    order.send_kind,
    order.send_network,
  );
  const receive = currencyName(
    texts,
    order.receive_currency,
    order.receive_symbol,
    order.receive_kind,
    order.receive_network,
  );
  const payoutLabel =
    order.receive_kind === 'crypto'
      ? texts.payoutTx
      : order.receive_kind === 'cash'
        ? texts.cashReference
        : texts.bankReference;
  return {
    texts,
    language: locale === 'ua' ? 'uk-UA' : locale,
    number: order.number,
    orderId: order.id,
    completedAt,
    sent: `${plain(order.paid_amount)} ${send}`,
    received: `${plain(order.receive_amount)} ${receive}`,
    rate: `1 ${order.send_symbol ?? order.send_currency} = ${plain(order.rate)} ${
      order.receive_symbol ?? order.receive_currency
    }`,
    payout: { label: payoutLabel, value: payoutTxId },
    payoutTo: order.wallet_address ?? order.iban,
    payoutMemo: order.payout_memo,
  };
}

/** `orderReceiptPdf`: `{ filename: receipt-<number>.pdf, contentBase64 }`. */
export async function orderReceiptPdf(
  options: ActionContext & { linkSecret: string },
): Promise<ReceiptPdf> {
  const request = requestedOrder(options);
  return receiptPdfOf(options.pool, request.id, request.caller);
}

export interface ReceiptPdf {
  filename: string;
  contentBase64: string;
}

/**
 * The receipt of order `id`: for `caller` when it passes `mayRead`, or for anyone when `caller`
 * is null (the order's secret link or a download token already proved access).
 */
export async function receiptPdfOf(
  pool: ActionContext['pool'],
  id: string,
  caller: Caller | null,
): Promise<ReceiptPdf> {
  const { rows } = await pool.query<ReceiptRow>(
    `SELECT t.id, t.number::text AS number, t.user_id, t.status, t.locale,
            t.send_currency, t.receive_currency,
            COALESCE(t.received_amount, t.send_amount)::text AS paid_amount,
            COALESCE(t.settled_receive_amount, t.receive_amount)::text AS receive_amount,
            COALESCE(t.settled_rate, t.rate)::text AS rate,
            t.payout_tx_id, t.wallet_address, t.iban, t.payout_memo, t.completed_at,
            s.symbol AS send_symbol, s.kind AS send_kind, s.network AS send_network,
            r.symbol AS receive_symbol, r.kind AS receive_kind, r.network AS receive_network
       FROM public.transactions t
       LEFT JOIN public.currencies s ON s.code = t.send_currency
       LEFT JOIN public.currencies r ON r.code = t.receive_currency
      WHERE t.id = $1`,
    [id],
  );
  const order = rows[0];
  if (!order || (caller !== null && !mayRead(caller, order))) throw notFound();
  if (order.status !== 'completed' || order.completed_at === null || order.payout_tx_id === null) {
    throw new ActionFailure(
      'invalid-transition',
      `Order ${order.number} is ${order.status}; a receipt is available once the order is completed.`,
      400,
      { status: order.status },
    );
  }
  const pdf = await renderReceiptPdf(receiptContent(order, order.completed_at, order.payout_tx_id));
  return { filename: `receipt-${order.number}.pdf`, contentBase64: pdf.toString('base64') };
}

import type pg from 'pg';

import type { MailMessage } from '@app/shared/mail';

import {
  localeOf,
  ORDER_TEMPLATES,
  type Locale,
  type OrderFacts,
  type OrderTemplates,
  type Requisites,
} from './order-templates.ts';
import type { OrderRow } from './payload.ts';
import { oneLine, render, type Letter } from './render.ts';

/*
 * Which e-mail an order event sends, with what the payload lacks read from the database:
 * the currencies' display names and, for a bank transfer, the bank account's details.
 */

export type Db = Pick<pg.Pool, 'query'>;

/** The web portal's pages for an order, with the locale prefix (none for English). */
export function orderLinks(baseUrl: string, locale: Locale, id: string) {
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return { link: `${baseUrl}${prefix}/transaction/${id}`, home: `${baseUrl}${prefix}/` };
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

async function facts(db: Db, order: OrderRow, baseUrl: string) {
  const locale = localeOf(order.locale);
  const t = ORDER_TEMPLATES[locale];
  const labels = await currencyLabels(db, [order.send_currency, order.receive_currency]);
  const facts: OrderFacts = {
    number: order.number,
    fullName: oneLine(order.full_name),
    send: `${displayAmount(order.send_amount)} ${currencyName(labels, order.send_currency, t)}`,
    receive: `${displayAmount(order.receive_amount)} ${currencyName(labels, order.receive_currency, t)}`,
    payoutTo: order.wallet_address ?? order.iban,
    ...orderLinks(baseUrl, locale, order.id),
  };
  return { t, facts, network: labels.get(order.send_currency)?.network ?? null };
}

async function requisites(
  db: Db,
  order: OrderRow,
  network: string | null,
): Promise<Requisites | null> {
  if (order.bank_account_id !== null) {
    const { rows } = await db.query<{
      beneficiary: string;
      account_number: string;
      swift_bic: string;
      bank_address: string;
    }>(
      `SELECT beneficiary, account_number, swift_bic, bank_address
         FROM public.bank_accounts WHERE id = $1`,
      [order.bank_account_id],
    );
    const account = rows[0];
    // The foreign key keeps the account; its absence means the row changed under us: retry.
    if (!account) throw new Error(`bank account ${order.bank_account_id} not found`);
    return {
      kind: 'bank',
      beneficiary: account.beneficiary,
      accountNumber: account.account_number,
      swiftBic: account.swift_bic,
      bankAddress: account.bank_address,
      reference: order.payment_reference ?? '',
    };
  }
  if (order.deposit_address !== null) {
    return {
      kind: 'crypto',
      address: order.deposit_address,
      memo: order.deposit_memo,
      network,
    };
  }
  return null;
}

/** The letter for a new order. */
export async function orderCreatedMail(
  db: Db,
  order: OrderRow,
  baseUrl: string,
): Promise<MailMessage> {
  const { t, facts: o } = await facts(db, order, baseUrl);
  return render(t.created(o), order.email);
}

export type StatusMail =
  { kind: 'mail'; template: string; message: MailMessage } | { kind: 'skip'; reason: string };

/** The letter for a status change, or why there is none. */
export async function orderStatusMail(
  db: Db,
  before: OrderRow | null,
  order: OrderRow,
  baseUrl: string,
): Promise<StatusMail> {
  if (before !== null && before.status === order.status)
    return { kind: 'skip', reason: 'the status did not change' };
  const { t, facts: o, network } = await facts(db, order, baseUrl);
  let letter: Letter;
  switch (order.status) {
    case 'waiting_for_operator':
      return { kind: 'skip', reason: 'no e-mail for waiting_for_operator' };
    case 'waiting_for_payment': {
      const details = await requisites(db, order, network);
      if (details === null) return { kind: 'skip', reason: 'the order has no requisites' };
      letter = t.waitingForPayment(o, details);
      break;
    }
    case 'paid':
      letter = t.paid(o);
      break;
    case 'completed':
      letter = t.completed(o, order.payout_tx_id ?? '');
      break;
    case 'canceled':
      letter = t.canceled(
        o,
        order.canceled_by ?? 'staff',
        order.cancel_reason === null ? null : oneLine(order.cancel_reason, 500),
      );
      break;
  }
  return { kind: 'mail', template: order.status, message: render(letter, order.email) };
}

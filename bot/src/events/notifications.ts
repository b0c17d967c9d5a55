import { InlineKeyboard, type Api } from 'grammy';
import type { TFunction } from 'i18next';

import { currencyLabel, trimZeros } from '@app/shared/exchange';
import {
  ACTION_REASONS,
  HOLD_CATEGORIES,
  INITIAL_STATUS,
  isOrderStatus,
  type OrderStatus,
} from '@app/shared/orders/vocabulary';

import {
  chainPaymentById,
  orderById,
  supportRequestById,
  type ChainPaymentSummary,
  type Db,
  type OrderSummary,
} from '../db.ts';
import type { BotEnv } from '../env.ts';
import { receiveText, sendAmountText, sendText, statusText } from '../format.ts';
import { consoleUrl, miniappUrl } from '../links.ts';
import { translator } from '../texts.ts';

/*
 * The messages behind the event triggers. They never carry payment details: the order's page
 * (the mini-app, signed in) shows those; a message only says what changed and links there.
 */

export interface NotifyContext {
  env: BotEnv;
  db: Db;
  api: Api;
}

/** Telegram's limit for a message is 4096 characters; typed text is cut well before. */
const MAX_TYPED = 1500;
const cut = (text: string) => (text.length > MAX_TYPED ? `${text.slice(0, MAX_TYPED)}…` : text);

/** Statuses with a sentence of their own after "Order №N: <status>.": all but the first. */
type DetailedStatus = Exclude<OrderStatus, typeof INITIAL_STATUS>;
const hasDetail = (status: string): status is DetailedStatus =>
  isOrderStatus(status) && status !== INITIAL_STATUS;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((item) => item === value);

/** The sentences after "Order №N: <status>.": what it means, then why (a side state's reason). */
function statusDetail(t: TFunction<'bot'>, order: OrderSummary): string[] {
  if (!hasDetail(order.status)) return [];
  const lines: string[] = [];
  if (order.status === 'on_hold') {
    const category = oneOf(HOLD_CATEGORIES, order.hold_category);
    if (category) lines.push(t(`status.holdCategories.${category}`));
  }
  if (order.status === 'needs_user_action') {
    const reason = oneOf(ACTION_REASONS, order.action_reason);
    if (reason === 'refund_required') {
      lines.push(t('status.actionReasons.refund_required'));
      return lines;
    }
    if (reason && order.received_amount !== null)
      lines.push(
        t(`status.actionReasons.${reason}`, {
          received: sendAmountText(order, order.received_amount),
          expected: sendText(order),
        }),
      );
  }
  lines.push(t(`status.${order.status}`));
  return lines;
}

async function toStaff(
  context: NotifyContext,
  text: string,
  keyboard: InlineKeyboard,
): Promise<void> {
  for (const chatId of context.env.TELEGRAM_STAFF_CHAT_IDS ?? []) {
    await context.api.sendMessage(chatId, text, { reply_markup: keyboard });
  }
}

export async function notifyNewOrder(context: NotifyContext, orderId: string): Promise<void> {
  const order = await orderById(context.db, orderId);
  if (!order) return;
  const t = translator(context.env.TELEGRAM_STAFF_LOCALE);
  await toStaff(
    context,
    t('staff.newOrder', {
      number: order.number,
      send: sendText(order),
      receive: receiveText(order),
      email: order.email,
    }),
    new InlineKeyboard().url(
      t('staff.openConsole'),
      consoleUrl(context.env, `/admin/transactions?order=${order.id}`),
    ),
  );
}

export async function notifyOrderStatus(context: NotifyContext, orderId: string): Promise<void> {
  const order = await orderById(context.db, orderId);
  // Only owners who came from Telegram have a chat with the bot.
  if (!order?.telegram_id) return;
  const locale = order.owner_locale ?? 'en';
  const t = translator(locale);
  const lines = [
    t('status.changed', { number: order.number, status: statusText(locale, order.status) }),
    ...statusDetail(t, order),
  ];
  await context.api.sendMessage(Number(order.telegram_id), lines.join('\n'), {
    reply_markup: new InlineKeyboard().webApp(
      t('status.open'),
      miniappUrl(context.env, { orderId: order.id }),
    ),
  });
}

/**
 * The operator missed the promised time for an order's payment details (the deadlines job set
 * `requisites_late_at`): the staff chats hear of it, with the order in the console. Nothing
 * once the order no longer waits for the operator (the details went out, or it was canceled).
 */
export async function notifyRequisitesLate(context: NotifyContext, orderId: string): Promise<void> {
  const order = await orderById(context.db, orderId);
  if (!order?.requisites_late || order.status !== 'waiting_for_operator') return;
  const t = translator(context.env.TELEGRAM_STAFF_LOCALE);
  await toStaff(
    context,
    t('staff.requisitesLate', {
      number: order.number,
      due: order.requisites_due_utc ?? '—',
      created: order.created_utc,
      send: sendText(order),
      receive: receiveText(order),
    }),
    new InlineKeyboard().url(
      t('staff.openConsole'),
      consoleUrl(context.env, `/admin/transactions?order=${order.id}`),
    ),
  );
}

export async function notifySupportRequest(
  context: NotifyContext,
  requestId: string,
): Promise<void> {
  const request = await supportRequestById(context.db, requestId);
  if (!request || request.handled) return;
  const t = translator(context.env.TELEGRAM_STAFF_LOCALE);
  await toStaff(
    context,
    t('staff.newSupport', {
      name: cut(request.name ?? '—'),
      email: request.email,
      order: request.order_id ? t('staff.supportOrder', { order: request.order_id }) : '',
      message: cut(request.message),
    }),
    new InlineKeyboard()
      .url(t('staff.openConsole'), consoleUrl(context.env, '/admin/support-requests'))
      .row()
      .text(t('staff.markHandled'), `support:handled:${request.id}`),
  );
}

/** `0.05 ETH`, `500 USDT (ERC20)`: a chain payment's amount as the portal writes it. */
const paymentAmount = (payment: ChainPaymentSummary) =>
  `${trimZeros(payment.amount)} ${currencyLabel(payment.currency_code, { symbol: payment.symbol, network: payment.currency_network })}`;

/**
 * A chain watcher first saw a payment to the order's deposit address (issue 25): its owner
 * hears of it with its confirmations so far, and that the order moves on by itself. Nothing
 * when the order no longer waits for a payment, or the payment left the chain meanwhile; the
 * status message follows when the order is paid.
 */
export async function notifyChainPaymentSeen(
  context: NotifyContext,
  paymentId: string,
): Promise<void> {
  const payment = await chainPaymentById(context.db, paymentId);
  if (!payment?.transaction_id || payment.state === 'dropped') return;
  const order = await orderById(context.db, payment.transaction_id);
  if (!order?.telegram_id) return;
  if (order.status !== 'waiting_for_payment' && order.status !== 'expired') return;
  const t = translator(order.owner_locale ?? 'en');
  await context.api.sendMessage(
    Number(order.telegram_id),
    t('chain.seen', {
      number: order.number,
      amount: paymentAmount(payment),
      confirmations: Math.min(payment.confirmations, payment.confirmations_required),
      required: payment.confirmations_required,
    }),
    {
      reply_markup: new InlineKeyboard().webApp(
        t('status.open'),
        miniappUrl(context.env, { orderId: order.id }),
      ),
    },
  );
}

/**
 * A confirmed payment that moved no order (issue 25): to the address of an order that no
 * longer waits (staff had confirmed it, or it is finished), or to an address no waiting order
 * could take. The staff chats hear of it with the transaction, to return or match it by hand.
 */
export async function notifyChainPaymentFlag(
  context: NotifyContext,
  paymentId: string,
): Promise<void> {
  const payment = await chainPaymentById(context.db, paymentId);
  if (payment?.outcome !== 'order_not_waiting' && payment?.outcome !== 'no_order') return;
  const order = payment.transaction_id
    ? await orderById(context.db, payment.transaction_id)
    : undefined;
  const locale = context.env.TELEGRAM_STAFF_LOCALE;
  const t = translator(locale);
  const values = { amount: paymentAmount(payment), network: payment.network, tx: payment.tx_hash };
  const text = order
    ? t('staff.chainUnexpected', {
        ...values,
        number: order.number,
        status: statusText(locale, order.status),
      })
    : t('staff.chainNoOrder', values);
  const path = order ? `/admin/transactions?order=${order.id}` : '/admin/transactions';
  await toStaff(
    context,
    text,
    new InlineKeyboard().url(t('staff.openConsole'), consoleUrl(context.env, path)),
  );
}

import { InlineKeyboard, type Api } from 'grammy';

import { orderById, supportRequestById, type Db } from '../db.ts';
import type { BotEnv } from '../env.ts';
import { receiveText, sendText, statusText } from '../format.ts';
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

/** Statuses with a sentence of their own after "Order №N: <status>." */
const STATUS_DETAIL = new Set(['waiting_for_payment', 'paid', 'completed', 'canceled']);

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
  ];
  if (STATUS_DETAIL.has(order.status)) lines.push(t(`status.${order.status as 'paid'}`));
  await context.api.sendMessage(Number(order.telegram_id), lines.join('\n'), {
    reply_markup: new InlineKeyboard().webApp(
      t('status.open'),
      miniappUrl(context.env, { orderId: order.id }),
    ),
  });
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

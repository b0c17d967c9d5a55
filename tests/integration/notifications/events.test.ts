import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';
import { DEV_ORDER_LINK_SECRET } from '@app/actions/env';
import { orderIdOfLinkToken } from '@app/actions/orders/link-token';

import { databaseTargets } from '../../support/databases.ts';

import {
  ACCOUNT,
  BOT_EVENTS_SECRET,
  BTC_ADDRESS,
  CREATE,
  html,
  LINK_SECRET,
  SUPPLY,
  TRC20_ADDRESS,
  useNotificationsWorld,
  WEB,
} from './notifications-world.ts';

/*
 * Notifications through the real parts (notifications-world.ts): the engine's event triggers,
 * the actions service's /events routes mailing through a real SMTP server, and a loopback
 * receiver for the bot's webhook. Here: a new order mailed in the customer's locale and posted
 * to the bot, and bank payment details ready (without them). An order's further mails and the
 * side states of decision 015: events-lifecycle.test.ts; the bot's late-requisites flag, old
 * events, support requests, retries and refused callers: events-delivery.test.ts. After each
 * test every mail so far is scanned for payment details (none may carry one).
 */

describe.each(databaseTargets)('order and support notifications on $name', (target) => {
  const world = useNotificationsWorld(target);
  const { staff, graphql, customer, insertOrder, utcOf } = world;

  it('mails a new order to its e-mail in its locale and posts it to the bot', async () => {
    const email = 'alice.ru@example.com';
    const data = await graphql(
      CREATE,
      {
        input: {
          from: 'BTC',
          to: 'USDTTRC20',
          side: 'send',
          amount: '0.015',
          email,
          fullName: 'Алиса Пример',
          walletAddress: TRC20_ADDRESS,
          reason: 'Savings',
          agreeTerms: true,
          agreeAml: true,
          idempotencyKey: randomUUID(),
          locale: 'ru',
        },
      },
      { userId: await customer(email), role: 'user' },
    );
    const order = data?.['createExchange'] as { id: string; number: string; receiveAmount: string };
    const { rows } = await world.db.pool.query<{ receive: string }>(
      // As the mail shows amounts: without trailing zeros.
      `SELECT trim_scale(receive_amount)::text AS receive FROM transactions WHERE id = $1`,
      [order.id],
    );

    const mail = await world.mailbox.waitFor(email);
    expect(mail.subject).toBe(`Заявка №${order.number} создана`);
    // The greeting names nobody: the form's name is free text (decision 016).
    expect(mail.text).toContain(`Спасибо! Ваша заявка №${order.number} создана.`);
    expect(mail.text).not.toContain('Алиса Пример');
    expect(mail.text).toContain('Вы отправляете: 0.015 BTC');
    expect(mail.text).toContain(`Вы получаете: ${rows[0]!.receive} USDT (TRC20)`);
    expect(mail.text).toContain(`Выплата на: ${TRC20_ADDRESS}`);
    // The operator's promise: the order's requisites_due_at, in UTC.
    const due = await utcOf(order.id, 'requisites_due_at');
    expect(mail.text).toContain(`Реквизиты до: ${due}`);
    expect(mail.text).toContain(`Оператор подготовит реквизиты для оплаты до ${due}`);
    expect(mail.text).toContain('в течение 2–10 минут');
    expect(mail.text).toContain(`${WEB}/ru/transaction/${order.id}`);
    expect(html(mail)).toContain(`href="${WEB}/ru/transaction/${order.id}"`);
    expect(mail.from?.text).toContain('no-reply@exchange.test');

    // The secret read-only link, signed under ORDER_LINK_SECRET, naming this order.
    const token = new RegExp(`${WEB}/ru/order/([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`).exec(
      mail.text ?? '',
    )?.[1];
    expect(token).toBeDefined();
    expect(orderIdOfLinkToken(LINK_SECRET, token!)).toBe(order.id);
    expect(orderIdOfLinkToken(DEV_ORDER_LINK_SECRET, token!)).toBeNull();
    expect(html(mail)).toContain(`href="${WEB}/ru/order/${token}"`);
    expect(mail.text).toContain(
      'Любой, у кого есть эта ссылка, может следить за заявкой (только просмотр), поэтому не передавайте её',
    );

    const delivery = await world.bot.waitFor(
      (d) =>
        d.body.trigger.name === 'order_created_bot' && d.body.event.data.new?.['id'] === order.id,
    );
    expect(delivery.path).toBe('/events');
    expect(delivery.headers['x-events-secret']).toBe(BOT_EVENTS_SECRET);
    expect(delivery.headers[SECRET_HEADER]).toBeUndefined();
    expect(delivery.body).toMatchObject({
      table: { schema: 'public', name: 'transactions' },
      event: {
        op: 'INSERT',
        data: {
          old: null,
          new: {
            id: order.id,
            number: order.number,
            status: 'waiting_for_operator',
            send_currency: 'BTC',
            send_amount: '0.01500000',
            email,
            locale: 'ru',
          },
        },
      },
      delivery_info: { current_retry: 0 },
    });
    expect(typeof delivery.body.id).toBe('string');
  });

  it('tells that the bank payment details are ready, without them, in Ukrainian', async () => {
    const email = 'olena.ua@example.com';
    const order = await insertOrder({ email, locale: 'ua' });
    const created = await world.mailbox.waitFor(email);
    expect(created.subject).toBe(`Заявку №${order.number} створено`);
    expect(created.text).toContain('Ви надсилаєте: 1000 EUR');
    expect(created.text).toContain('Ви отримуєте: 0.0123 BTC');
    // The form's name is free text: no mail carries it (decision 016).
    expect(created.text).toContain(`Дякуємо! Вашу заявку №${order.number} створено.`);
    expect(created.text).not.toContain('Олена');
    expect(html(created)).not.toContain('Олена');

    await graphql(SUPPLY, { id: order.id, account: world.accountId }, staff);
    const mail = await world.mailbox.waitFor(
      email,
      (m) => m.subject?.includes('реквізити') ?? false,
    );
    expect(mail.subject).toBe(`Заявка №${order.number}: реквізити для оплати готові`);
    expect(mail.text).toContain('готові на сторінці заявки');
    expect(mail.text).toContain('поруч із вашою антифішинговою фразою');
    const payBy = await utcOf(order.id, 'pay_by');
    expect(mail.text).toContain(`Надішліть рівно 1000 EUR; оплата має надійти до ${payBy}.`);
    expect(mail.text).toContain(`Оплата має надійти до: ${payBy}`);
    expect(mail.text).toContain(`Виплата на: ${BTC_ADDRESS}`);
    expect(mail.text).toContain(`${WEB}/ua/transaction/${order.id}`);
    // Not one of the bank account's details, nor the payment reference.
    for (const detail of [...Object.values(ACCOUNT), `EX-${order.number}`]) {
      expect(mail.text).not.toContain(detail);
      expect(html(mail)).not.toContain(detail);
    }

    const delivery = await world.bot.waitFor(
      (d) =>
        d.body.trigger.name === 'order_status_bot' && d.body.event.data.new?.['id'] === order.id,
    );
    expect(delivery.headers['x-events-secret']).toBe(BOT_EVENTS_SECRET);
    expect(delivery.body.event).toMatchObject({
      op: 'UPDATE',
      data: {
        old: { status: 'waiting_for_operator' },
        new: { status: 'waiting_for_payment', bank_account_id: world.accountId },
      },
    });
  });
});

import { randomUUID } from 'node:crypto';

import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';
import { createSmtpMailer, type Mailer } from '@app/shared/mail';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
} from '../actions/harness.ts';

import { startBotReceiver, type BotReceiver } from './bot-receiver.ts';

/*
 * Notifications through the real parts: the engine's event triggers from the product metadata
 * (hasura/metadata), the actions service's /events routes mailing through a real SMTP server,
 * and a loopback receiver standing in for the bot service's webhook.
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const WEB = 'https://exchange.test';
const INBOX = 'support-inbox@exchange.test';
const BOT_EVENTS_SECRET = 'test-bot-events-secret-0123456789';

const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) { id number sendAmount receiveAmount status }
}`;
const OUTPUT = 'id number status';
const SUPPLY = `mutation ($id: uuid!, $address: String, $memo: String, $account: uuid) {
  supplyRequisites(
    transactionId: $id, depositAddress: $address, depositMemo: $memo, bankAccountId: $account
  ) { ${OUTPUT} }
}`;
const CONFIRM = `mutation ($id: uuid!) { confirmPayment(transactionId: $id) { ${OUTPUT} } }`;
const COMPLETE = `mutation ($id: uuid!, $tx: String!) {
  completeExchange(transactionId: $id, payoutTxId: $tx) { ${OUTPUT} }
}`;
const STAFF_CANCEL = `mutation ($id: uuid!, $reason: String!) {
  cancelExchangeByStaff(transactionId: $id, reason: $reason) { ${OUTPUT} }
}`;

async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const html = (mail: ParsedMail) => (typeof mail.html === 'string' ? mail.html : '');

describe.each(databaseTargets)('order and support notifications on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let mailer: Mailer;
  let bot: BotReceiver;
  let stack: ActionsStack;
  const alice = randomUUID();
  const staffId = randomUUID();
  const owner: Caller = { userId: alice, role: 'user' };
  const staff: Caller = { userId: staffId, role: 'manager' };

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, staff: staffId });
    mailbox = await startMailbox();
    mailer = createSmtpMailer(mailbox.url, 'Exchange <no-reply@exchange.test>');
    bot = await startBotReceiver();
    stack = await startActionsStack(db, {
      env: {
        ACTIONS_SECRET,
        QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
        PUBLIC_WEB_URL: WEB,
        SUPPORT_INBOX_EMAIL: INBOX,
      },
      mailer,
      engineEnvironment: { BOT_EVENTS_URL: `${bot.url}/events`, BOT_EVENTS_SECRET },
    });
  });

  afterAll(async () => {
    await stack?.close();
    mailer?.close();
    await mailbox?.close();
    await bot?.close();
    await db?.dispose();
  });

  const graphql = async (query: string, variables: Record<string, unknown>, caller: Caller) => {
    const { data, errors } = await stack.graphql(query, variables, caller);
    expect(errors).toBeUndefined();
    return data;
  };

  /** An order inserted directly (as createExchange leaves it), in `locale`. */
  async function insertOrder(options: {
    email: string;
    locale: 'en' | 'ru' | 'ua';
    /** Default EUR 1000 -> BTC 0.0123. */
    pair?: { from: string; to: string; send: string; receive: string; wallet: string };
  }): Promise<{ id: string; number: string }> {
    const pair = options.pair ?? {
      from: 'EUR',
      to: 'BTC',
      send: '1000',
      receive: '0.0123',
      wallet: BTC_ADDRESS,
    };
    const { rows } = await db.pool.query<{ id: string; number: string }>(
      `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                 receive_amount, rate, email, full_name, wallet_address, reason,
                                 locale)
       VALUES ($1, $2, $3, $4, $5, $5::numeric / $4::numeric, $6, 'Олена <Test>', $7, 'Savings', $8)
       RETURNING id, number::text AS number`,
      [
        alice,
        pair.from,
        pair.to,
        pair.send,
        pair.receive,
        options.email,
        pair.wallet,
        options.locale,
      ],
    );
    return rows[0]!;
  }

  async function eventRow(trigger: string, rowId: string) {
    const { rows } = await db.pool.query<{
      id: string;
      tries: number;
      delivered: boolean;
      error: boolean;
    }>(
      `SELECT id, tries, delivered, error FROM hdb_catalog.event_log
        WHERE trigger_name = $1 AND payload -> 'data' -> 'new' ->> 'id' = $2`,
      [trigger, rowId],
    );
    return rows[0];
  }

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
      owner,
    );
    const order = data?.['createExchange'] as { id: string; number: string; receiveAmount: string };
    const { rows } = await db.pool.query<{ receive: string }>(
      // As the mail shows amounts: without trailing zeros.
      `SELECT trim_scale(receive_amount)::text AS receive FROM transactions WHERE id = $1`,
      [order.id],
    );

    const mail = await mailbox.waitFor(email);
    expect(mail.subject).toBe(`Заявка №${order.number} создана`);
    expect(mail.text).toContain('Спасибо, Алиса Пример.');
    expect(mail.text).toContain('Вы отправляете: 0.015 BTC');
    expect(mail.text).toContain(`Вы получаете: ${rows[0]!.receive} USDT (TRC20)`);
    expect(mail.text).toContain(`Выплата на: ${TRC20_ADDRESS}`);
    expect(mail.text).toContain('в течение 2–10 минут');
    expect(mail.text).toContain(`${WEB}/ru/transaction/${order.id}`);
    expect(html(mail)).toContain(`href="${WEB}/ru/transaction/${order.id}"`);
    expect(mail.from?.text).toContain('no-reply@exchange.test');

    const delivery = await bot.waitFor(
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

  it('mails the bank requisites when the order waits for payment, in Ukrainian', async () => {
    const email = 'olena.ua@example.com';
    const { rows: accounts } = await db.pool.query<{ id: string }>(
      `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address,
                                  currency_code, is_active)
       VALUES ('Exchange Ltd', 'DE89370400440532013000', 'COBADEFFXXX',
               'Taunusanlage 12, 60325 Frankfurt', 'EUR', true)
       RETURNING id`,
    );
    const order = await insertOrder({ email, locale: 'ua' });
    const created = await mailbox.waitFor(email);
    expect(created.subject).toBe(`Заявку №${order.number} створено`);
    expect(created.text).toContain('Ви надсилаєте: 1000 EUR');
    expect(created.text).toContain('Ви отримуєте: 0.0123 BTC');
    // The name is the user's text: escaped in HTML, as typed in text.
    expect(created.text).toContain('Дякуємо, Олена <Test>.');
    expect(html(created)).toContain('Олена &lt;Test&gt;');
    expect(html(created)).not.toContain('<Test>');

    await graphql(SUPPLY, { id: order.id, account: accounts[0]!.id }, staff);
    const mail = await mailbox.waitFor(email, (m) => m.subject?.includes('реквізити') ?? false);
    expect(mail.subject).toBe(`Заявка №${order.number}: реквізити для оплати`);
    expect(mail.text).toContain('Надішліть рівно 1000 EUR');
    expect(mail.text).toContain('Отримувач: Exchange Ltd');
    expect(mail.text).toContain('Номер рахунку: DE89370400440532013000');
    expect(mail.text).toContain('SWIFT/BIC: COBADEFFXXX');
    expect(mail.text).toContain('Адреса банку: Taunusanlage 12, 60325 Frankfurt');
    expect(mail.text).toContain(`Призначення платежу: EX-${order.number}`);
    expect(mail.text).toContain(`${WEB}/ua/transaction/${order.id}`);

    const delivery = await bot.waitFor(
      (d) =>
        d.body.trigger.name === 'order_status_bot' && d.body.event.data.new?.['id'] === order.id,
    );
    expect(delivery.headers['x-events-secret']).toBe(BOT_EVENTS_SECRET);
    expect(delivery.body.event).toMatchObject({
      op: 'UPDATE',
      data: {
        old: { status: 'waiting_for_operator' },
        new: { status: 'waiting_for_payment', bank_account_id: accounts[0]!.id },
      },
    });
  });

  it('mails the deposit address, then payment received and completion, in English', async () => {
    const email = 'carol.en@example.com';
    const order = await insertOrder({
      email,
      locale: 'en',
      pair: {
        from: 'BTC',
        to: 'USDTTRC20',
        send: '0.02',
        receive: '1234.5',
        wallet: TRC20_ADDRESS,
      },
    });
    await mailbox.waitFor(email, (m) => m.subject === `Order #${order.number} created`);

    await graphql(SUPPLY, { id: order.id, address: BTC_ADDRESS, memo: 'memo-7' }, staff);
    const requisites = await mailbox.waitFor(
      email,
      (m) => m.subject?.includes('payment details') ?? false,
    );
    expect(requisites.text).toContain('Please send exactly 0.02 BTC to:');
    expect(requisites.text).toContain(`Address: ${BTC_ADDRESS}`);
    expect(requisites.text).toContain('Memo / tag: memo-7');
    expect(requisites.text).toContain('Network: BTC');
    expect(requisites.text).toContain(`${WEB}/transaction/${order.id}`);

    await graphql(CONFIRM, { id: order.id }, staff);
    const paid = await mailbox.waitFor(
      email,
      (m) => m.subject?.includes('payment received') ?? false,
    );
    expect(paid.text).toContain('The service is sending you 1234.5 USDT (TRC20)');

    await graphql(COMPLETE, { id: order.id, tx: 'payout-tx-42' }, staff);
    const completed = await mailbox.waitFor(
      email,
      (m) => m.subject?.includes('completed') ?? false,
    );
    expect(completed.subject).toBe(`Order #${order.number} completed`);
    expect(completed.text).toContain('this transfer was successfully completed');
    expect(completed.text).toContain('Payout transaction ID: payout-tx-42');
  });

  it("mails a staff cancellation with the staff's reason", async () => {
    const email = 'dave.ru@example.com';
    const order = await insertOrder({ email, locale: 'ru' });
    await mailbox.waitFor(email);
    await graphql(STAFF_CANCEL, { id: order.id, reason: 'Платёж <не> найден' }, staff);
    const mail = await mailbox.waitFor(email, (m) => m.subject?.includes('отменена') ?? false);
    expect(mail.subject).toBe(`Заявка №${order.number} отменена`);
    expect(mail.text).toContain('отменена сервисом');
    expect(mail.text).toContain('Причина: Платёж <не> найден');
    expect(html(mail)).toContain('Платёж &lt;не&gt; найден');
    expect(mail.text).toContain(`${WEB}/ru/`);
  });

  it('posts a support request to the bot and mails it to the staff inbox', async () => {
    const email = 'visitor@example.com';
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO support_requests (name, email, order_id, subject, message)
       VALUES ('Eve <b>', $1, '100123', 'Where is my payout?', $2) RETURNING id`,
      [email, 'Hello,\nmy payout has not arrived.\n<script>alert(1)</script>'],
    );
    const id = rows[0]!.id;

    const mail = await mailbox.waitFor(INBOX, (m) => m.text?.includes(id) ?? false);
    expect(mail.subject).toBe('Support request from Eve <b>: Where is my payout?');
    expect(mail.text).toContain('Name: Eve <b>');
    expect(mail.text).toContain(`E-mail: ${email}`);
    expect(mail.text).toContain('Order ID: 100123');
    expect(mail.text).toContain('Subject: Where is my payout?');
    expect(mail.text).toContain('Hello,\nmy payout has not arrived.');
    expect(html(mail)).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html(mail)).not.toContain('<script>');
    expect(mail.replyTo?.value[0]?.address).toBe(email);
    expect(mail.messageId).toMatch(/\.support_request_email@exchange\.test>$/);

    const delivery = await bot.waitFor(
      (d) => d.body.trigger.name === 'support_request_bot' && d.body.event.data.new?.['id'] === id,
    );
    expect(delivery.headers['x-events-secret']).toBe(BOT_EVENTS_SECRET);
    expect(delivery.body).toMatchObject({
      table: { schema: 'public', name: 'support_requests' },
      event: { op: 'INSERT', data: { new: { id, email, order_id: '100123' } } },
    });
  });

  it('retries an e-mail the SMTP server refused, independently of the bot delivery', async () => {
    const email = 'retry@example.com';
    mailbox.refuse();
    let id: string;
    let first: { id: string; tries: number; delivered: boolean; error: boolean };
    try {
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO support_requests (name, email, message) VALUES ('Frank', $1, 'Retry me')
         RETURNING id`,
        [email],
      );
      id = rows[0]!.id;
      // The bot gets its copy at once, whatever the mail does.
      await bot.waitFor(
        (d) =>
          d.body.trigger.name === 'support_request_bot' && d.body.event.data.new?.['id'] === id,
      );
      first = await until(async () => {
        const row = await eventRow('support_request_email', id);
        return row && row.tries >= 1 ? row : undefined;
      }, 'the first e-mail attempt');
    } finally {
      mailbox.accept();
    }
    expect(first).toMatchObject({ tries: 1, delivered: false, error: false });
    expect(mailbox.refused).toBeGreaterThan(0);
    const { rows: invocations } = await db.pool.query<{ status: number }>(
      'SELECT status FROM hdb_catalog.event_invocation_logs WHERE event_id = $1',
      [first.id],
    );
    expect(invocations.map((row) => row.status)).toEqual([503]);

    // The retry is due in retry_conf.interval_sec (60 s); bring it forward.
    await db.pool.query('UPDATE hdb_catalog.event_log SET next_retry_at = now() WHERE id = $1', [
      first.id,
    ]);
    const mail = await mailbox.waitFor(INBOX, (m) => m.text?.includes(id) ?? false);
    expect(mail.text).toContain('Retry me');
    const delivered = await until(async () => {
      const row = await eventRow('support_request_email', id);
      return row?.delivered ? row : undefined;
    }, 'the event to be marked delivered');
    expect(delivered.tries).toBe(2);
  });

  it('refuses callers without the secret and answers malformed events with 4xx', async () => {
    const url = `${stack.actionsUrl}/events/order_created_email`;
    const post = (body: unknown, headers: Record<string, string>, to = url) =>
      fetch(to, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const valid = {
      id: randomUUID(),
      trigger: { name: 'order_created_email' },
      table: { schema: 'public', name: 'transactions' },
      event: { op: 'INSERT', data: { old: null, new: {} } },
    };
    expect((await post(valid, {})).status).toBe(401);
    expect((await post(valid, { [SECRET_HEADER]: 'wrong-secret-0123456789abc' })).status).toBe(401);
    expect((await post({}, {}, `${stack.actionsUrl}/cron/refresh-rates`)).status).toBe(401);

    const ok = { [SECRET_HEADER]: ACTIONS_SECRET };
    expect((await post('{not json', ok)).status).toBe(400);
    expect((await post({ id: 'x' }, ok)).status).toBe(400);
    // A row without the order's columns.
    expect((await post(valid, ok)).status).toBe(400);
    // The trigger in the body must be the one in the URL.
    expect((await post({ ...valid, trigger: { name: 'support_request_email' } }, ok)).status).toBe(
      400,
    );
    expect((await post(valid, ok, `${stack.actionsUrl}/events/no_such_trigger`)).status).toBe(404);
  });
});

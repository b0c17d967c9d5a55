import { randomUUID } from 'node:crypto';

import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';
import { DEV_ORDER_LINK_SECRET } from '@app/actions/env';
import { orderIdOfLinkToken } from '@app/actions/orders/link-token';
import { createSmtpMailer, type Mailer } from '@app/shared/mail';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { mailContent, startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { scanForRequisites } from '../../support/requisites-scan.ts';
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
 *
 * Orders with payment details of both kinds (a deposit address with a memo, a bank account
 * with a payment reference) go through every status, the side states of decision 015
 * included, and after each test every mail received so far is scanned for every payment
 * detail in the database (tests/support/requisites-scan.ts): none may carry one.
 */

/** The users' own payout addresses (theirs, so the mails may show them). */
const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** The users' own refund addresses. */
const REFUND_BTC = 'bc1qrefund0000000000000000000000000000000';
const REFUND_IBAN = 'DE02120300000000202051';
/** The service's bank account (requisites: never in a mail). */
const ACCOUNT = {
  beneficiary: 'Exchange Ltd',
  accountNumber: 'DE89370400440532013000',
  swift: 'COBADEFFXXX',
  address: 'Taunusanlage 12, 60325 Frankfurt',
};
const WEB = 'https://exchange.test';
const INBOX = 'support-inbox@exchange.test';
const BOT_EVENTS_SECRET = 'test-bot-events-secret-0123456789';
const LINK_SECRET = 'test-order-link-secret-0123456789abcdef';

let depositSerial = 0;
/** A deposit address (and memo) of the service no other order has. */
function deposit() {
  depositSerial += 1;
  const serial = String(depositSerial).padStart(4, '0');
  return {
    address: `bc1qdeposit${serial}${Math.random().toString(36).slice(2, 12)}`,
    memo: `memo-${serial}-${Math.floor(Math.random() * 1e9)}`,
  };
}

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

/** An order row as events carried it before issue 10 (no deadlines, no side-state columns). */
const legacyRow = (email: string, userId: string) => ({
  id: randomUUID(),
  user_id: userId,
  number: 100999,
  send_currency: 'EUR',
  receive_currency: 'BTC',
  send_amount: 1000,
  receive_amount: 0.0123,
  email,
  full_name: 'Legacy',
  locale: 'en',
  wallet_address: BTC_ADDRESS,
  iban: null,
  deposit_address: null,
  deposit_memo: null,
  bank_account_id: randomUUID(),
  payment_reference: 'EX-100999',
  payout_tx_id: null,
  canceled_by: null,
  cancel_reason: null,
});

describe.each(databaseTargets)('order and support notifications on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let mailer: Mailer;
  let bot: BotReceiver;
  let stack: ActionsStack;
  const alice = randomUUID();
  const staffId = randomUUID();
  const staff: Caller = { userId: staffId, role: 'manager' };
  let accountId: string;

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, staff: staffId });
    const { rows: accounts } = await db.pool.query<{ id: string }>(
      `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address,
                                  currency_code, is_active)
       VALUES ($1, $2, $3, $4, 'EUR', true)
       RETURNING id`,
      [ACCOUNT.beneficiary, ACCOUNT.accountNumber, ACCOUNT.swift, ACCOUNT.address],
    );
    accountId = accounts[0]!.id;
    mailbox = await startMailbox();
    mailer = createSmtpMailer(mailbox.url, 'Exchange <no-reply@exchange.test>');
    bot = await startBotReceiver();
    stack = await startActionsStack(db, {
      env: {
        ACTIONS_SECRET,
        QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
        PUBLIC_WEB_URL: WEB,
        SUPPORT_INBOX_EMAIL: INBOX,
        ORDER_LINK_SECRET: LINK_SECRET,
      },
      mailer,
      engineEnvironment: { BOT_EVENTS_URL: `${bot.url}/events`, BOT_EVENTS_SECRET },
    });
  });

  // Every mail so far, after every test: no payment detail of any order or bank account.
  afterEach(async () => {
    await scanForRequisites(db.pool, mailbox.messages.map(mailContent));
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

  /**
   * The account with this proven address (made on first use): order mail goes to the owning
   * account's proven address, never the form's e-mail (decision 016).
   */
  async function customer(email: string): Promise<string> {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO portal_users (email, is_verified_email) VALUES ($1, true)
       ON CONFLICT ((lower(email))) DO UPDATE SET email = EXCLUDED.email
       RETURNING id`,
      [email],
    );
    return rows[0]!.id;
  }

  /** An order of the account of `email` inserted directly (as createExchange leaves it). */
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
        await customer(options.email),
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

  /** Moves an order as the lifecycle actions do, in one statement (the guard checks it). */
  async function move(id: string, set: string, params: unknown[] = []) {
    await db.pool.query(`UPDATE transactions SET ${set} WHERE id = $1`, [id, ...params]);
  }

  /** The order gets payment details: a deposit address with a memo, or the bank account. */
  async function giveRequisites(id: string, kind: 'crypto' | 'bank') {
    if (kind === 'bank') {
      await move(
        id,
        `status = 'waiting_for_payment', bank_account_id = $2, payment_reference = 'EX-' || number`,
        [accountId],
      );
      return;
    }
    const { address, memo } = deposit();
    await move(id, `status = 'waiting_for_payment', deposit_address = $2, deposit_memo = $3`, [
      address,
      memo,
    ]);
  }

  /** A timestamp column of the order as the mails print it: `2026-01-05 14:30 UTC`. */
  async function utcOf(id: string, column: 'requisites_due_at' | 'pay_by') {
    const { rows } = await db.pool.query<{ time: string }>(
      `SELECT to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC' AS time
         FROM transactions WHERE id = $1`,
      [id],
    );
    return rows[0]!.time;
  }

  /** The mail to `email` with exactly this subject. */
  const mailWith = (email: string, subject: string) =>
    mailbox.waitFor(email, (mail) => mail.subject === subject);

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
    const { rows } = await db.pool.query<{ receive: string }>(
      // As the mail shows amounts: without trailing zeros.
      `SELECT trim_scale(receive_amount)::text AS receive FROM transactions WHERE id = $1`,
      [order.id],
    );

    const mail = await mailbox.waitFor(email);
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

  it('tells that the bank payment details are ready, without them, in Ukrainian', async () => {
    const email = 'olena.ua@example.com';
    const order = await insertOrder({ email, locale: 'ua' });
    const created = await mailbox.waitFor(email);
    expect(created.subject).toBe(`Заявку №${order.number} створено`);
    expect(created.text).toContain('Ви надсилаєте: 1000 EUR');
    expect(created.text).toContain('Ви отримуєте: 0.0123 BTC');
    // The form's name is free text: no mail carries it (decision 016).
    expect(created.text).toContain(`Дякуємо! Вашу заявку №${order.number} створено.`);
    expect(created.text).not.toContain('Олена');
    expect(html(created)).not.toContain('Олена');

    await graphql(SUPPLY, { id: order.id, account: accountId }, staff);
    const mail = await mailbox.waitFor(email, (m) => m.subject?.includes('реквізити') ?? false);
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

    const delivery = await bot.waitFor(
      (d) =>
        d.body.trigger.name === 'order_status_bot' && d.body.event.data.new?.['id'] === order.id,
    );
    expect(delivery.headers['x-events-secret']).toBe(BOT_EVENTS_SECRET);
    expect(delivery.body.event).toMatchObject({
      op: 'UPDATE',
      data: {
        old: { status: 'waiting_for_operator' },
        new: { status: 'waiting_for_payment', bank_account_id: accountId },
      },
    });
  });

  it('mails that the details are ready (not the deposit address), then payment and completion', async () => {
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

    const { address, memo } = deposit();
    await graphql(SUPPLY, { id: order.id, address, memo }, staff);
    const requisites = await mailWith(email, `Order #${order.number}: payment details are ready`);
    expect(requisites.text).toContain(
      `The payment details for order #${order.number} are ready on the order page. Sign in`,
    );
    expect(requisites.text).toContain('shown next to your anti-phishing phrase');
    const payBy = await utcOf(order.id, 'pay_by');
    expect(requisites.text).toContain(
      `Please send exactly 0.02 BTC; the payment must arrive by ${payBy}.`,
    );
    expect(requisites.text).toContain(`Payment must arrive by: ${payBy}`);
    expect(requisites.text).toContain('We never send payment details by e-mail or in Telegram');
    expect(requisites.text).toContain(`${WEB}/transaction/${order.id}`);
    expect(requisites.text).not.toContain(address);
    expect(requisites.text).not.toContain(memo);
    expect(html(requisites)).not.toContain(address);
    expect(requisites.text).not.toContain('re-quoted');

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

  /** A BTC -> USDT (TRC20) order of 0.02 BTC for 1234.5 USDT. */
  const cryptoPair = {
    from: 'BTC',
    to: 'USDTTRC20',
    send: '0.02',
    receive: '1234.5',
    wallet: TRC20_ADDRESS,
  };

  it('mails an underpayment, the choice to continue at the current rate, and the payout', async () => {
    const email = 'underpaid.en@example.com';
    const order = await insertOrder({ email, locale: 'en', pair: cryptoPair });
    await mailWith(email, `Order #${order.number} created`);
    await giveRequisites(order.id, 'crypto');
    await mailWith(email, `Order #${order.number}: payment details are ready`);

    await move(
      order.id,
      `status = 'needs_user_action', action_reason = 'underpaid',
                          received_amount = 0.018`,
    );
    const action = await mailWith(email, `Order #${order.number}: we need your decision`);
    expect(action.text).toContain(
      `We received 0.018 BTC for order #${order.number} instead of 0.02 BTC.`,
    );
    expect(action.text).toContain('Expected: 0.02 BTC\nReceived: 0.018 BTC');
    expect(action.text).toContain(
      'Open the order and choose: continue at the current rate with the amount that arrived, or get a refund.',
    );
    expect(action.text).toContain(`Choose on the order page: ${WEB}/transaction/${order.id}`);

    await move(
      order.id,
      `status = 'paid', settled_receive_amount = 1111.1, settled_rate = 61727.78`,
    );
    const paid = await mailWith(email, `Order #${order.number}: payment received`);
    expect(paid.text).toContain(
      'As you chose, the 0.018 BTC that arrived was exchanged at the current rate: the service is sending you 1111.1 USDT (TRC20)',
    );
    expect(paid.text).not.toContain('1234.5');

    await move(order.id, `status = 'completed', payout_tx_id = 'payout-tx-settled'`);
    const completed = await mailWith(email, `Order #${order.number} completed`);
    expect(completed.text).toContain('You received: 1111.1 USDT (TRC20)');
    expect(completed.text).toContain('Payout transaction ID: payout-tx-settled');
  });

  it('mails a hold, a refund the review requires, and the refund, in Russian (bank order)', async () => {
    const email = 'hold.ru@example.com';
    const order = await insertOrder({ email, locale: 'ru' });
    await mailWith(email, `Заявка №${order.number} создана`);
    await giveRequisites(order.id, 'bank');
    await mailWith(email, `Заявка №${order.number}: реквизиты для оплаты готовы`);

    await move(order.id, `status = 'on_hold', hold_category = 'source_of_funds'`);
    const hold = await mailWith(email, `Заявка №${order.number}: платёж приостановлен`);
    expect(hold.text).toContain(`Ваш платёж по заявке №${order.number} приостановлен.`);
    expect(hold.text).toContain('Ваши деньги в безопасности');
    expect(hold.text).toContain('Причина: Нужно подтвердить происхождение средств.');
    expect(hold.text).toContain(
      'Что вы можете сделать: Ответьте на наше письмо или напишите в поддержку, приложив документ о происхождении средств',
    );
    expect(hold.text).toContain(`Написать в поддержку: ${WEB}/ru/contact`);

    await move(order.id, `status = 'needs_user_action', action_reason = 'refund_required'`);
    const action = await mailWith(email, `Заявка №${order.number}: нужно ваше решение`);
    expect(action.text).toContain(
      `По итогам проверки мы не можем принять средства по заявке №${order.number}; они будут возвращены вам.`,
    );
    expect(action.text).toContain('укажите, куда вернуть средства');
    expect(action.text).not.toContain('продолжить по текущему курсу');
    expect(action.text).toContain(`${WEB}/ru/transaction/${order.id}`);

    await move(order.id, `status = 'refund_in_progress', refund_address = $2`, [REFUND_IBAN]);
    const refund = await mailWith(email, `Заявка №${order.number}: идёт возврат`);
    expect(refund.text).toContain(`Мы отправляем 1000 EUR обратно на ${REFUND_IBAN}`);
    expect(refund.text).toContain(`Возврат: 1000 EUR\nВозврат на: ${REFUND_IBAN}`);

    await move(order.id, `status = 'refunded', refund_tx_id = 'SEPA-REF-778899'`);
    const refunded = await mailWith(email, `Заявка №${order.number}: средства возвращены`);
    expect(refunded.text).toContain(`Возврат по заявке №${order.number} отправлен.`);
    expect(refunded.text).toContain('ID транзакции возврата: SEPA-REF-778899');
  });

  it('mails an expiry, then a late payment refunded, in English (crypto order)', async () => {
    const email = 'late.en@example.com';
    const order = await insertOrder({ email, locale: 'en', pair: cryptoPair });
    await mailWith(email, `Order #${order.number} created`);
    await giveRequisites(order.id, 'crypto');
    await mailWith(email, `Order #${order.number}: payment details are ready`);
    const payBy = await utcOf(order.id, 'pay_by');

    await move(order.id, `status = 'expired'`);
    const expired = await mailWith(email, `Order #${order.number} expired`);
    expect(expired.text).toContain(
      `No payment for order #${order.number} arrived by ${payBy}, so the order expired.`,
    );
    expect(expired.text).toContain('a late payment is never lost');
    expect(expired.text).toContain(`Contact support: ${WEB}/contact`);

    await move(
      order.id,
      `status = 'needs_user_action', action_reason = 'late_payment',
                          received_amount = 0.02`,
    );
    const action = await mailWith(email, `Order #${order.number}: we need your decision`);
    expect(action.text).toContain(
      `Your payment of 0.02 BTC for order #${order.number} arrived after the payment window closed.`,
    );

    await move(
      order.id,
      `status = 'refund_in_progress', refund_address = $2,
                          refund_memo = 'refund-tag-1'`,
      [REFUND_BTC],
    );
    const refund = await mailWith(email, `Order #${order.number}: refund in progress`);
    expect(refund.text).toContain(`We are sending 0.02 BTC back to ${REFUND_BTC}`);
    expect(refund.text).toContain(`Refund to: ${REFUND_BTC}\nMemo / tag: refund-tag-1`);

    await move(order.id, `status = 'refunded', refund_tx_id = 'refund-tx-0042'`);
    const refunded = await mailWith(email, `Order #${order.number} refunded`);
    expect(refunded.text).toContain(`The refund for order #${order.number} was sent.`);
    expect(refunded.text).toContain('Refund: 0.02 BTC\nRefund transaction ID: refund-tx-0042');
  });

  it('mails an expiry, a hold on the late payment and its release, in Ukrainian', async () => {
    const email = 'expired.ua@example.com';
    const order = await insertOrder({ email, locale: 'ua' });
    await mailWith(email, `Заявку №${order.number} створено`);
    await giveRequisites(order.id, 'bank');
    await mailWith(email, `Заявка №${order.number}: реквізити для оплати готові`);
    const payBy = await utcOf(order.id, 'pay_by');

    await move(order.id, `status = 'expired'`);
    const expired = await mailWith(email, `Заявка №${order.number}: термін оплати минув`);
    expect(expired.text).toContain(
      `Оплата за заявкою №${order.number} не надійшла до ${payBy}, тому термін заявки минув.`,
    );
    expect(expired.text).toContain('пізній платіж не зникне');
    expect(expired.text).toContain(`Написати в підтримку: ${WEB}/ua/contact`);

    await move(order.id, `status = 'on_hold', hold_category = 'identity_verification'`);
    const hold = await mailWith(email, `Заявка №${order.number}: платіж призупинено`);
    expect(hold.text).toContain('Причина: Потрібно підтвердити особу платника.');
    expect(hold.text).toContain('документ, що посвідчує особу платника');

    await move(order.id, `status = 'paid'`);
    const paid = await mailWith(email, `Заявка №${order.number}: оплату отримано`);
    expect(paid.text).toContain('Сервіс надсилає вам 0.0123 BTC');
    await move(order.id, `status = 'completed', payout_tx_id = 'payout-tx-ua'`);
    await mailWith(email, `Заявку №${order.number} виконано`);
  });

  it('mails the better amount of a re-quoted order, then a hold and a refund, in English', async () => {
    const email = 'requoted.en@example.com';
    const order = await insertOrder({ email, locale: 'en' });
    await mailWith(email, `Order #${order.number} created`);
    // The operator was late: the same 1000 EUR now gets 0.0125 BTC instead of 0.0123.
    await move(
      order.id,
      `status = 'waiting_for_payment', bank_account_id = $2, payment_reference = 'EX-' || number,
       requoted_at = now(), quoted_receive_amount = receive_amount, quoted_rate = rate,
       receive_amount = 0.0125, rate = 0.0000125`,
      [accountId],
    );
    const requoted = await mailWith(email, `Order #${order.number}: payment details are ready`);
    expect(requoted.text).toContain(
      'The operator was late, so we re-quoted your order at the better rate: you get 0.0125 BTC instead of 0.0123 BTC.',
    );
    expect(requoted.text).toContain('You receive: 0.0125 BTC');

    await move(order.id, `status = 'on_hold', hold_category = 'aml_review'`);
    const hold = await mailWith(email, `Order #${order.number}: payment on hold`);
    expect(hold.text).toContain('Reason: Routine AML review of the incoming transfer.');
    expect(hold.text).toContain(
      'What you can do: Nothing for now: most reviews finish within a few hours. We will e-mail you.',
    );

    // Released to a refund: the refund IBAN was given with the order.
    await move(order.id, `status = 'refund_in_progress', refund_address = $2`, [REFUND_IBAN]);
    const refund = await mailWith(email, `Order #${order.number}: refund in progress`);
    expect(refund.text).toContain(`We are sending 1000 EUR back to ${REFUND_IBAN}`);
  });

  it('posts the late-requisites flag to the bot, and nothing for other changes', async () => {
    const email = 'late-flag@example.com';
    const order = await insertOrder({ email, locale: 'en' });
    await mailWith(email, `Order #${order.number} created`);
    await move(order.id, 'requisites_late_at = now()');
    const delivery = await bot.waitFor(
      (d) =>
        d.body.trigger.name === 'order_requisites_late_bot' &&
        d.body.event.data.new?.['id'] === order.id,
    );
    expect(delivery.headers['x-events-secret']).toBe(BOT_EVENTS_SECRET);
    expect(delivery.body.event).toMatchObject({
      op: 'UPDATE',
      data: {
        old: { requisites_late_at: null, status: 'waiting_for_operator' },
        new: { status: 'waiting_for_operator' },
      },
    });
    expect(delivery.body.event.data.new?.['requisites_late_at']).toEqual(expect.any(String));
    // The details given afterwards: a status event, not another late one.
    await giveRequisites(order.id, 'bank');
    await mailWith(email, `Order #${order.number}: payment details are ready`);
    const { rows } = await db.pool.query<{ trigger_name: string; n: number }>(
      `SELECT trigger_name, count(*)::int AS n FROM hdb_catalog.event_log
        WHERE payload -> 'data' -> 'new' ->> 'id' = $1 GROUP BY trigger_name
        ORDER BY trigger_name`,
      [order.id],
    );
    expect(rows).toEqual([
      { trigger_name: 'order_created_bot', n: 1 },
      { trigger_name: 'order_created_email', n: 1 },
      { trigger_name: 'order_requisites_late_bot', n: 1 },
      { trigger_name: 'order_status_bot', n: 1 },
      { trigger_name: 'order_status_email', n: 1 },
    ]);
  });

  it('reads an order event logged before the trust columns existed', async () => {
    const email = 'legacy@example.com';
    const userId = await customer(email);
    const response = await fetch(`${stack.actionsUrl}/events/order_status_email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_HEADER]: ACTIONS_SECRET },
      body: JSON.stringify({
        id: randomUUID(),
        trigger: { name: 'order_status_email' },
        table: { schema: 'public', name: 'transactions' },
        event: {
          op: 'UPDATE',
          data: {
            old: { ...legacyRow(email, userId), status: 'waiting_for_operator' },
            new: { ...legacyRow(email, userId), status: 'waiting_for_payment' },
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'sent', template: 'waiting_for_payment' });
    const mail = await mailWith(email, 'Order #100999: payment details are ready');
    expect(mail.text).toContain('Please send exactly 1000 EUR. Until you pay');
    expect(mail.text).not.toContain('must arrive by');
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

  it('has a requisites scan that catches a detail however it is printed', async () => {
    const { rows } = await db.pool.query<{ address: string; memo: string; reference: string }>(
      `SELECT d.deposit_address AS address, d.deposit_memo AS memo, b.payment_reference AS reference
         FROM transactions d, transactions b
        WHERE d.deposit_memo IS NOT NULL AND b.payment_reference IS NOT NULL LIMIT 1`,
    );
    const { address, memo, reference } = rows[0]!;
    const leaks: Array<[string, RegExp]> = [
      [`Pay to ${address.toUpperCase()} now`, /transactions\.deposit_address/],
      [`Memo:${memo}.`, /transactions\.deposit_memo/],
      [`Reference ${reference}`, /transactions\.payment_reference/],
      ['IBAN DE89 3704 0044 0532 0130 00', /bank_accounts\.account_number/],
      ['<td>cobadeffxxx</td>', /bank_accounts\.swift_bic/],
      ['Beneficiary: EXCHANGE LTD', /bank_accounts\.beneficiary/],
      ['Bank: Taunusanlage 12, 60325 Frankfurt', /bank_accounts\.bank_address/],
    ];
    for (const [text, column] of leaks)
      await expect(scanForRequisites(db.pool, [{ where: 'a test', text }])).rejects.toThrow(column);
    await expect(
      scanForRequisites(db.pool, [`Order #${reference.slice(3)}: payment details are ready`]),
    ).resolves.toMatchObject({ messages: 1 });
  });

  it('never mailed a payment detail, with both kinds of details in the database', async () => {
    // Let every order event be delivered first (the mails of the last moves).
    await until(async () => {
      const { rows } = await db.pool.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM hdb_catalog.event_log
          WHERE trigger_name LIKE '%email' AND NOT delivered AND NOT error AND NOT archived`,
      );
      return rows[0]!.pending === 0 ? true : undefined;
    }, 'the e-mail events to be delivered');
    const report = await scanForRequisites(db.pool, mailbox.messages.map(mailContent));
    expect(report.messages).toBeGreaterThan(30);
    for (const column of [
      'transactions.deposit_address',
      'transactions.deposit_memo',
      'transactions.payment_reference',
      'bank_accounts.account_number',
      'bank_accounts.beneficiary',
      'bank_accounts.swift_bic',
      'bank_accounts.bank_address',
    ])
      expect(report.requisites[column] ?? 0, column).toBeGreaterThan(0);
  });
});

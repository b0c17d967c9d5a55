import { randomUUID } from 'node:crypto';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { resources } from '@app/shared/i18n';
import { botCatalogs } from '@app/shared/i18n/bot';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { insertBankAccount, insertOrder, insertUser } from '../../support/fixtures.ts';
import { scanForRequisites } from '../../support/requisites-scan.ts';
import { prepareDatabase } from '../actions/harness.ts';
import {
  buttonsOf,
  everythingSent,
  MINIAPP_URL,
  startBotService,
  STAFF_CHAT,
  telegramUser,
  WEBHOOK_SECRET,
  type BotService,
} from './harness.ts';

/*
 * The bot offline against the Bot API emulator (issue: bot): every command in en, ru and ua,
 * the web_app buttons with the mini-app's URL and deep link, the menu button, the event
 * triggers' messages through the outbox (exactly once per event), a refused forged call, a 429
 * waited out, a failed send retried; the
 * side states of decision 015 and the staff's late-requisites alert. Orders have payment
 * details of both kinds (a deposit address with a memo, a bank account with a reference), and
 * after each test everything the bot sent is scanned for every one of them: none may appear.
 */

const LANGUAGES = [
  ['en', 'en'],
  ['ru', 'ru'],
  ['uk', 'ua'],
] as const;

/** A Hasura event-trigger delivery, as the engine sends it. */
function event(
  trigger: string,
  row: Record<string, unknown>,
  old: Record<string, unknown> | null = null,
) {
  return {
    id: randomUUID(),
    created_at: new Date().toISOString(),
    trigger: { name: trigger },
    table: {
      schema: 'public',
      name: trigger.startsWith('support') ? 'support_requests' : 'transactions',
    },
    event: { op: old ? 'UPDATE' : 'INSERT', data: { old, new: row }, session_variables: null },
    delivery_info: { max_retries: 10, current_retry: 0 },
  };
}

describe.each(databaseTargets)('the Telegram bot on $name', (target) => {
  let db: TestDatabase;
  let service: BotService;

  /** A Telegram-linked account speaking `locale`, with the Telegram user. */
  async function linkedAccount(languageCode = 'en', locale = 'en') {
    const user = telegramUser(languageCode);
    const id = await insertUser(db.pool);
    await db.pool.query('UPDATE portal_users SET telegram_id = $2, locale = $3 WHERE id = $1', [
      id,
      user.id,
      locale,
    ]);
    return { user, id };
  }

  let bankAccountId: string;
  let depositSerial = 0;

  /**
   * An order of `userId` moved through the lifecycle to `status`, as operators move it: paid
   * to a deposit address with a memo (BTC, the default), or to the bank account (`bank`:
   * 1000 EUR for 0.0123 BTC).
   */
  async function orderIn(
    userId: string,
    status: string,
    overrides: Record<string, unknown> = {},
    kind: 'crypto' | 'bank' = 'crypto',
  ) {
    const order = await insertOrder(db.pool, userId, {
      ...(kind === 'bank'
        ? {
            send_currency: 'EUR',
            receive_currency: 'BTC',
            send_amount: '1000',
            receive_amount: '0.0123',
            rate: '0.0000123',
            wallet_address: 'bc1qpayout00000000000000000000000000000000',
          }
        : {}),
      ...overrides,
    });
    depositSerial += 1;
    const requisites: [string, unknown[]] =
      kind === 'bank'
        ? [
            "status = 'waiting_for_payment', bank_account_id = $2, payment_reference = 'EX-' || number",
            [bankAccountId],
          ]
        : [
            "status = 'waiting_for_payment', deposit_address = $2, deposit_memo = $3",
            [
              `bc1qdeposit${depositSerial}x${randomUUID().slice(0, 8)}`,
              `memo-${randomUUID().slice(0, 13)}`,
            ],
          ];
    const steps: Record<string, Array<[string, unknown[]]>> = {
      waiting_for_operator: [],
      waiting_for_payment: [requisites],
      canceled: [["status = 'canceled', canceled_by = 'user'", []]],
    };
    steps['paid'] = [...steps['waiting_for_payment']!, ["status = 'paid'", []]];
    steps['completed'] = [
      ...steps['paid'],
      ["status = 'completed', payout_tx_id = 'tx-completed'", []],
    ];
    steps['on_hold'] = [requisites, ["status = 'on_hold', hold_category = 'source_of_funds'", []]];
    steps['needs_user_action'] = [
      requisites,
      [
        "status = 'needs_user_action', action_reason = 'underpaid', received_amount = $2",
        [kind === 'bank' ? '900' : '0.014'],
      ],
    ];
    steps['refund_required'] = [
      ...steps['on_hold'],
      ["status = 'needs_user_action', action_reason = 'refund_required'", []],
    ];
    steps['refund_in_progress'] = [
      ...steps['needs_user_action'],
      [
        "status = 'refund_in_progress', refund_address = $2",
        [kind === 'bank' ? 'DE02120300000000202051' : 'bc1qrefund00000000000000000000000000000000'],
      ],
    ];
    steps['refunded'] = [
      ...steps['refund_in_progress'],
      ["status = 'refunded', refund_tx_id = 'refund-tx-1'", []],
    ];
    steps['expired'] = [requisites, ["status = 'expired'", []]];
    for (const [step, params] of steps[status] ?? []) {
      await db.pool.query(`UPDATE transactions SET ${step} WHERE id = $1`, [order.id, ...params]);
    }
    return order;
  }

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, {});
    bankAccountId = await insertBankAccount(db.pool);
    service = await startBotService(db);
  });
  afterEach(async () => {
    await scanForRequisites(db.pool, everythingSent(service.emulator));
  });
  afterAll(async () => {
    await service?.close();
    await db?.dispose();
  });

  it.each(LANGUAGES)(
    '/start in %s greets and opens the mini-app, passing the deep link on',
    async (code, locale) => {
      const user = telegramUser(code, 'Taras');
      const reply = await service.say(user, '/start');
      const texts = botCatalogs[locale];
      expect(reply.text).toBe(texts.start.greeting.replace('{{name}}', 'Taras'));
      expect(buttonsOf(reply)).toEqual([{ text: texts.start.open, web_app: { url: MINIAPP_URL } }]);

      const orderId = randomUUID();
      const linked = await service.say(user, `/start order_${orderId}__ref_alice`);
      const [button] = buttonsOf(linked);
      const url = new URL((button?.['web_app'] as { url: string }).url);
      expect(`${url.origin}${url.pathname}`).toBe(MINIAPP_URL);
      expect(url.searchParams.get('startapp')).toBe(`order_${orderId}__ref_alice`);

      const pair = await service.say(user, '/start pair_btc-to-xmr');
      expect(buttonsOf(pair)[0]?.text).toBe(
        texts.start.openPair.replace('{{from}}', 'BTC').replace('{{to}}', 'XMR'),
      );
    },
  );

  it.each(LANGUAGES)('/help, /support and plain text in %s', async (code, locale) => {
    const user = telegramUser(code);
    const texts = botCatalogs[locale];
    expect((await service.say(user, '/help')).text).toBe(texts.help.text);
    const support = await service.say(user, '/support');
    expect(support.text).toContain(service.env.PUBLIC_CONTACT_EMAIL);
    expect(support.text).toContain(service.env.PUBLIC_TELEGRAM_CHANNEL_URL);
    const prefix = locale === 'en' ? '' : `/${locale}`;
    expect(buttonsOf(support)).toEqual([
      { text: texts.support.form, url: `https://exchange.test${prefix}/contact` },
    ]);
    expect((await service.say(user, 'hello?')).text).toBe(texts.fallback);
  });

  it.each(LANGUAGES)(
    '/history in %s lists the latest orders with a button into each',
    async (code, locale) => {
      const stranger = telegramUser(code);
      expect((await service.say(stranger, '/history')).text).toBe(
        botCatalogs[locale].history.noAccount,
      );

      const { user, id } = await linkedAccount(code, locale);
      expect((await service.say(user, '/history')).text).toBe(botCatalogs[locale].history.empty);
      const first = await insertOrder(db.pool, id);
      const second = await orderIn(id, 'canceled', { send_amount: '0.5' });
      const reply = await service.say(user, '/history');
      const statuses = resources[locale].exchange.transaction.statuses;
      expect(reply.text.split('\n')).toEqual([
        botCatalogs[locale].history.title,
        `№${second.number} · 0.5 BTC → 1432.5 USDT (TRC20) · ${statuses.canceled}`,
        `№${first.number} · 0.015 BTC → 1432.5 USDT (TRC20) · ${statuses.waiting_for_operator}`,
      ]);
      expect(buttonsOf(reply).map((button) => (button['web_app'] as { url: string }).url)).toEqual([
        `${MINIAPP_URL}?startapp=order_${second.id}`,
        `${MINIAPP_URL}?startapp=order_${first.id}`,
      ]);
    },
  );

  it('sets the commands in three languages and the menu button that opens the mini-app', () => {
    expect(service.emulator.menuButton).toEqual({
      type: 'web_app',
      text: botCatalogs.en.menu,
      web_app: { url: MINIAPP_URL },
    });
    for (const [languageCode, locale] of [
      ['', 'en'],
      ['ru', 'ru'],
      ['uk', 'ua'],
    ] as const) {
      expect(service.emulator.commands.get(languageCode)).toEqual(
        (['start', 'history', 'help', 'support'] as const).map((command) => ({
          command,
          description: botCatalogs[locale].commands[command],
        })),
      );
    }
  });

  it("tells an order's owner of a status change once, however often the event arrives", async () => {
    const { user, id } = await linkedAccount('uk', 'ua');
    const order = await orderIn(id, 'paid');
    const delivery = event(
      'order_status_bot',
      { id: order.id, status: 'paid' },
      { id: order.id, status: 'waiting_for_payment' },
    );
    expect(await service.postEvent(delivery)).toEqual({ status: 200, body: { status: 'queued' } });
    // The engine's retry after a lost answer, and two deliveries at once.
    expect((await service.postEvent(delivery)).body).toEqual({ status: 'already-handled' });
    await Promise.all([service.postEvent(delivery), service.postEvent(delivery)]);
    await service.settled();
    const [message, ...more] = await service.botMessages(user.id, 1);
    expect(more).toEqual([]);
    const texts = botCatalogs.ua.status;
    expect(message!.text).toBe(
      `${texts.changed.replace('{{number}}', order.number).replace('{{status}}', resources.ua.exchange.transaction.statuses.paid)}\n${texts.paid}`,
    );
    expect(buttonsOf(message!)).toEqual([
      { text: texts.open, web_app: { url: `${MINIAPP_URL}?startapp=order_${order.id}` } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(service.emulator.chatMessages(user.id)).toHaveLength(1);
  });

  it('answers "in progress" while a claim from before the outbox sends the event, and takes over a dead one', async () => {
    const { user, id } = await linkedAccount();
    const order = await orderIn(id, 'paid');
    const delivery = event(
      'order_status_bot',
      { id: order.id, status: 'paid' },
      { id: order.id, status: 'waiting_for_payment' },
    );
    // A delivery of the bot before the outbox claimed the event, without its row.
    await db.pool.query(
      `INSERT INTO bot.handled_events (event_id, trigger_name) VALUES ($1, 'order_status_bot')`,
      [delivery.id],
    );
    expect(await service.postEvent(delivery)).toEqual({
      status: 503,
      body: { code: 'delivery-in-progress' },
    });
    expect(service.emulator.chatMessages(user.id)).toEqual([]);
    // That delivery's process died mid-send minutes ago: the next one queues it.
    await db.pool.query(
      `UPDATE bot.handled_events SET claimed_at = now() - interval '5 minutes' WHERE event_id = $1`,
      [delivery.id],
    );
    expect(await service.postEvent(delivery)).toEqual({ status: 200, body: { status: 'queued' } });
    expect(await service.botMessages(user.id, 1)).toHaveLength(1);
  });

  it('takes over the claim of a sender that died mid-send, and leaves a live one alone', async () => {
    const { user, id } = await linkedAccount();
    const dead = await orderIn(id, 'paid');
    const live = await orderIn(id, 'completed');
    const [deadEvent, liveEvent] = [randomUUID(), randomUUID()];
    await db.pool.query(
      `INSERT INTO bot.handled_events (event_id, trigger_name, subject_id, status, claimed_at, attempts)
       VALUES ($1, 'order_status_bot', $2, 'sending', now() - interval '5 minutes', 1),
              ($3, 'order_status_bot', $4, 'sending', now(), 1)`,
      [deadEvent, dead.id, liveEvent, live.id],
    );
    const [message] = await service.botMessages(user.id, 1);
    expect(message!.text).toContain(`№${dead.number}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(service.emulator.chatMessages(user.id)).toHaveLength(1);
    const { rows } = await db.pool.query<{ event_id: string; status: string; attempts: number }>(
      `SELECT event_id::text, status, attempts FROM bot.handled_events
        WHERE event_id = ANY($1::uuid[]) ORDER BY event_id = $2 DESC`,
      [[deadEvent, liveEvent], deadEvent],
    );
    expect(rows).toEqual([
      { event_id: deadEvent, status: 'sent', attempts: 2 },
      { event_id: liveEvent, status: 'sending', attempts: 1 },
    ]);
    // The live claim's sender finishes it (here: the test, for the outbox to settle).
    await db.pool.query(`UPDATE bot.handled_events SET status = 'sent' WHERE event_id = $1`, [
      liveEvent,
    ]);
  });

  it('sends nothing for an owner without Telegram, or when the status did not change', async () => {
    const before = service.emulator.allMessages().length;
    const emailOnly = await insertOrder(db.pool, await insertUser(db.pool));
    expect(
      (
        await service.postEvent(
          event(
            'order_status_bot',
            { id: emailOnly.id, status: 'paid' },
            { id: emailOnly.id, status: 'waiting_for_payment' },
          ),
        )
      ).status,
    ).toBe(200);
    const { id } = await linkedAccount();
    const same = await insertOrder(db.pool, id);
    const unchanged = event(
      'order_status_bot',
      { id: same.id, status: 'waiting_for_operator' },
      { id: same.id, status: 'waiting_for_operator' },
    );
    expect((await service.postEvent(unchanged)).status).toBe(200);
    await service.settled();
    expect(service.emulator.allMessages()).toHaveLength(before);
  });

  it('refuses a forged event or update, and a malformed event, and sends nothing', async () => {
    const before = service.emulator.allMessages().length;
    const { id } = await linkedAccount();
    const order = await insertOrder(db.pool, id);
    const delivery = event('order_created_bot', { id: order.id });
    expect((await service.postEvent(delivery, null)).status).toBe(401);
    expect((await service.postEvent(delivery, 'not-the-secret-0123456789')).status).toBe(401);
    expect((await service.postEvent({ id: 'x', trigger: {} })).status).toBe(400);
    const forged = await fetch(`${service.url}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        update_id: 1,
        message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: '/start' },
      }),
    });
    expect(forged.status).toBe(401);
    expect(service.emulator.allMessages()).toHaveLength(before);
  });

  it('takes updates by webhook with Telegram’s secret-token header', async () => {
    const user = telegramUser();
    const update = {
      update_id: 900_000_001,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: user.id, type: 'private', first_name: user.first_name },
        from: user,
        text: '/help',
        entities: [{ type: 'bot_command', offset: 0, length: 5 }],
      },
    };
    const response = await fetch(`${service.url}/telegram/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': WEBHOOK_SECRET,
      },
      body: JSON.stringify(update),
    });
    expect(response.status).toBe(200);
    const [reply] = await service.botMessages(user.id, 1);
    expect(reply!.text).toBe(botCatalogs.en.help.text);
  });

  it('waits out a 429 with retry_after instead of losing the message', async () => {
    const { id } = await linkedAccount();
    const order = await insertOrder(db.pool, id);
    const calls = service.emulator.calls.length;
    service.emulator.failNext(1, 1);
    const started = Date.now();
    const answer = await service.postEvent(event('order_created_bot', { id: order.id }));
    expect(answer.status).toBe(200);
    await service.settled();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const sent = service.emulator.calls
      .slice(calls)
      .filter((call) => call.method === 'sendMessage');
    expect(sent).toHaveLength(2);
    const staff = service.emulator
      .chatMessages(STAFF_CHAT)
      .filter((message) => message.text.includes(`№${order.number}`));
    expect(staff).toHaveLength(1);
    expect(buttonsOf(staff[0]!)).toEqual([
      {
        text: botCatalogs.en.staff.openConsole,
        url: `https://exchange.test/admin/transactions?order=${order.id}`,
      },
    ]);
  });

  it('sends a failed message again later, once, and gives up after the last attempt', async () => {
    const { user, id } = await linkedAccount();
    const order = await orderIn(id, 'completed');
    const delivery = event(
      'order_status_bot',
      { id: order.id, status: 'completed' },
      { id: order.id, status: 'paid' },
    );
    // Telegram refuses more 429s than the bot retries (1 + 5 calls): the first attempt fails,
    // the next one (200 ms later here, 30 s in production) sends.
    service.emulator.failNext(6, 0);
    expect(await service.postEvent(delivery)).toEqual({ status: 200, body: { status: 'queued' } });
    await service.settled();
    expect(await service.botMessages(user.id, 1)).toHaveLength(1);
    const attempts = await db.pool.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM bot.handled_events WHERE event_id = $1',
      [delivery.id],
    );
    expect(attempts.rows).toEqual([{ status: 'sent', attempts: 2 }]);

    // Telegram refusing for good: given up after the last attempt, logged, nothing sent.
    const refused = event(
      'order_status_bot',
      { id: order.id, status: 'completed' },
      { id: order.id, status: 'paid' },
    );
    await db.pool.query(
      `INSERT INTO bot.handled_events (event_id, trigger_name, subject_id, status, attempts)
       VALUES ($1, 'order_status_bot', $2, 'queued', 10)`,
      [refused.id, order.id],
    );
    service.emulator.failNext(6, 0);
    await service.settled();
    service.emulator.failNext(0, 0);
    const given = await db.pool.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM bot.handled_events WHERE event_id = $1',
      [refused.id],
    );
    expect(given.rows).toEqual([{ status: 'failed', attempts: 11 }]);
    expect(service.emulator.chatMessages(user.id)).toHaveLength(1);
    expect((await service.postEvent(refused)).body).toEqual({ status: 'already-handled' });
  });

  it.each(LANGUAGES)(
    'tells the owner of each side state in %s, with its reason, and no payment details',
    async (code, locale) => {
      const { user, id } = await linkedAccount(code, locale);
      const texts = botCatalogs[locale].status;
      const names = resources[locale].trust.statuses;
      const changed = (number: string, status: keyof typeof names) =>
        texts.changed.replace('{{number}}', number).replace('{{status}}', names[status]);
      const cases = [
        {
          status: 'on_hold',
          kind: 'bank',
          lines: (n: string) => [
            changed(n, 'on_hold'),
            texts.holdCategories.source_of_funds,
            texts.on_hold,
          ],
        },
        {
          status: 'needs_user_action',
          kind: 'crypto',
          lines: (n: string) => [
            changed(n, 'needs_user_action'),
            texts.actionReasons.underpaid
              .replace('{{received}}', '0.014 BTC')
              .replace('{{expected}}', '0.015 BTC'),
            texts.needs_user_action,
          ],
        },
        {
          status: 'refund_required',
          kind: 'bank',
          lines: (n: string) => [
            changed(n, 'needs_user_action'),
            texts.actionReasons.refund_required,
          ],
        },
        {
          status: 'refund_in_progress',
          kind: 'crypto',
          lines: (n: string) => [changed(n, 'refund_in_progress'), texts.refund_in_progress],
        },
        {
          status: 'refunded',
          kind: 'bank',
          lines: (n: string) => [changed(n, 'refunded'), texts.refunded],
        },
        {
          status: 'expired',
          kind: 'crypto',
          lines: (n: string) => [changed(n, 'expired'), texts.expired],
        },
      ] as const;
      let count = 0;
      for (const { status, kind, lines } of cases) {
        const order = await orderIn(id, status, {}, kind);
        const { rows } = await db.pool.query<{ status: string }>(
          'SELECT status FROM transactions WHERE id = $1',
          [order.id],
        );
        const delivery = event(
          'order_status_bot',
          { id: order.id, status: rows[0]!.status },
          { id: order.id, status: 'waiting_for_payment' },
        );
        expect(await service.postEvent(delivery)).toEqual({
          status: 200,
          body: { status: 'queued' },
        });
        expect((await service.postEvent(delivery)).body).toEqual({ status: 'already-handled' });
        count += 1;
        const message = (await service.botMessages(user.id, count)).at(-1)!;
        expect(message.text).toBe(lines(order.number).join('\n'));
        expect(buttonsOf(message)).toEqual([
          { text: texts.open, web_app: { url: `${MINIAPP_URL}?startapp=order_${order.id}` } },
        ]);
      }
      expect(service.emulator.chatMessages(user.id)).toHaveLength(cases.length);
    },
  );

  it('names the side states in /history', async () => {
    const { user, id } = await linkedAccount('ru', 'ru');
    const held = await orderIn(id, 'on_hold', {}, 'bank');
    const reply = await service.say(user, '/history');
    expect(reply.text.split('\n')[1]).toBe(
      `№${held.number} · 1000 EUR → 0.0123 BTC · ${resources.ru.trust.statuses.on_hold}`,
    );
  });

  /** A `requisites_late_at` update as the engine delivers it (the deadlines job's flag). */
  const lateEvent = (
    orderId: string,
    before: string | null,
    after: string | null,
    status = 'waiting_for_operator',
  ) =>
    event(
      'order_requisites_late_bot',
      { id: orderId, status, requisites_late_at: after },
      { id: orderId, status, requisites_late_at: before },
    );

  it('tells the staff chats once when an order’s payment details are late', async () => {
    const order = await insertOrder(db.pool, await insertUser(db.pool), {
      created_at: new Date(Date.now() - 25 * 60_000).toISOString(),
      requisites_due_at: new Date(Date.now() - 15 * 60_000).toISOString(),
    });
    const { rows } = await db.pool.query<{ late: string; due: string; created: string }>(
      `UPDATE transactions SET requisites_late_at = now() WHERE id = $1
       RETURNING requisites_late_at::text AS late,
                 to_char(requisites_due_at AT TIME ZONE 'UTC', 'HH24:MI') AS due,
                 to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS created`,
      [order.id],
    );
    const { late, due, created } = rows[0]!;
    const delivery = lateEvent(order.id, null, late);
    expect(await service.postEvent(delivery)).toEqual({ status: 200, body: { status: 'queued' } });
    // The engine's retry after a lost answer, and two deliveries at once: still one message.
    expect((await service.postEvent(delivery)).body).toEqual({ status: 'already-handled' });
    await Promise.all([service.postEvent(delivery), service.postEvent(delivery)]);
    await service.settled();
    const staff = service.emulator
      .chatMessages(STAFF_CHAT)
      .filter((message) => message.text.includes(`№${order.number}:`));
    expect(staff).toHaveLength(1);
    expect(staff[0]!.text).toBe(
      botCatalogs.en.staff.requisitesLate
        .replace('{{number}}', order.number)
        .replace('{{due}}', due)
        .replace('{{created}}', created)
        .replace('{{send}}', '0.015 BTC')
        .replace('{{receive}}', '1432.5 USDT (TRC20)'),
    );
    expect(staff[0]!.text).toMatch(
      new RegExp(
        `^Order №${order.number}: payment details are late \\(due \\d\\d:\\d\\d UTC, created \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)\\.\\n`,
      ),
    );
    expect(buttonsOf(staff[0]!)).toEqual([
      {
        text: botCatalogs.en.staff.openConsole,
        url: `https://exchange.test/admin/transactions?order=${order.id}`,
      },
    ]);
  });

  it('says nothing of late details for any other change, or once the order moved on', async () => {
    const before = service.emulator.allMessages().length;
    const owner = await insertUser(db.pool);
    const late = new Date().toISOString();

    // Flagged, but the operator gave the details before the event arrived.
    const moved = await insertOrder(db.pool, owner);
    await db.pool.query(`UPDATE transactions SET requisites_late_at = now() WHERE id = $1`, [
      moved.id,
    ]);
    await db.pool.query(
      `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = $2,
                               deposit_memo = 'memo-moved-on-1'
        WHERE id = $1`,
      [moved.id, `bc1qmovedon${randomUUID().slice(0, 12)}`],
    );
    // The event row says it is late, the database says it waits for payment now.
    const answers = [await service.postEvent(lateEvent(moved.id, null, late))];

    // An order whose flag is set in the database, but the update did not set it (it was set
    // before, or it was cleared).
    const flagged = await insertOrder(db.pool, owner);
    await db.pool.query(`UPDATE transactions SET requisites_late_at = now() WHERE id = $1`, [
      flagged.id,
    ]);
    answers.push(await service.postEvent(lateEvent(flagged.id, late, late)));
    answers.push(await service.postEvent(lateEvent(flagged.id, late, null)));
    answers.push(await service.postEvent(lateEvent(flagged.id, null, null)));

    // Not flagged in the database at all.
    const onTime = await insertOrder(db.pool, owner);
    answers.push(await service.postEvent(lateEvent(onTime.id, null, late)));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await service.settled();
    expect(service.emulator.allMessages()).toHaveLength(before);
  });

  it('sent no payment details, with both kinds in the database', async () => {
    const report = await scanForRequisites(db.pool, everythingSent(service.emulator));
    expect(report.messages).toBeGreaterThan(20);
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

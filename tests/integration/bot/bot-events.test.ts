import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { resources } from '@app/shared/i18n';
import { botCatalogs } from '@app/shared/i18n/bot';

import { databaseTargets } from '../../support/databases.ts';
import { insertOrder, insertUser } from '../../support/fixtures.ts';

import { event, useBotWorld } from './bot-world.ts';
import { buttonsOf, MINIAPP_URL, STAFF_CHAT, telegramUser, WEBHOOK_SECRET } from './harness.ts';

/*
 * The bot's event deliveries against the Bot API emulator (issue: bot): the event triggers'
 * messages through the outbox (exactly once per event, claims of dead senders taken over), a
 * refused forged call, the webhook's secret token, a 429 waited out, a failed send retried,
 * and the staff's late-requisites alert. After each test everything the bot sent is scanned
 * for payment details (bot-world.ts).
 */

describe.each(databaseTargets)('the Telegram bot on $name', (target) => {
  const world = useBotWorld(target);
  const { linkedAccount, orderIn } = world;

  it("tells an order's owner of a status change once, however often the event arrives", async () => {
    const { user, id } = await linkedAccount('uk', 'ua');
    const order = await orderIn(id, 'paid');
    const delivery = event(
      'order_status_bot',
      { id: order.id, status: 'paid' },
      { id: order.id, status: 'waiting_for_payment' },
    );
    expect(await world.service.postEvent(delivery)).toEqual({
      status: 200,
      body: { status: 'queued' },
    });
    // The engine's retry after a lost answer, and two deliveries at once.
    expect((await world.service.postEvent(delivery)).body).toEqual({ status: 'already-handled' });
    await Promise.all([world.service.postEvent(delivery), world.service.postEvent(delivery)]);
    await world.service.settled();
    const [message, ...more] = await world.service.botMessages(user.id, 1);
    expect(more).toEqual([]);
    const texts = botCatalogs.ua.status;
    expect(message!.text).toBe(
      `${texts.changed.replace('{{number}}', order.number).replace('{{status}}', resources.ua.exchange.transaction.statuses.paid)}\n${texts.paid}`,
    );
    expect(buttonsOf(message!)).toEqual([
      { text: texts.open, web_app: { url: `${MINIAPP_URL}?startapp=order_${order.id}` } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.service.emulator.chatMessages(user.id)).toHaveLength(1);
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
    await world.db.pool.query(
      `INSERT INTO bot.handled_events (event_id, trigger_name) VALUES ($1, 'order_status_bot')`,
      [delivery.id],
    );
    expect(await world.service.postEvent(delivery)).toEqual({
      status: 503,
      body: { code: 'delivery-in-progress' },
    });
    expect(world.service.emulator.chatMessages(user.id)).toEqual([]);
    // That delivery's process died mid-send minutes ago: the next one queues it.
    await world.db.pool.query(
      `UPDATE bot.handled_events SET claimed_at = now() - interval '5 minutes' WHERE event_id = $1`,
      [delivery.id],
    );
    expect(await world.service.postEvent(delivery)).toEqual({
      status: 200,
      body: { status: 'queued' },
    });
    expect(await world.service.botMessages(user.id, 1)).toHaveLength(1);
  });

  it('takes over the claim of a sender that died mid-send, and leaves a live one alone', async () => {
    const { user, id } = await linkedAccount();
    const dead = await orderIn(id, 'paid');
    const live = await orderIn(id, 'completed');
    const [deadEvent, liveEvent] = [randomUUID(), randomUUID()];
    await world.db.pool.query(
      `INSERT INTO bot.handled_events (event_id, trigger_name, subject_id, status, claimed_at, attempts)
       VALUES ($1, 'order_status_bot', $2, 'sending', now() - interval '5 minutes', 1),
              ($3, 'order_status_bot', $4, 'sending', now(), 1)`,
      [deadEvent, dead.id, liveEvent, live.id],
    );
    const [message] = await world.service.botMessages(user.id, 1);
    expect(message!.text).toContain(`№${dead.number}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.service.emulator.chatMessages(user.id)).toHaveLength(1);
    const { rows } = await world.db.pool.query<{
      event_id: string;
      status: string;
      attempts: number;
    }>(
      `SELECT event_id::text, status, attempts FROM bot.handled_events
        WHERE event_id = ANY($1::uuid[]) ORDER BY event_id = $2 DESC`,
      [[deadEvent, liveEvent], deadEvent],
    );
    expect(rows).toEqual([
      { event_id: deadEvent, status: 'sent', attempts: 2 },
      { event_id: liveEvent, status: 'sending', attempts: 1 },
    ]);
    // The live claim's sender finishes it (here: the test, for the outbox to settle).
    await world.db.pool.query(`UPDATE bot.handled_events SET status = 'sent' WHERE event_id = $1`, [
      liveEvent,
    ]);
  });

  it('sends nothing for an owner without Telegram, or when the status did not change', async () => {
    const before = world.service.emulator.allMessages().length;
    const emailOnly = await insertOrder(world.db.pool, await insertUser(world.db.pool));
    expect(
      (
        await world.service.postEvent(
          event(
            'order_status_bot',
            { id: emailOnly.id, status: 'paid' },
            { id: emailOnly.id, status: 'waiting_for_payment' },
          ),
        )
      ).status,
    ).toBe(200);
    const { id } = await linkedAccount();
    const same = await insertOrder(world.db.pool, id);
    const unchanged = event(
      'order_status_bot',
      { id: same.id, status: 'waiting_for_operator' },
      { id: same.id, status: 'waiting_for_operator' },
    );
    expect((await world.service.postEvent(unchanged)).status).toBe(200);
    await world.service.settled();
    expect(world.service.emulator.allMessages()).toHaveLength(before);
  });

  it('refuses a forged event or update, and a malformed event, and sends nothing', async () => {
    const before = world.service.emulator.allMessages().length;
    const { id } = await linkedAccount();
    const order = await insertOrder(world.db.pool, id);
    const delivery = event('order_created_bot', { id: order.id });
    expect((await world.service.postEvent(delivery, null)).status).toBe(401);
    expect((await world.service.postEvent(delivery, 'not-the-secret-0123456789')).status).toBe(401);
    expect((await world.service.postEvent({ id: 'x', trigger: {} })).status).toBe(400);
    const forged = await fetch(`${world.service.url}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        update_id: 1,
        message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: '/start' },
      }),
    });
    expect(forged.status).toBe(401);
    expect(world.service.emulator.allMessages()).toHaveLength(before);
  });

  it('takes updates by webhook with Telegram’s secret-token header', async () => {
    const user = telegramUser();
    // The update comes straight to the webhook, past the emulator: the person wrote to the bot.
    world.service.emulator.userStartedBot(user);
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
    const response = await fetch(`${world.service.url}/telegram/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': WEBHOOK_SECRET,
      },
      body: JSON.stringify(update),
    });
    expect(response.status).toBe(200);
    const [reply] = await world.service.botMessages(user.id, 1);
    expect(reply!.text).toBe(botCatalogs.en.help.text);
  });

  it('waits out a 429 with retry_after instead of losing the message', async () => {
    const { id } = await linkedAccount();
    const order = await insertOrder(world.db.pool, id);
    const calls = world.service.emulator.calls.length;
    world.service.emulator.failNext(1, 1);
    const started = Date.now();
    const answer = await world.service.postEvent(event('order_created_bot', { id: order.id }));
    expect(answer.status).toBe(200);
    await world.service.settled();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const sent = world.service.emulator.calls
      .slice(calls)
      .filter((call) => call.method === 'sendMessage');
    expect(sent).toHaveLength(2);
    const staff = world.service.emulator
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
    world.service.emulator.failNext(6, 0);
    expect(await world.service.postEvent(delivery)).toEqual({
      status: 200,
      body: { status: 'queued' },
    });
    await world.service.settled();
    expect(await world.service.botMessages(user.id, 1)).toHaveLength(1);
    const attempts = await world.db.pool.query<{ status: string; attempts: number }>(
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
    await world.db.pool.query(
      `INSERT INTO bot.handled_events (event_id, trigger_name, subject_id, status, attempts)
       VALUES ($1, 'order_status_bot', $2, 'queued', 10)`,
      [refused.id, order.id],
    );
    world.service.emulator.failNext(6, 0);
    await world.service.settled();
    world.service.emulator.failNext(0, 0);
    const given = await world.db.pool.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM bot.handled_events WHERE event_id = $1',
      [refused.id],
    );
    expect(given.rows).toEqual([{ status: 'failed', attempts: 11 }]);
    expect(world.service.emulator.chatMessages(user.id)).toHaveLength(1);
    expect((await world.service.postEvent(refused)).body).toEqual({ status: 'already-handled' });
  });

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
    const order = await insertOrder(world.db.pool, await insertUser(world.db.pool), {
      created_at: new Date(Date.now() - 25 * 60_000).toISOString(),
      requisites_due_at: new Date(Date.now() - 15 * 60_000).toISOString(),
    });
    const { rows } = await world.db.pool.query<{ late: string; due: string; created: string }>(
      `UPDATE transactions SET requisites_late_at = now() WHERE id = $1
       RETURNING requisites_late_at::text AS late,
                 to_char(requisites_due_at AT TIME ZONE 'UTC', 'HH24:MI') AS due,
                 to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS created`,
      [order.id],
    );
    const { late, due, created } = rows[0]!;
    const delivery = lateEvent(order.id, null, late);
    expect(await world.service.postEvent(delivery)).toEqual({
      status: 200,
      body: { status: 'queued' },
    });
    // The engine's retry after a lost answer, and two deliveries at once: still one message.
    expect((await world.service.postEvent(delivery)).body).toEqual({ status: 'already-handled' });
    await Promise.all([world.service.postEvent(delivery), world.service.postEvent(delivery)]);
    await world.service.settled();
    const staff = world.service.emulator
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
    const before = world.service.emulator.allMessages().length;
    const owner = await insertUser(world.db.pool);
    const late = new Date().toISOString();

    // Flagged, but the operator gave the details before the event arrived.
    const moved = await insertOrder(world.db.pool, owner);
    await world.db.pool.query(`UPDATE transactions SET requisites_late_at = now() WHERE id = $1`, [
      moved.id,
    ]);
    await world.db.pool.query(
      `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = $2,
                               deposit_memo = 'memo-moved-on-1'
        WHERE id = $1`,
      [moved.id, `bc1qmovedon${randomUUID().slice(0, 12)}`],
    );
    // The event row says it is late, the database says it waits for payment now.
    const answers = [await world.service.postEvent(lateEvent(moved.id, null, late))];

    // An order whose flag is set in the database, but the update did not set it (it was set
    // before, or it was cleared).
    const flagged = await insertOrder(world.db.pool, owner);
    await world.db.pool.query(`UPDATE transactions SET requisites_late_at = now() WHERE id = $1`, [
      flagged.id,
    ]);
    answers.push(await world.service.postEvent(lateEvent(flagged.id, late, late)));
    answers.push(await world.service.postEvent(lateEvent(flagged.id, late, null)));
    answers.push(await world.service.postEvent(lateEvent(flagged.id, null, null)));

    // Not flagged in the database at all.
    const onTime = await insertOrder(world.db.pool, owner);
    answers.push(await world.service.postEvent(lateEvent(onTime.id, null, late)));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await world.service.settled();
    expect(world.service.emulator.allMessages()).toHaveLength(before);
  });
});

import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';

import { databaseTargets } from '../../support/databases.ts';
import { ACTIONS_SECRET } from '../actions/harness.ts';

import {
  BOT_EVENTS_SECRET,
  html,
  INBOX,
  legacyRow,
  until,
  useNotificationsWorld,
} from './notifications-world.ts';

/*
 * How notifications are delivered through the real parts (notifications-world.ts): the
 * late-requisites flag posted to the bot, an order event logged before the trust columns, a
 * support request to the bot and the staff inbox, a refused e-mail retried apart from the bot
 * delivery, and callers without the secret or with malformed events refused.
 */

describe.each(databaseTargets)('order and support notifications on $name', (target) => {
  const world = useNotificationsWorld(target);
  const { customer, insertOrder, eventRow, move, giveRequisites, mailWith } = world;

  it('posts the late-requisites flag to the bot, and nothing for other changes', async () => {
    const email = 'late-flag@example.com';
    const order = await insertOrder({ email, locale: 'en' });
    await mailWith(email, `Order #${order.number} created`);
    await move(order.id, 'requisites_late_at = now()');
    const delivery = await world.bot.waitFor(
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
    const { rows } = await world.db.pool.query<{ trigger_name: string; n: number }>(
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
    const response = await fetch(`${world.stack.actionsUrl}/events/order_status_email`, {
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
    const { rows } = await world.db.pool.query<{ id: string }>(
      `INSERT INTO support_requests (name, email, order_id, subject, message)
       VALUES ('Eve <b>', $1, '100123', 'Where is my payout?', $2) RETURNING id`,
      [email, 'Hello,\nmy payout has not arrived.\n<script>alert(1)</script>'],
    );
    const id = rows[0]!.id;

    const mail = await world.mailbox.waitFor(INBOX, (m) => m.text?.includes(id) ?? false);
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

    const delivery = await world.bot.waitFor(
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
    world.mailbox.refuse();
    let id: string;
    let first: { id: string; tries: number; delivered: boolean; error: boolean };
    try {
      const { rows } = await world.db.pool.query<{ id: string }>(
        `INSERT INTO support_requests (name, email, message) VALUES ('Frank', $1, 'Retry me')
         RETURNING id`,
        [email],
      );
      id = rows[0]!.id;
      // The bot gets its copy at once, whatever the mail does.
      await world.bot.waitFor(
        (d) =>
          d.body.trigger.name === 'support_request_bot' && d.body.event.data.new?.['id'] === id,
      );
      first = await until(async () => {
        const row = await eventRow('support_request_email', id);
        return row && row.tries >= 1 ? row : undefined;
      }, 'the first e-mail attempt');
    } finally {
      world.mailbox.accept();
    }
    expect(first).toMatchObject({ tries: 1, delivered: false, error: false });
    expect(world.mailbox.refused).toBeGreaterThan(0);
    const { rows: invocations } = await world.db.pool.query<{ status: number }>(
      'SELECT status FROM hdb_catalog.event_invocation_logs WHERE event_id = $1',
      [first.id],
    );
    expect(invocations.map((row) => row.status)).toEqual([503]);

    // The retry is due in retry_conf.interval_sec (60 s); bring it forward.
    await world.db.pool.query(
      'UPDATE hdb_catalog.event_log SET next_retry_at = now() WHERE id = $1',
      [first.id],
    );
    const mail = await world.mailbox.waitFor(INBOX, (m) => m.text?.includes(id) ?? false);
    expect(mail.text).toContain('Retry me');
    const delivered = await until(async () => {
      const row = await eventRow('support_request_email', id);
      return row?.delivered ? row : undefined;
    }, 'the event to be marked delivered');
    expect(delivered.tries).toBe(2);
  });

  it('refuses callers without the secret and answers malformed events with 4xx', async () => {
    const url = `${world.stack.actionsUrl}/events/order_created_email`;
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
    expect((await post({}, {}, `${world.stack.actionsUrl}/cron/refresh-rates`)).status).toBe(401);

    const ok = { [SECRET_HEADER]: ACTIONS_SECRET };
    expect((await post('{not json', ok)).status).toBe(400);
    expect((await post({ id: 'x' }, ok)).status).toBe(400);
    // A row without the order's columns.
    expect((await post(valid, ok)).status).toBe(400);
    // The trigger in the body must be the one in the URL.
    expect((await post({ ...valid, trigger: { name: 'support_request_email' } }, ok)).status).toBe(
      400,
    );
    expect((await post(valid, ok, `${world.stack.actionsUrl}/events/no_such_trigger`)).status).toBe(
      404,
    );
  });
});

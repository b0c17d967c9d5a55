import type pg from 'pg';

import type { BotApiEmulator } from '@app/bot/sandbox/emulator';

import type { Mailbox } from '../../support/mailbox.ts';

import { delay, orderMessages } from './services.ts';

/*
 * Whether the new-order events of a set of orders reached their receivers: the engine's log
 * (hdb_catalog.event_log, delivered), the bot (each event handled: `sent` in
 * bot.handled_events, and at most one Telegram message per order) and the e-mail (at least
 * once; a repeat carries the same Message-ID, `<event id>.<trigger>@<host>`, so distinct
 * Message-IDs count the mails a reader sees).
 */

export const BOT_TRIGGER = 'order_created_bot';
export const EMAIL_TRIGGER = 'order_created_email';

export interface EventRow {
  id: string;
  trigger_name: string;
  order_id: string;
  delivered: boolean;
  error: boolean;
  tries: number;
}

export async function newOrderEvents(pool: pg.Pool, orderIds: string[]): Promise<EventRow[]> {
  const { rows } = await pool.query<EventRow>(
    `SELECT id::text, trigger_name, payload->'data'->'new'->>'id' AS order_id, delivered, error,
            tries
       FROM hdb_catalog.event_log
      WHERE trigger_name = ANY($1) AND payload->'data'->'new'->>'id' = ANY($2)`,
    [[BOT_TRIGGER, EMAIL_TRIGGER], orderIds],
  );
  return rows;
}

export interface DeliveryReport {
  orders: number;
  /** Events in the log for these orders, per trigger. */
  events: Record<string, number>;
  /** Events the log does not mark delivered (after waiting). */
  undelivered: EventRow[];
  /** Orders without a new-order event of some trigger. */
  missingEvents: number;
  /** Bot events the bot has not recorded as handled (`sent` in bot.handled_events). */
  botMissing: string[];
  /** Telegram messages beyond one per order (acted on twice). */
  botDuplicates: number;
  /** Orders without any mail of their order_created_email event. */
  mailMissing: string[];
  /** Mails beyond one per event (allowed: at least once), and distinct Message-IDs. */
  mailRepeats: number;
  mailDistinct: number;
  /** How long it took, from the call, until everything was delivered (or the wait ended). */
  waitedMs: number;
}

function mailsByEvent(mailbox: Mailbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of mailbox.messages) {
    const match = /^<([0-9a-f-]{36})\.order_created_email@/.exec(mail.messageId ?? '');
    if (match) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  }
  return counts;
}

/**
 * Waits (up to `timeoutMs`) until every order's new-order events are delivered and acted on,
 * then reports what arrived. `bot` false: only e-mail is checked at a receiver.
 */
export async function awaitDeliveries(options: {
  pool: pg.Pool;
  orderIds: string[];
  mailbox: Mailbox;
  /** The bot's Bot API (its messages are counted); undefined: the bot is not checked. */
  emulator: BotApiEmulator | undefined;
  timeoutMs: number;
}): Promise<DeliveryReport> {
  const { pool, orderIds, mailbox, emulator } = options;
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  const triggers = emulator ? [BOT_TRIGGER, EMAIL_TRIGGER] : [EMAIL_TRIGGER];
  for (;;) {
    const events = (await newOrderEvents(pool, orderIds).catch(() => [] as EventRow[])).filter(
      (event) => triggers.includes(event.trigger_name),
    );
    const mails = mailsByEvent(mailbox);
    const messages = emulator ? orderMessages(emulator) : new Map<string, number>();
    const botEvents = events.filter((event) => event.trigger_name === BOT_TRIGGER);
    const handled = emulator
      ? await pool
          .query<{ event_id: string }>(
            `SELECT event_id::text FROM bot.handled_events WHERE status = 'sent' AND event_id = ANY($1)`,
            [botEvents.map((event) => event.id)],
          )
          .then(({ rows }) => new Set(rows.map((row) => row.event_id)))
          .catch(() => new Set<string>())
      : new Set<string>();
    const byTrigger: Record<string, number> = {};
    for (const event of events)
      byTrigger[event.trigger_name] = (byTrigger[event.trigger_name] ?? 0) + 1;
    const undelivered = events.filter((event) => !event.delivered);
    const emailEvents = events.filter((event) => event.trigger_name === EMAIL_TRIGGER);
    const mailMissing = emailEvents
      .filter((event) => (mails.get(event.id) ?? 0) === 0)
      .map((event) => event.order_id);
    const botMissing = botEvents.filter((event) => !handled.has(event.id)).map((event) => event.id);
    const missingEvents = triggers
      .map((trigger) => orderIds.length - (byTrigger[trigger] ?? 0))
      .reduce((sum, value) => sum + value, 0);
    const done =
      undelivered.length === 0 &&
      missingEvents === 0 &&
      mailMissing.length === 0 &&
      botMissing.length === 0;
    if (done || Date.now() > deadline) {
      let botDuplicates = 0;
      for (const count of messages.values()) botDuplicates += Math.max(0, count - 1);
      let mailRepeats = 0;
      let mailDistinct = 0;
      for (const event of emailEvents) {
        const count = mails.get(event.id) ?? 0;
        if (count > 0) mailDistinct += 1;
        mailRepeats += Math.max(0, count - 1);
      }
      return {
        orders: orderIds.length,
        events: byTrigger,
        undelivered,
        missingEvents,
        botMissing,
        botDuplicates,
        mailMissing,
        mailRepeats,
        mailDistinct,
        waitedMs: Date.now() - started,
      };
    }
    await delay(500);
  }
}

import express, { type Router } from 'express';
import * as z from 'zod';

import { safeEqual } from '@app/shared/crypto/safe-equal';
import type { Logger } from '@app/shared/log';

import type { Pool } from '../db.ts';
import type { BotEnv } from '../env.ts';

import { isOutboxTrigger, STALE_CLAIM_SECONDS, type Outbox } from './outbox.ts';

/*
 * The engine's event triggers for the bot (docs/decisions/009-notifications.md): a new order,
 * an order whose payment details are late (decision 015), a new support request and a chain
 * payment that moved no order (decision 053) to the staff chats; an order's status change and
 * a payment first seen on-chain to its owner. A delivery is recorded in the bot's
 * outbox (bot.handled_events, keyed by the event's id) and answered at once; the outbox
 * (outbox.ts) sends the message at Telegram's pace, once, however often the event arrives.
 * Answers: 200 queued (or a repeat, or nothing to send), 400 malformed, 401 without the secret,
 * 503 retry later (the database failed, or a claim of the bot before the outbox is still
 * sending the event).
 */

const HasuraEvent = z.object({
  id: z.uuid(),
  trigger: z.object({ name: z.string().min(1).max(100) }),
  event: z.object({
    op: z.string(),
    data: z.object({
      old: z.record(z.string(), z.unknown()).nullable().optional(),
      new: z.record(z.string(), z.unknown()).nullable().optional(),
    }),
  }),
});
export type HasuraEvent = z.infer<typeof HasuraEvent>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventsDeps {
  env: BotEnv;
  pool: Pool;
  logger: Logger;
  /** Told of each queued event, so it is sent now rather than at the next poll. */
  outbox: Pick<Outbox, 'kick'>;
}

/**
 * The row whose message the event asks for (an order or a support request), or undefined when
 * the event needs none: another change of the row, or a trigger the bot does not know.
 */
function subjectOf(deps: EventsDeps, event: HasuraEvent): string | undefined {
  const row = event.event.data.new ?? {};
  const id = typeof row['id'] === 'string' && UUID.test(row['id']) ? row['id'] : undefined;
  if (!id) return undefined;
  switch (event.trigger.name) {
    case 'order_status_bot':
      if (event.event.data.old?.['status'] === row['status']) return undefined;
      return id;
    case 'chain_payment_flag_bot':
      // Only when the outcome is first recorded, and only an outcome that moved no order.
      if (event.event.data.old?.['outcome'] != null) return undefined;
      if (row['outcome'] !== 'order_not_waiting' && row['outcome'] !== 'no_order') return undefined;
      return id;
    case 'order_requisites_late_bot':
      // Only the deadlines job's flag (null -> a time), never another change of the column.
      if (event.event.data.old?.['requisites_late_at'] != null) return undefined;
      if (row['requisites_late_at'] == null) return undefined;
      return id;
    default:
      if (isOutboxTrigger(event.trigger.name)) return id;
      deps.logger.warn({ trigger: event.trigger.name }, 'event of an unknown trigger ignored');
      return undefined;
  }
}

/**
 * Puts the event in the outbox: `queued` (new), `repeat` (it is there already: queued, sending,
 * sent or given up), or `busy` (a claim of the bot before the outbox, without the row, is still
 * being sent by that process; a stale one is taken over and queued).
 */
async function enqueue(
  pool: Pool,
  event: HasuraEvent,
  subjectId: string,
): Promise<'queued' | 'repeat' | 'busy'> {
  const { rowCount } = await pool.query(
    `INSERT INTO bot.handled_events (event_id, trigger_name, subject_id, status)
     VALUES ($1, $2, $3, 'queued')
     ON CONFLICT (event_id) DO UPDATE
        SET subject_id = EXCLUDED.subject_id, status = 'queued', next_attempt_at = now()
      WHERE bot.handled_events.subject_id IS NULL
        AND bot.handled_events.status = 'sending'
        AND bot.handled_events.claimed_at < now() - make_interval(secs => $4)`,
    [event.id, event.trigger.name, subjectId, STALE_CLAIM_SECONDS],
  );
  if (rowCount === 1) return 'queued';
  const { rows } = await pool.query<{ legacy: boolean }>(
    `SELECT subject_id IS NULL AND status = 'sending' AS legacy
       FROM bot.handled_events WHERE event_id = $1`,
    [event.id],
  );
  // Gone: that claim's send failed and let go; this delivery may queue it.
  if (rows.length === 0) return enqueue(pool, event, subjectId);
  return rows[0]!.legacy ? 'busy' : 'repeat';
}

/** An event that asks for no message, recorded as done (a repeat finds it so). */
const recordNothingToSend = (pool: Pool, event: HasuraEvent) =>
  pool.query(
    `INSERT INTO bot.handled_events (event_id, trigger_name, status, handled_at)
     VALUES ($1, $2, 'sent', now())
     ON CONFLICT (event_id) DO NOTHING`,
    [event.id, event.trigger.name],
  );

export function eventsRouter(deps: EventsDeps): Router {
  const router = express.Router();
  router.post('/events', express.json({ limit: '1mb' }), async (req, res) => {
    if (!safeEqual(req.get('x-events-secret'), deps.env.BOT_EVENTS_SECRET)) {
      res.status(401).json({ code: 'invalid-secret' });
      return;
    }
    const parsed = HasuraEvent.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ code: 'invalid-event' });
      return;
    }
    const event = parsed.data;
    const subjectId = subjectOf(deps, event);
    try {
      if (subjectId === undefined) {
        await recordNothingToSend(deps.pool, event);
        res.json({ status: 'nothing-to-send' });
        return;
      }
      const outcome = await enqueue(deps.pool, event, subjectId);
      if (outcome === 'busy') {
        res.status(503).json({ code: 'delivery-in-progress' });
        return;
      }
      if (outcome === 'queued') deps.outbox.kick();
      res.json({ status: outcome === 'queued' ? 'queued' : 'already-handled' });
    } catch (error) {
      deps.logger.error({ err: error, event: event.id }, 'cannot queue the event');
      res.status(503).json({ code: 'delivery-failed' });
    }
  });
  return router;
}

import { timingSafeEqual } from 'node:crypto';

import express, { type Router } from 'express';
import type { Api } from 'grammy';
import * as z from 'zod';

import type { Logger } from '@app/shared/log';

import type { Pool } from '../db.ts';
import type { BotEnv } from '../env.ts';
import {
  notifyNewOrder,
  notifyOrderStatus,
  notifyRequisitesLate,
  notifySupportRequest,
} from './notifications.ts';

/*
 * The engine's event triggers for the bot (docs/decisions/009-notifications.md): a new order,
 * an order whose payment details are late (decision 015) and a new support request to the
 * staff chats, an order's status change to its owner. Each
 * delivery carries the event's id, claimed in bot.handled_events before sending and marked
 * sent after, so a redelivered event (a lost answer, a restart, a second engine) sends nothing
 * twice, and a failed send drops the claim, so the engine's retry sends it. Answers: 200 done
 * (or a repeat), 400 malformed, 401 without the secret, 503 retry later (failed, or another
 * delivery of the event is sending).
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

function secretMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface EventsDeps {
  env: BotEnv;
  pool: Pool;
  api: Api;
  logger: Logger;
}

/** What each trigger does; unknown triggers are acknowledged and ignored. */
async function deliver(deps: EventsDeps, event: HasuraEvent): Promise<void> {
  const row = event.event.data.new ?? {};
  const id = typeof row['id'] === 'string' ? row['id'] : undefined;
  if (!id) return;
  const context = { env: deps.env, db: deps.pool, api: deps.api };
  switch (event.trigger.name) {
    case 'order_created_bot':
      return notifyNewOrder(context, id);
    case 'order_status_bot':
      if (event.event.data.old?.['status'] === row['status']) return;
      return notifyOrderStatus(context, id);
    case 'order_requisites_late_bot':
      // Only the deadlines job's flag (null -> a time), never another change of the column.
      if (event.event.data.old?.['requisites_late_at'] != null) return;
      if (row['requisites_late_at'] == null) return;
      return notifyRequisitesLate(context, id);
    case 'support_request_bot':
      return notifySupportRequest(context, id);
    default:
      deps.logger.warn({ trigger: event.trigger.name }, 'event of an unknown trigger ignored');
  }
}

/** A claim older than this belongs to a delivery that died mid-send: the next one takes over. */
const STALE_CLAIM_SECONDS = 120;

/**
 * Claims the event for this delivery: `claimed` (send it), `sent` (a repeat), or `busy` (another
 * delivery is sending it). One statement each, so no transaction waits on Telegram.
 */
async function claimEvent(pool: Pool, event: HasuraEvent): Promise<'claimed' | 'sent' | 'busy'> {
  const inserted = await pool.query(
    `INSERT INTO bot.handled_events (event_id, trigger_name) VALUES ($1, $2)
     ON CONFLICT (event_id) DO NOTHING`,
    [event.id, event.trigger.name],
  );
  if (inserted.rowCount === 1) return 'claimed';
  const taken = await pool.query(
    `UPDATE bot.handled_events SET claimed_at = now()
      WHERE event_id = $1 AND status = 'sending'
        AND claimed_at < now() - make_interval(secs => $2)`,
    [event.id, STALE_CLAIM_SECONDS],
  );
  if (taken.rowCount === 1) return 'claimed';
  const { rows } = await pool.query<{ status: string }>(
    'SELECT status FROM bot.handled_events WHERE event_id = $1',
    [event.id],
  );
  // Gone: the other delivery failed and let go; this one may take it.
  if (rows.length === 0) return claimEvent(pool, event);
  return rows[0]!.status === 'sent' ? 'sent' : 'busy';
}

export function eventsRouter(deps: EventsDeps): Router {
  const router = express.Router();
  router.post('/events', express.json({ limit: '1mb' }), async (req, res) => {
    if (!secretMatches(req.get('x-events-secret'), deps.env.BOT_EVENTS_SECRET)) {
      res.status(401).json({ code: 'invalid-secret' });
      return;
    }
    const parsed = HasuraEvent.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ code: 'invalid-event' });
      return;
    }
    const event = parsed.data;
    const claim = await claimEvent(deps.pool, event).catch((error: unknown) => {
      deps.logger.error({ err: error, event: event.id }, 'cannot claim the event');
      return 'error' as const;
    });
    if (claim === 'sent') {
      res.json({ status: 'already-handled' });
      return;
    }
    if (claim !== 'claimed') {
      // Another delivery of it is sending right now (or the database failed): retry later.
      res.status(503).json({ code: claim === 'busy' ? 'delivery-in-progress' : 'delivery-failed' });
      return;
    }
    try {
      await deliver(deps, event);
      await deps.pool.query(
        `UPDATE bot.handled_events SET status = 'sent', handled_at = now() WHERE event_id = $1`,
        [event.id],
      );
      res.json({ status: 'handled' });
    } catch (error) {
      // Unclaimed again, so the engine's retry sends it.
      await deps.pool
        .query('DELETE FROM bot.handled_events WHERE event_id = $1', [event.id])
        .catch(() => undefined);
      deps.logger.error(
        { err: error, event: event.id, trigger: event.trigger.name },
        'event failed',
      );
      res.status(503).json({ code: 'delivery-failed' });
    }
  });
  return router;
}

import { timingSafeEqual } from 'node:crypto';

import express, { type Router } from 'express';
import type { Api } from 'grammy';
import * as z from 'zod';

import { isConnectionError } from '@app/shared/db/service-pool';
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
 * twice, and a failed send drops the claim, so the engine's retry sends it. A delivery keeps
 * its claim fresh while it sends (the throttler may hold a message for minutes); a send whose
 * record fails (the database restarting) is answered done and recorded once the database is
 * back, never sent again. Answers: 200 done
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
  /** How often a delivery still sending renews its claim (default CLAIM_HEARTBEAT_MS; tests). */
  claimHeartbeatMs?: number;
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

/** A claim not renewed for this long belongs to a delivery that died mid-send: the next one takes over. */
const STALE_CLAIM_SECONDS = 120;

/**
 * A delivery renews its claim this often while it is sending. Telegram lets a bot post 20
 * messages a minute in a group, so the throttler may hold a staff-chat message for minutes
 * when many orders come at once; without renewal such a claim would look stale, and the
 * engine's next retry would take it over and send the message a second time.
 */
export const CLAIM_HEARTBEAT_MS = 30_000;

/** Keeps the claim fresh until the returned function is called. */
function holdClaim(pool: Pool, eventId: string, everyMs: number): () => void {
  const timer = setInterval(() => {
    pool
      .query(
        `UPDATE bot.handled_events SET claimed_at = now()
          WHERE event_id = $1 AND status = 'sending'`,
        [eventId],
      )
      .catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

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

const markSent = (pool: Pool, eventId: string) =>
  pool.query(
    `UPDATE bot.handled_events SET status = 'sent', handled_at = now() WHERE event_id = $1`,
    [eventId],
  );

/**
 * How long a sent event's record is retried: less than a stale claim's age, so no other
 * delivery takes the claim over (and sends again) while this one still tries to record it.
 */
export const MARK_RETRY_MS = (STALE_CLAIM_SECONDS - 20) * 1000;

/**
 * Runs `work` (a record of what already happened) until it succeeds, retrying while the
 * database is unreachable, for up to `withinMs`. Resolves whether it succeeded.
 */
async function retryWhileUnreachable(
  deps: Pick<EventsDeps, 'logger'>,
  work: () => Promise<unknown>,
  failure: { message: string; event: string },
  options: { withinMs?: number; firstWaitMs?: number },
): Promise<boolean> {
  const deadline = Date.now() + (options.withinMs ?? MARK_RETRY_MS);
  for (let wait = options.firstWaitMs ?? 250; ; wait = Math.min(wait * 2, 5_000)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      await work();
      return true;
    } catch (error) {
      if (!isConnectionError(error) || Date.now() + wait > deadline) {
        deps.logger.error({ err: error, event: failure.event }, failure.message);
        return false;
      }
    }
  }
}

/** Records a sent event, retrying while the database is unreachable. */
export function markSentEventually(
  deps: Pick<EventsDeps, 'pool' | 'logger'>,
  eventId: string,
  options: { withinMs?: number; firstWaitMs?: number } = {},
): Promise<boolean> {
  return retryWhileUnreachable(
    deps,
    () => markSent(deps.pool, eventId),
    {
      event: eventId,
      message:
        'a sent event could not be recorded; a redelivery after the claim goes stale would send it again',
    },
    options,
  );
}

const dropClaim = (pool: Pool, eventId: string) =>
  pool.query('DELETE FROM bot.handled_events WHERE event_id = $1', [eventId]);

/**
 * Lets go of the claim of an event whose send failed, so the engine's retry sends it; while
 * the database is unreachable, keeps trying in the background (otherwise every retry would
 * find the event "in progress" until the claim went stale, two minutes later).
 */
async function releaseClaim(deps: Pick<EventsDeps, 'pool' | 'logger'>, eventId: string) {
  try {
    await dropClaim(deps.pool, eventId);
  } catch (error) {
    if (!isConnectionError(error)) return;
    void retryWhileUnreachable(
      deps,
      () => dropClaim(deps.pool, eventId),
      { event: eventId, message: 'the claim of a failed event could not be dropped' },
      {},
    );
  }
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
    let sent = false;
    const release = holdClaim(deps.pool, event.id, deps.claimHeartbeatMs ?? CLAIM_HEARTBEAT_MS);
    try {
      await deliver(deps, event);
      sent = true;
      release();
      await markSent(deps.pool, event.id);
      res.json({ status: 'handled' });
    } catch (error) {
      release();
      if (sent) {
        // The message went out; only recording that failed (the database is restarting).
        // Sending it again would be a duplicate, so the answer is "done", the claim stays,
        // and the record is retried in the background until the database is back.
        deps.logger.warn(
          { err: error, event: event.id, trigger: event.trigger.name },
          'event sent; recording it failed, retrying in the background',
        );
        res.json({ status: 'handled' });
        void markSentEventually(deps, event.id);
        return;
      }
      // Unclaimed again, so the engine's retry sends it.
      await releaseClaim(deps, event.id);
      deps.logger.error(
        { err: error, event: event.id, trigger: event.trigger.name },
        'event failed',
      );
      res.status(503).json({ code: 'delivery-failed' });
    }
  });
  return router;
}

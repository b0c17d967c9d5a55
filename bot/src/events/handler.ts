import { timingSafeEqual } from 'node:crypto';

import express, { type Router } from 'express';
import type { Api } from 'grammy';
import * as z from 'zod';

import type { Logger } from '@app/shared/log';

import type { Db, Pool } from '../db.ts';
import type { BotEnv } from '../env.ts';
import { notifyNewOrder, notifyOrderStatus, notifySupportRequest } from './notifications.ts';

/*
 * The engine's event triggers for the bot (docs/decisions/009-notifications.md): a new order
 * and a new support request to the staff chats, an order's status change to its owner. Each
 * delivery carries the event's id; the first delivery records it (bot.handled_events) in the
 * same transaction that sends, so a redelivered event (a lost answer, a restart, a second
 * engine) sends nothing twice, and a failed send leaves no record, so the engine's retry sends
 * it. Answers: 200 done (or a repeat), 400 malformed, 401 without the secret, 503 retry later.
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

/**
 * What each trigger does; unknown triggers are acknowledged and ignored. Reads go through the
 * delivery's own connection (`db`): the embedded database runs one transaction at a time, so a
 * second connection would wait for this one's commit.
 */
async function deliver(deps: EventsDeps, event: HasuraEvent, db: Db): Promise<void> {
  const row = event.event.data.new ?? {};
  const id = typeof row['id'] === 'string' ? row['id'] : undefined;
  if (!id) return;
  const context = { env: deps.env, db, api: deps.api };
  switch (event.trigger.name) {
    case 'order_created_bot':
      return notifyNewOrder(context, id);
    case 'order_status_bot':
      if (event.event.data.old?.['status'] === row['status']) return;
      return notifyOrderStatus(context, id);
    case 'support_request_bot':
      return notifySupportRequest(context, id);
    default:
      deps.logger.warn({ trigger: event.trigger.name }, 'event of an unknown trigger ignored');
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
    const client = await deps.pool.connect();
    try {
      await client.query('BEGIN');
      // A concurrent delivery of the same event waits here until this one commits or rolls back.
      const claimed = await client.query(
        `INSERT INTO bot.handled_events (event_id, trigger_name) VALUES ($1, $2)
         ON CONFLICT (event_id) DO NOTHING`,
        [event.id, event.trigger.name],
      );
      if (claimed.rowCount === 0) {
        await client.query('COMMIT');
        res.json({ status: 'already-handled' });
        return;
      }
      await deliver(deps, event, client);
      await client.query('COMMIT');
      res.json({ status: 'handled' });
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      deps.logger.error(
        { err: error, event: event.id, trigger: event.trigger.name },
        'event failed',
      );
      res.status(503).json({ code: 'delivery-failed' });
    } finally {
      client.release();
    }
  });
  return router;
}

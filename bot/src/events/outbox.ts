import type { Api } from 'grammy';

import { isConnectionError, retryWhileUnreachable } from '@app/shared/db/service-pool';
import type { Logger } from '@app/shared/log';

import type { Pool } from '../db.ts';
import type { BotEnv } from '../env.ts';
import {
  notifyChainPaymentFlag,
  notifyChainPaymentSeen,
  notifyNewOrder,
  notifyOrderStatus,
  notifyRequisitesLate,
  notifySupportRequest,
} from './notifications.ts';

/*
 * The bot's outbox (docs/decisions/014-telegram-bot.md): the events router records each event
 * to act on in bot.handled_events ('queued') and answers the engine at once; this sender claims
 * queued events ('sending'), sends their messages through the throttler at Telegram's pace and
 * marks them 'sent'. Telegram lets a bot post 20 messages a minute in a group, so a burst of
 * staff-chat notifications takes minutes to send; the engine no longer waits for that (it used
 * to, and a burst of more than about 100 outlasted the trigger's retries).
 *
 * Once per event: a sent event is never claimed again, and a send whose record fails (the
 * database restarting) is recorded once the database is back. A claim is renewed while its
 * message waits in the throttler; a claim not renewed for STALE_CLAIM_SECONDS (a process that
 * died mid-send) is taken over, the one case where a message could go twice. A failed send is
 * queued again after `retryDelayMs`, and given up ('failed', logged) after `maxAttempts`. Every
 * statement is one of its own: no transaction stays open while Telegram is called.
 */

/** A claim not renewed for this long belongs to a sender that died mid-send: another takes over. */
export const STALE_CLAIM_SECONDS = 120;

/** How often the claims of messages still waiting to be sent are renewed. */
export const CLAIM_HEARTBEAT_MS = 30_000;

/** How often the outbox is looked at without being told of a new event (other instances, retries). */
export const POLL_MS = 1_000;

/** A failed send waits this long before its next attempt (the triggers' former interval). */
export const RETRY_DELAY_MS = 30_000;

/** Attempts before an event is given up (the triggers' former 1 + 10 retries). */
export const MAX_ATTEMPTS = 11;

/** Events claimed by one statement. */
const CLAIM_BATCH = 100;

/**
 * Events one process holds at once. Each chat has its own pace, so claiming all that are due
 * lets a customer's message go out while a staff chat's backlog drains.
 */
const MAX_IN_FLIGHT = 2_000;

/**
 * How long a sent event's record is retried: less than a stale claim's age, so no other
 * sender takes the claim over (and sends again) while this one still tries to record it.
 */
export const MARK_RETRY_MS = (STALE_CLAIM_SECONDS - 20) * 1000;

/** The triggers the bot acts on, each with the row its message is about. */
export const OUTBOX_TRIGGERS = [
  'order_created_bot',
  'order_status_bot',
  'order_requisites_late_bot',
  'support_request_bot',
  'chain_payment_seen_bot',
  'chain_payment_flag_bot',
] as const;
export type OutboxTrigger = (typeof OUTBOX_TRIGGERS)[number];

export const isOutboxTrigger = (name: string): name is OutboxTrigger =>
  (OUTBOX_TRIGGERS as readonly string[]).includes(name);

export interface OutboxDeps {
  env: BotEnv;
  pool: Pool;
  api: Api;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Defaults above; tests shorten them. */
  pollMs?: number;
  claimHeartbeatMs?: number;
  retryDelayMs?: number;
  maxAttempts?: number;
  staleClaimSeconds?: number;
}

export interface Outbox {
  /** Starts polling (and sends what is due). */
  start(): void;
  /** A new event was queued: look now rather than at the next poll. */
  kick(): void;
  /**
   * Stops claiming, and waits up to `waitMs` for the messages in hand to be sent. Claims still
   * held then are taken over once stale, by another instance or after a restart.
   */
  stop(waitMs?: number): Promise<void>;
}

interface Claimed {
  event_id: string;
  trigger_name: string;
  subject_id: string;
  attempts: number;
}

/** The message of one event. */
function deliver(deps: OutboxDeps, trigger: string, subjectId: string): Promise<void> {
  const context = { env: deps.env, db: deps.pool, api: deps.api };
  switch (trigger) {
    case 'order_created_bot':
      return notifyNewOrder(context, subjectId);
    case 'order_status_bot':
      return notifyOrderStatus(context, subjectId);
    case 'order_requisites_late_bot':
      return notifyRequisitesLate(context, subjectId);
    case 'support_request_bot':
      return notifySupportRequest(context, subjectId);
    case 'chain_payment_seen_bot':
      return notifyChainPaymentSeen(context, subjectId);
    case 'chain_payment_flag_bot':
      return notifyChainPaymentFlag(context, subjectId);
    default:
      deps.logger.warn({ trigger }, 'queued event of an unknown trigger ignored');
      return Promise.resolve();
  }
}

const markSent = (pool: Pool, eventId: string) =>
  pool.query(
    `UPDATE bot.handled_events SET status = 'sent', handled_at = now() WHERE event_id = $1`,
    [eventId],
  );

/**
 * Runs `work` (a record of what already happened, which just failed) again while the database
 * is unreachable, for up to `withinMs`. Resolves whether it succeeded; logs when it did not.
 */
async function recordEventually(
  deps: Pick<OutboxDeps, 'logger'>,
  work: () => Promise<unknown>,
  failure: { message: string; event: string },
  options: { withinMs?: number; firstWaitMs?: number },
): Promise<boolean> {
  const firstWaitMs = options.firstWaitMs ?? 250;
  await new Promise((resolve) => setTimeout(resolve, firstWaitMs));
  try {
    await retryWhileUnreachable(work, {
      withinMs: options.withinMs ?? MARK_RETRY_MS,
      firstWaitMs: firstWaitMs * 2,
      maxWaitMs: 5_000,
    });
    return true;
  } catch (error) {
    deps.logger.error({ err: error, event: failure.event }, failure.message);
    return false;
  }
}

/** Records a sent event, retrying while the database is unreachable. */
export function markSentEventually(
  deps: Pick<OutboxDeps, 'pool' | 'logger'>,
  eventId: string,
  options: { withinMs?: number; firstWaitMs?: number } = {},
): Promise<boolean> {
  return recordEventually(
    deps,
    () => markSent(deps.pool, eventId),
    {
      event: eventId,
      message:
        'a sent event could not be recorded; a sender taking over the stale claim would send it again',
    },
    options,
  );
}

export function createOutbox(deps: OutboxDeps): Outbox {
  const { pool, logger } = deps;
  const pollMs = deps.pollMs ?? POLL_MS;
  const heartbeatMs = deps.claimHeartbeatMs ?? CLAIM_HEARTBEAT_MS;
  const retryDelayMs = deps.retryDelayMs ?? RETRY_DELAY_MS;
  const maxAttempts = deps.maxAttempts ?? MAX_ATTEMPTS;
  const staleSeconds = deps.staleClaimSeconds ?? STALE_CLAIM_SECONDS;

  /** The events this process has claimed and not yet finished. */
  const held = new Set<string>();
  let running = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let poll: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const claim = async (limit: number) => {
    const { rows } = await pool.query<Claimed>(
      `UPDATE bot.handled_events AS e
          SET status = 'sending', claimed_at = now(), attempts = e.attempts + 1
        WHERE e.event_id IN (
                SELECT event_id FROM bot.handled_events
                 WHERE subject_id IS NOT NULL
                   AND ((status = 'queued' AND next_attempt_at <= now())
                        OR (status = 'sending'
                            AND claimed_at < now() - make_interval(secs => $1)))
                 ORDER BY next_attempt_at
                 LIMIT $2
                   FOR UPDATE SKIP LOCKED)
        RETURNING e.event_id::text, e.trigger_name, e.subject_id::text, e.attempts`,
      [staleSeconds, limit],
    );
    return rows;
  };

  /** Keeps the claims of the messages in hand fresh (the throttler may hold one for minutes). */
  const renew = () => {
    if (held.size === 0) return;
    pool
      .query(
        `UPDATE bot.handled_events SET claimed_at = now()
          WHERE event_id = ANY($1::uuid[]) AND status = 'sending'`,
        [[...held]],
      )
      .catch(() => undefined);
  };

  /**
   * A send failed: queued again after a pause, or given up after the last attempt. Telegram's 403
   * (a user who blocked the bot or never started it) is given up at once: no retry can change it.
   */
  const recordFailure = async (row: Claimed, failure: unknown) => {
    const forbidden = isForbidden(failure);
    const lastAttempt = forbidden ? row.attempts : maxAttempts;
    const record = () =>
      pool.query<{ status: string }>(
        `UPDATE bot.handled_events
            SET status = CASE WHEN attempts >= $3 THEN 'failed' ELSE 'queued' END,
                next_attempt_at = now() + make_interval(secs => $4)
          WHERE event_id = $1 AND attempts = $2 AND status = 'sending'
          RETURNING status`,
        [row.event_id, row.attempts, lastAttempt, retryDelayMs / 1000],
      );
    const context = { err: failure, event: row.event_id, trigger: row.trigger_name };
    // A person who never started the bot or blocked it is not a fault of the service: a warning
    // with Telegram's reason, not an error with a stack (one per message, for every such person).
    if (forbidden)
      logger.warn(
        {
          event: row.event_id,
          trigger: row.trigger_name,
          attempts: row.attempts,
          reason: failure instanceof Error ? failure.message : String(failure),
        },
        'event not sent: Telegram refused it (403); given up',
      );
    else if (row.attempts >= maxAttempts)
      logger.error({ ...context, attempts: row.attempts }, 'event not sent; given up');
    else logger.warn({ ...context, attempts: row.attempts }, 'event not sent; it will be retried');
    try {
      await record();
    } catch (error) {
      if (!isConnectionError(error)) {
        logger.error({ err: error, event: row.event_id }, 'a failed send could not be recorded');
        return;
      }
      // Otherwise the claim would wait to go stale (two minutes) before the next attempt.
      await recordEventually(
        deps,
        record,
        { event: row.event_id, message: 'a failed send could not be recorded' },
        {},
      );
    }
  };

  const send = async (row: Claimed) => {
    let sent = false;
    try {
      await deliver(deps, row.trigger_name, row.subject_id);
      sent = true;
      await markSent(pool, row.event_id);
    } catch (error) {
      if (sent) {
        // The message went out; only recording that failed (the database is restarting).
        // The claim stays, and the record is retried until the database is back.
        logger.warn(
          { err: error, event: row.event_id, trigger: row.trigger_name },
          'event sent; recording it failed, retrying in the background',
        );
        await markSentEventually(deps, row.event_id);
      } else {
        await recordFailure(row, error);
      }
    } finally {
      held.delete(row.event_id);
    }
  };

  const pumpOnce = async () => {
    do {
      again = false;
      while (running && held.size < MAX_IN_FLIGHT) {
        const limit = Math.min(CLAIM_BATCH, MAX_IN_FLIGHT - held.size);
        const rows = await claim(limit);
        for (const row of rows) {
          held.add(row.event_id);
          void send(row);
        }
        if (rows.length < limit) break;
      }
    } while (again && running);
  };

  const pump = () => {
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pumpOnce()
      .catch((error: unknown) => {
        if (isConnectionError(error))
          logger.warn({ err: error }, 'outbox not read: the database is unreachable');
        else logger.error({ err: error }, 'outbox not read');
      })
      .finally(() => {
        pumping = undefined;
      });
  };

  return {
    start() {
      if (running) return;
      running = true;
      poll = setInterval(pump, pollMs);
      poll.unref();
      heartbeat = setInterval(renew, heartbeatMs);
      heartbeat.unref();
      pump();
    },
    kick: pump,
    async stop(waitMs = 0) {
      running = false;
      clearInterval(poll);
      await pumping;
      const deadline = Date.now() + waitMs;
      while (held.size > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      clearInterval(heartbeat);
    },
  };
}

/** Telegram's 403: the bot blocked, kicked, or a user who never started it. Final. */
function isForbidden(error: unknown): boolean {
  return (error as { error_code?: unknown } | null)?.error_code === 403;
}

import { CronExpressionParser } from 'cron-parser';
import type pg from 'pg';

import type { Logger } from '@app/shared/log';
import { REQUEST_ID_HEADER } from '@app/shared/observability';

import { MetadataError } from '../metadata/load.ts';
import type { CronTriggerMetadata } from '../metadata/model.ts';

import type { DeliveryTarget, RetryPolicy } from './config.ts';
import type { ClaimedJob, DeliveryQueue } from './dispatcher.ts';
import { attemptResult, describeOutcome, LEASE_MARGIN_SECONDS } from './event-log.ts';
import { loggedResponse, postJson } from './http.ts';
import { run, runRetrying } from './sql.ts';

/*
 * Cron triggers (Hasura v2 semantics): each trigger's next occurrences (5-field cron, UTC)
 * are generated ahead into hdb_catalog.engine_cron_events (unique per trigger and time, so
 * engines generating together agree), and delivered like table events: claimed with a lease,
 * posted as `{ id, name, scheduled_time, payload, comment? }`, retried per retry_conf.
 * An event first attempted more than `tolerance_seconds` after its time is marked dead.
 */

/** Hasura keeps this many future events per cron trigger. */
export const UPCOMING_EVENTS = 100;

const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);

/** Checks that a schedule is a 5-field cron expression (or a standard macro) that parses. */
export function validateSchedule(name: string, schedule: string): void {
  const text = schedule.trim();
  const fields = text.split(/\s+/);
  if (!(fields.length === 5 || (fields.length === 1 && MACROS.has(text.toLowerCase())))) {
    throw new MetadataError(
      `cron trigger ${JSON.stringify(name)}: schedule ${JSON.stringify(schedule)} is not a 5-field cron expression`,
    );
  }
  try {
    CronExpressionParser.parse(text.toLowerCase(), { tz: 'UTC' });
  } catch (error) {
    throw new MetadataError(
      `cron trigger ${JSON.stringify(name)}: schedule ${JSON.stringify(schedule)}: ${(error as Error).message}`,
    );
  }
}

/** The next `count` times strictly after `after` (UTC). Fewer when the schedule never matches. */
export function nextOccurrences(schedule: string, after: Date, count: number): Date[] {
  const expression = CronExpressionParser.parse(schedule.trim().toLowerCase(), {
    currentDate: after,
    tz: 'UTC',
  });
  const times: Date[] = [];
  try {
    while (times.length < count) times.push(expression.next().toDate());
  } catch {
    // No further occurrence (an impossible date such as 31 February).
  }
  return times;
}

export interface CronTriggerRuntime {
  name: string;
  schedule: string;
  payload: unknown;
  comment: string | undefined;
  target: DeliveryTarget;
  retry: RetryPolicy & { toleranceSeconds: number };
}

export const cronRuntime = (
  trigger: CronTriggerMetadata,
  target: DeliveryTarget,
  retry: CronTriggerRuntime['retry'],
): CronTriggerRuntime => ({
  name: trigger.name,
  schedule: trigger.schedule,
  payload: trigger.payload ?? null,
  comment: trigger.comment ?? undefined,
  target,
  retry,
});

/**
 * At start-up, inside the setup transaction: forget pending events of cron triggers that are
 * gone, and the not yet due events of the others (regenerated from the current schedule).
 */
export async function resetCronEvents(client: pg.ClientBase, names: string[]): Promise<void> {
  await run(
    client,
    `DELETE FROM hdb_catalog.engine_cron_events
      WHERE status IN ('scheduled', 'locked')
        AND (NOT (trigger_name = ANY($1::text[]))
             OR (status = 'scheduled' AND tries = 0 AND scheduled_time > now()))`,
    [names],
  );
}

/** Tops up each trigger's future events to UPCOMING_EVENTS. */
export async function generateCronEvents(
  pool: pg.Pool,
  triggers: CronTriggerRuntime[],
  now: () => number,
  logger: Logger | undefined,
): Promise<void> {
  for (const trigger of triggers) {
    const { rows } = await run<{ latest: Date | null; upcoming: number }>(
      pool,
      `SELECT max(scheduled_time) AS latest,
              (count(*) FILTER (WHERE status = 'scheduled' AND scheduled_time > now()))::int AS upcoming
         FROM hdb_catalog.engine_cron_events WHERE trigger_name = $1`,
      [trigger.name],
    );
    const { latest, upcoming } = rows[0] ?? { latest: null, upcoming: 0 };
    if (upcoming >= UPCOMING_EVENTS) continue;
    const from = Math.max(latest?.getTime() ?? 0, now());
    const times = nextOccurrences(trigger.schedule, new Date(from), UPCOMING_EVENTS - upcoming);
    if (times.length === 0) {
      logger?.warn(
        { trigger: trigger.name, schedule: trigger.schedule },
        'cron trigger: the schedule has no next occurrence',
      );
      continue;
    }
    await run(
      pool,
      `INSERT INTO hdb_catalog.engine_cron_events (trigger_name, scheduled_time)
       SELECT $1, unnest($2::timestamptz[])
       ON CONFLICT (trigger_name, scheduled_time) DO NOTHING`,
      [trigger.name, times.map((time) => time.toISOString())],
    );
  }
}

interface CronRow {
  id: string;
  trigger_name: string;
  tries: number;
  lock_token: string;
  scheduled_time: string;
  late_seconds: number;
}

const CLAIM = `
UPDATE hdb_catalog.engine_cron_events AS e
   SET status = 'locked', locked_at = now()
 WHERE e.id IN (
   SELECT c.id
     FROM hdb_catalog.engine_cron_events AS c
     JOIN unnest($2::text[], $3::float8[]) AS t(name, lease_seconds) ON t.name = c.trigger_name
    WHERE (c.status = 'scheduled' AND COALESCE(c.next_retry_at, c.scheduled_time) <= now())
       OR (c.status = 'locked' AND c.locked_at < now() - make_interval(secs => t.lease_seconds))
    ORDER BY c.scheduled_time
    LIMIT $1
    FOR UPDATE OF c SKIP LOCKED)
RETURNING e.id, e.trigger_name, e.tries, e.locked_at::text AS lock_token,
  to_char(e.scheduled_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS scheduled_time,
  extract(epoch FROM now() - e.scheduled_time)::float8 AS late_seconds`;

const RECORD = `
WITH updated AS (
  UPDATE hdb_catalog.engine_cron_events
     SET tries = tries + $3::int,
         status = $4,
         locked_at = NULL,
         next_retry_at = CASE WHEN $5::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $5::float8) END
   WHERE id = $1 AND status = 'locked' AND locked_at = $2::timestamptz
  RETURNING id),
logged AS (
  INSERT INTO hdb_catalog.engine_cron_event_invocation_logs (event_id, trigger_name, status, request, response)
  SELECT $1, $6, $7, $8::json, $9::json WHERE $8::json IS NOT NULL)
SELECT count(*)::int AS updated FROM updated`;

const RELEASE = `
UPDATE hdb_catalog.engine_cron_events SET status = 'scheduled', locked_at = NULL
 WHERE id = $1 AND status = 'locked' AND locked_at = $2::timestamptz`;

/** The body Hasura posts for a cron event. */
export function cronPayload(
  row: Pick<CronRow, 'id' | 'scheduled_time'>,
  trigger: CronTriggerRuntime,
): Record<string, unknown> {
  return {
    scheduled_time: row.scheduled_time,
    payload: trigger.payload,
    name: trigger.name,
    id: row.id,
    ...(trigger.comment === undefined ? {} : { comment: trigger.comment }),
  };
}

export class CronEventQueue implements DeliveryQueue {
  readonly name = 'cron';
  private readonly names: string[];
  private readonly leases: number[];

  constructor(
    private readonly pool: pg.Pool,
    private readonly triggers: Map<string, CronTriggerRuntime>,
    private readonly logger: Logger | undefined,
  ) {
    this.names = [...triggers.keys()];
    this.leases = [...triggers.values()].map(
      (trigger) => trigger.retry.timeoutSeconds + LEASE_MARGIN_SECONDS,
    );
  }

  async claim(limit: number): Promise<ClaimedJob[]> {
    if (this.names.length === 0) return [];
    const { rows } = await run<CronRow>(this.pool, CLAIM, [limit, this.names, this.leases]);
    return rows.map((row) => ({ key: row.id, deliver: (signal) => this.deliver(row, signal) }));
  }

  /** Records an outcome; across a database restart too (see runRetrying). */
  private record(
    row: CronRow,
    change: { tried: boolean; status: string; retryInSeconds: number | null },
    log: { status: number | null; request: unknown; response: unknown } | undefined,
    signal: AbortSignal,
  ) {
    return runRetrying<{ updated: number }>(
      this.pool,
      RECORD,
      [
        row.id,
        row.lock_token,
        change.tried ? 1 : 0,
        change.status,
        change.retryInSeconds,
        row.trigger_name,
        log?.status ?? null,
        log ? JSON.stringify(log.request) : null,
        log ? JSON.stringify(log.response) : null,
      ],
      { signal },
    );
  }

  private async deliver(row: CronRow, signal: AbortSignal): Promise<number | undefined> {
    const trigger = this.triggers.get(row.trigger_name);
    const context = {
      cronTrigger: row.trigger_name,
      event: row.id,
      scheduledTime: row.scheduled_time,
    };
    if (!trigger) {
      await run(this.pool, RELEASE, [row.id, row.lock_token]);
      return undefined;
    }
    if (row.tries === 0 && row.late_seconds > trigger.retry.toleranceSeconds) {
      await this.record(
        row,
        { tried: false, status: 'dead', retryInSeconds: null },
        undefined,
        signal,
      );
      this.logger?.warn(context, 'cron event dropped: later than its tolerance');
      return undefined;
    }
    const payload = cronPayload(row, trigger);
    const outcome = await postJson(
      trigger.target.url,
      // The cron event's id is its request id: the receiver's log lines name the cron event they handled.
      [[REQUEST_ID_HEADER, row.id], ...trigger.target.headers],
      JSON.stringify(payload),
      trigger.retry.timeoutSeconds * 1000,
      signal,
    );
    if (outcome.kind === 'aborted') {
      await run(this.pool, RELEASE, [row.id, row.lock_token]);
      return undefined;
    }
    const result = attemptResult(outcome, row.tries, trigger.retry);
    const { rows } = await this.record(
      row,
      {
        tried: true,
        status:
          result.kind === 'delivered'
            ? 'delivered'
            : result.kind === 'failed'
              ? 'error'
              : 'scheduled',
        retryInSeconds: result.kind === 'retry' ? result.delaySeconds : null,
      },
      {
        status: outcome.kind === 'response' ? outcome.status : null,
        request: { payload, headers: trigger.target.loggedHeaders, version: '2' },
        response: loggedResponse(outcome),
      },
      signal,
    );
    if (rows[0]?.updated !== 1) {
      this.logger?.warn(
        context,
        'cron delivery: the event was claimed again meanwhile (lease expired); outcome not recorded',
      );
      return undefined;
    }
    if (result.kind === 'retry') {
      this.logger?.info(
        { ...context, outcome: describeOutcome(outcome), retryInSeconds: result.delaySeconds },
        'cron delivery failed; will retry',
      );
      return result.delaySeconds * 1000;
    }
    if (result.kind === 'failed')
      this.logger?.warn(
        { ...context, outcome: describeOutcome(outcome) },
        'cron delivery failed; no retries left',
      );
    else this.logger?.debug(context, 'cron event delivered');
    return undefined;
  }
}

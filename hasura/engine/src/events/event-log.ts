import type pg from 'pg';

import type { Logger } from '@app/shared/log';
import { REQUEST_ID_HEADER } from '@app/shared/observability';

import type { DeliveryTarget, RetryPolicy } from './config.ts';
import type { ClaimedJob, DeliveryQueue } from './dispatcher.ts';
import {
  isSuccess,
  loggedResponse,
  postJson,
  retryAfterSeconds,
  type HttpOutcome,
} from './http.ts';
import { run, runRetrying } from './sql.ts';

/*
 * Table events: claimed from hdb_catalog.event_log, posted in Hasura's payload shape,
 * recorded back (tries, delivered / error / next_retry_at) with an invocation log row.
 *
 * A claim stamps `locked = now()`. That stamp is the lease: the outcome is only recorded if
 * the row still carries it, and a lease older than the trigger's timeout plus a margin is
 * taken to belong to an engine that died mid-delivery, so the event is claimed again.
 */

/** How long past its HTTP timeout a claimed event is left to the engine that claimed it. */
export const LEASE_MARGIN_SECONDS = 60;

export interface EventTriggerRuntime {
  name: string;
  target: DeliveryTarget;
  retry: RetryPolicy;
}

interface EventRow {
  id: string;
  schema_name: string;
  table_name: string;
  trigger_name: string;
  payload: unknown;
  tries: number;
  lock_token: string;
  created_at: string;
}

const CLAIM = `
UPDATE hdb_catalog.event_log AS e
   SET locked = now()
 WHERE e.id IN (
   SELECT l.id
     FROM hdb_catalog.event_log AS l
     JOIN unnest($2::text[], $3::float8[]) AS t(name, lease_seconds) ON t.name = l.trigger_name
    WHERE l.delivered = 'f' AND l.error = 'f' AND l.archived = 'f'
      AND (l.locked IS NULL OR l.locked < now() - make_interval(secs => t.lease_seconds))
      AND (l.next_retry_at IS NULL OR l.next_retry_at <= now())
    ORDER BY l.locked NULLS FIRST, l.next_retry_at NULLS FIRST, l.created_at
    LIMIT $1
    FOR UPDATE OF l SKIP LOCKED)
RETURNING e.id, e.schema_name, e.table_name, e.trigger_name, e.payload, e.tries,
  e.locked::text AS lock_token,
  to_char((e.created_at AT TIME ZONE current_setting('TimeZone')) AT TIME ZONE 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at`;

const RECORD = `
WITH updated AS (
  UPDATE hdb_catalog.event_log
     SET tries = tries + 1,
         locked = NULL,
         delivered = $3,
         error = $4,
         next_retry_at = CASE WHEN $5::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $5::float8) END
   WHERE id = $1 AND locked = $2::timestamptz
  RETURNING id),
logged AS (
  INSERT INTO hdb_catalog.event_invocation_logs (event_id, trigger_name, status, request, response)
  VALUES ($1, $6, $7, $8::json, $9::json))
SELECT count(*)::int AS updated FROM updated`;

const RELEASE = `UPDATE hdb_catalog.event_log SET locked = NULL WHERE id = $1 AND locked = $2::timestamptz`;

/** An ISO timestamp as aeson prints a UTCTime: no trailing zeros in the fraction. */
export const trimFraction = (iso: string) =>
  iso.replace(/\.(\d*?)0*Z$/, (_match, kept: string) => (kept ? `.${kept}Z` : 'Z'));

/** The body Hasura posts for a table event. */
export function eventPayload(row: EventRow, retry: RetryPolicy): Record<string, unknown> {
  return {
    event: row.payload,
    created_at: trimFraction(row.created_at),
    id: row.id,
    delivery_info: { max_retries: retry.numRetries, current_retry: row.tries },
    trigger: { name: row.trigger_name },
    table: { schema: row.schema_name, name: row.table_name },
  };
}

export type AttemptResult =
  { kind: 'delivered' } | { kind: 'retry'; delaySeconds: number } | { kind: 'failed' };

/** Hasura's rule: retry after `interval` (or the receiver's Retry-After) until the tries are used up. */
export function attemptResult(
  outcome: HttpOutcome,
  tries: number,
  retry: { numRetries: number; intervalSeconds: number },
): AttemptResult {
  if (isSuccess(outcome)) return { kind: 'delivered' };
  const retryAfter = retryAfterSeconds(outcome);
  if (tries >= retry.numRetries && retryAfter === undefined) return { kind: 'failed' };
  return { kind: 'retry', delaySeconds: retryAfter ?? retry.intervalSeconds };
}

export const describeOutcome = (outcome: HttpOutcome) =>
  outcome.kind === 'response'
    ? `HTTP ${outcome.status}`
    : outcome.kind === 'error'
      ? outcome.message
      : 'aborted';

export class EventLogQueue implements DeliveryQueue {
  readonly name = 'event_log';
  private readonly names: string[];
  private readonly leases: number[];

  constructor(
    private readonly pool: pg.Pool,
    private readonly triggers: Map<string, EventTriggerRuntime>,
    private readonly logger: Logger | undefined,
  ) {
    this.names = [...triggers.keys()];
    this.leases = [...triggers.values()].map(
      (trigger) => trigger.retry.timeoutSeconds + LEASE_MARGIN_SECONDS,
    );
  }

  async claim(limit: number): Promise<ClaimedJob[]> {
    if (this.names.length === 0) return [];
    const { rows } = await run<EventRow>(this.pool, CLAIM, [limit, this.names, this.leases]);
    return rows.map((row) => ({ key: row.id, deliver: (signal) => this.deliver(row, signal) }));
  }

  private async deliver(row: EventRow, signal: AbortSignal): Promise<number | undefined> {
    const trigger = this.triggers.get(row.trigger_name);
    if (!trigger) {
      await runRetrying(this.pool, RELEASE, [row.id, row.lock_token], { signal });
      return undefined;
    }
    const payload = eventPayload(row, trigger.retry);
    const outcome = await postJson(
      trigger.target.url,
      // The event's id is its request id: the receiver's log lines name the event they handled.
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
    const request = { payload, headers: trigger.target.loggedHeaders, version: '2' };
    const status = outcome.kind === 'response' ? outcome.status : null;
    // The receiver has answered: record that even across a database restart (see runRetrying).
    const { rows } = await runRetrying<{ updated: number }>(
      this.pool,
      RECORD,
      [
        row.id,
        row.lock_token,
        result.kind === 'delivered',
        result.kind === 'failed',
        result.kind === 'retry' ? result.delaySeconds : null,
        row.trigger_name,
        status,
        JSON.stringify(request),
        JSON.stringify(loggedResponse(outcome)),
      ],
      { signal },
    );
    const context = { trigger: row.trigger_name, event: row.id, try: row.tries + 1 };
    if (rows[0]?.updated !== 1) {
      this.logger?.warn(
        context,
        'event delivery: the event was claimed again meanwhile (lease expired); outcome not recorded',
      );
      return undefined;
    }
    if (result.kind === 'delivered') {
      this.logger?.debug(context, 'event delivered');
      return undefined;
    }
    if (result.kind === 'failed') {
      this.logger?.warn(
        { ...context, outcome: describeOutcome(outcome) },
        'event delivery failed; no retries left',
      );
      return undefined;
    }
    this.logger?.info(
      { ...context, outcome: describeOutcome(outcome), retryInSeconds: result.delaySeconds },
      'event delivery failed; will retry',
    );
    return result.delaySeconds * 1000;
  }
}

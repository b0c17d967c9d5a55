import type pg from 'pg';

import { retryWhileUnreachable } from '@app/shared/db/service-pool';

/** Values the event system passes to its statements (always as parameters, never in the SQL text). */
export type SqlValue = string | number | boolean | null | readonly string[] | readonly number[];

/** Runs one parameterised statement of the event system. */
export function run<R extends pg.QueryResultRow>(
  db: pg.Pool | pg.ClientBase,
  text: string,
  values: readonly SqlValue[] = [],
): Promise<pg.QueryResult<R>> {
  return db.query<R>(text, [...values]);
}

/** How long an outcome is retried while the database is away: well inside the lease margin. */
export const RECORD_RETRY_MS = 45_000;

/**
 * Runs a statement that records what already happened (a delivery's outcome, or handing a
 * job back), again while the database is unreachable (`retryWhileUnreachable`), so an outcome
 * reached during an outage is recorded once the database is back, instead of being left to the
 * lease's expiry, which would deliver the event again much later.
 */
export function runRetrying<R extends pg.QueryResultRow>(
  db: pg.Pool,
  text: string,
  values: readonly SqlValue[],
  options: { withinMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<pg.QueryResult<R>> {
  return retryWhileUnreachable(() => run<R>(db, text, values), {
    withinMs: options.withinMs ?? RECORD_RETRY_MS,
    signal: options.signal,
  });
}

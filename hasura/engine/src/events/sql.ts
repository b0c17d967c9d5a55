import type pg from 'pg';

import { isConnectionError } from '../execute/pg-errors.ts';

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
 * job back). While the database is unreachable (a restart, a failover) it is tried again with
 * backoff, for up to `withinMs` or until `signal` aborts, so an outcome reached during the
 * outage is recorded once the database is back, instead of being left to the lease's expiry,
 * which would deliver the event again much later. Other errors are thrown at once.
 */
export async function runRetrying<R extends pg.QueryResultRow>(
  db: pg.Pool,
  text: string,
  values: readonly SqlValue[],
  options: { withinMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<pg.QueryResult<R>> {
  const deadline = Date.now() + (options.withinMs ?? RECORD_RETRY_MS);
  for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      return await run<R>(db, text, values);
    } catch (error) {
      if (!isConnectionError(error) || options.signal?.aborted || Date.now() + wait > deadline)
        throw error;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait);
        function done() {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', done);
          resolve();
        }
        options.signal?.addEventListener('abort', done, { once: true });
      });
    }
  }
}

import type pg from 'pg';

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

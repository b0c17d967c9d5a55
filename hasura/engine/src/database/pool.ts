import pg from 'pg';

// Amounts are numeric and must stay exact: keep numeric (OID 1700) as strings, never floats.
// (pg already does so by default; set it explicitly so no later change can slip.)
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);

/**
 * The one way every service opens the database: node-postgres with a connection URL.
 *
 * A connection the server drops (a restart, an administrator's termination) emits `error`:
 * on the pool while the connection is idle (pg discards it), and on the client itself while
 * it is checked out between two queries (inside a transaction, say). Either event without a
 * listener crashes the process, so both always get one: `onError` hears of them, the query in
 * progress fails on its own, and a broken client is discarded when it is released.
 */
export function createPool(
  connectionString: string,
  max = 10,
  onError: (error: Error) => void = () => {},
): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

import pg from 'pg';

// Amounts are numeric and must stay exact: keep numeric (OID 1700) as strings, never floats.
// (pg already does so by default; set it explicitly so no later change can slip.)
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);

/**
 * The one way every service opens the database: node-postgres with a connection URL.
 * An idle connection the server drops (a restart, an administrator's termination) makes the
 * pool emit `error`; pg already discards that connection, and without a listener the event
 * would crash the process, so `onIdleError` always gets one.
 */
export function createPool(
  connectionString: string,
  max = 10,
  onIdleError: (error: Error) => void = () => {},
): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', onIdleError);
  return pool;
}

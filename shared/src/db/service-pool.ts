import pg from 'pg';

/*
 * A service's database connections, and what it says while the database is away: the auth
 * service, the actions service, the bot and the engine (hasura/engine/src/database/pool.ts)
 * all run on `createServicePool` and tell a lost database from a failed statement with
 * `isConnectionError`.
 */

/** SQLSTATEs of a server shutting down, starting up or out of connection slots. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors of a database that is not (or no longer) there. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** What node-postgres says, without a code, when a connection ends or cannot be had. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /is not queryable$/,
  /timeout exceeded when trying to connect/,
];

/**
 * Whether `error` means the database is unreachable or went away (a restart, a failover, a
 * dropped connection) rather than that a statement failed: the request may be retried as is.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || NETWORK_CODES.has(code))
  )
    return true;
  if (CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isConnectionError(cause);
}

/**
 * The pool the service runs on. A connection the server drops emits `error` on the pool while
 * idle and on the client itself while checked out (inside a transaction, between two
 * statements); without a listener either one crashes the process. Both get `onError`; the
 * statement in progress fails on its own and a broken client is discarded on release.
 */
export function createServicePool(
  connectionString: string,
  max: number,
  onError: (error: Error) => void,
): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

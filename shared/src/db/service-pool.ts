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

/**
 * Runs `work`, the record of something that already happened (a delivery's outcome, a sent
 * message), and runs it again while the database is unreachable (a restart, a failover): after
 * `firstWaitMs`, doubling up to `maxWaitMs`, for up to `withinMs` or until `signal` aborts. So
 * what happened during an outage is recorded once the database is back. Any other error, or
 * the last one, is thrown.
 */
export async function retryWhileUnreachable<T>(
  work: () => Promise<T>,
  options: {
    withinMs: number;
    firstWaitMs?: number;
    maxWaitMs?: number;
    signal?: AbortSignal | undefined;
  },
): Promise<T> {
  const deadline = Date.now() + options.withinMs;
  for (
    let wait = options.firstWaitMs ?? 100;
    ;
    wait = Math.min(wait * 2, options.maxWaitMs ?? 2_000)
  ) {
    try {
      return await work();
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

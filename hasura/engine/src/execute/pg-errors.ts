import { isConnectionError } from '@app/shared/db/service-pool';

import { HasuraError } from '../errors.ts';
import { PERMISSION_CHECK_SQLSTATE } from '../sql/mutation.ts';

interface PgError {
  code?: string;
  message: string;
}

const isPgError = (error: unknown): error is PgError =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string';

// Whether an error means the database is unreachable or went away (a restart, a failover, a
// dropped connection) rather than that the statement failed: one rule for every service.
export { isConnectionError };

/**
 * The answer while the database is unreachable: Hasura's `postgres-error` / `connection error`,
 * as HTTP 503 (Hasura says 500), so clients and proxies know to retry the request.
 */
export const connectionError = (path = '$') =>
  new HasuraError('postgres-error', 'connection error', path, 503);

/**
 * Maps a Postgres error to Hasura's: constraint violations keep Postgres' message behind
 * Hasura's prefix, bad input is a data exception, a lost database is a retryable
 * `connection error`, anything else is `unexpected` with a generic message (the detail is
 * logged, never sent).
 */
export function toHasuraError(error: unknown, path: string): HasuraError {
  if (HasuraError.is(error)) return error;
  if (isConnectionError(error)) return connectionError(path);
  if (!isPgError(error)) return new HasuraError('unexpected', 'database query error', path, 500);
  const { code = '', message } = error;
  if (code === PERMISSION_CHECK_SQLSTATE) return new HasuraError('permission-error', message, path);
  switch (code) {
    case '23505':
      return new HasuraError('constraint-violation', `Uniqueness violation. ${message}`, path);
    case '23502':
      return new HasuraError('constraint-violation', `Not-NULL violation. ${message}`, path);
    case '23503':
      return new HasuraError('constraint-violation', `Foreign key violation. ${message}`, path);
    case '23514':
      return new HasuraError(
        'constraint-violation',
        `Check constraint violation. ${message}`,
        path,
      );
    case '23P01':
      return new HasuraError('constraint-violation', `Exclusion violation. ${message}`, path);
    default:
      break;
  }
  // Hasura answers a malformed LIKE pattern as the client's fault, other bad data as a data exception.
  if (code === '22025') return new HasuraError('bad-request', message, '$');
  if (code.startsWith('22')) return new HasuraError('data-exception', message, path);
  if (code === 'P0001') return new HasuraError('unexpected', message, path);
  if (code.startsWith('42'))
    return new HasuraError('unexpected', 'database query error', path, 500);
  return new HasuraError('unexpected', 'database query error', path, 500);
}

/** Whether the error comes from Postgres (its detail may be logged). */
export const isDatabaseError = isPgError;

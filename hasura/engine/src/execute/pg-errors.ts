import { isConnectionError } from '@app/shared/db/service-pool';

import { HasuraError, type HasuraErrorCode } from '../errors.ts';
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

// The engine knows nothing of the product (decision 028): clients read this prefix through
// @app/shared/errors/database, which names the same text of Hasura's.
const CHECK_VIOLATION_PREFIX = 'Check constraint violation. ';

/** Hasura's prefixes of the integrity violations it reports, by SQLSTATE. */
const INTEGRITY_VIOLATIONS: Record<string, { code: HasuraErrorCode; prefix: string }> = {
  '23001': {
    code: 'constraint-violation',
    prefix: 'Can not delete or update due to data being referred. ',
  },
  '23502': { code: 'constraint-violation', prefix: 'Not-NULL violation. ' },
  '23503': { code: 'constraint-violation', prefix: 'Foreign key violation. ' },
  '23505': { code: 'constraint-violation', prefix: 'Uniqueness violation. ' },
  // Hasura reports a CHECK violation (a table's CHECK or a trigger's RAISE … USING ERRCODE =
  // 'check_violation') as a permission error, not a constraint violation.
  '23514': { code: 'permission-error', prefix: CHECK_VIOLATION_PREFIX },
  '23P01': { code: 'constraint-violation', prefix: 'Exclusion violation. ' },
};

/**
 * Maps a Postgres error to Hasura's, as the official engine's `dmlTxErrorHandler` does for the
 * SQL of queries and mutations (graphql-engine, server/src-lib/Hasura/Backends/Postgres/Execute/
 * Types.hs: `mkTxErrorHandler`): an integrity violation keeps Postgres' message behind Hasura's
 * prefix (a CHECK violation as `permission-error`, the others as `constraint-violation`), bad
 * data is a `data-exception` (a malformed LIKE escape the client's `bad-request`), an undefined
 * object or a missing ON CONFLICT constraint a `constraint-error`; anything else, a plain
 * `RAISE EXCEPTION` (P0001) included, is `unexpected` / "database query error" with HTTP 500 and
 * no detail (ours is logged, never sent). A lost database is a retryable `connection error`.
 */
export function toHasuraError(error: unknown, path: string): HasuraError {
  if (HasuraError.is(error)) return error;
  if (isConnectionError(error)) return connectionError(path);
  if (!isPgError(error)) return databaseQueryError(path);
  const { code = '', message } = error;
  if (code === PERMISSION_CHECK_SQLSTATE) return new HasuraError('permission-error', message, path);
  const violation = INTEGRITY_VIOLATIONS[code];
  if (violation) return new HasuraError(violation.code, `${violation.prefix}${message}`, path);
  // Class 23 without a prefix of its own (23000 integrity_constraint_violation).
  if (code.startsWith('23')) return new HasuraError('constraint-violation', message, path);
  if (code === '22025') return new HasuraError('bad-request', message, '$');
  if (code.startsWith('22')) return new HasuraError('data-exception', message, path);
  if (code === '42P10')
    return new HasuraError(
      'constraint-error',
      'there is no unique or exclusion constraint on target column(s)',
      path,
    );
  if (code === '42704') return new HasuraError('constraint-error', message, path);
  return databaseQueryError(path);
}

const databaseQueryError = (path: string) =>
  new HasuraError('unexpected', 'database query error', path, 500);

/** Whether the error comes from Postgres (its detail may be logged). */
export const isDatabaseError = isPgError;

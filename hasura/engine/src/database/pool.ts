import pg from 'pg';

import { createServicePool } from '@app/shared/db/service-pool';

// Amounts are numeric and must stay exact: keep numeric (OID 1700) as strings, never floats.
// (pg already does so by default; set it explicitly so no later change can slip.)
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);

/**
 * The engine's database connections: the services' pool (@app/shared/db/service-pool: every
 * connection the server drops is heard by `onError` instead of crashing the process), with the
 * numeric parser above.
 */
export function createPool(
  connectionString: string,
  max = 10,
  onError: (error: Error) => void = () => {},
): pg.Pool {
  return createServicePool(connectionString, max, onError);
}

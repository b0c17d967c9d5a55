import pg from 'pg';

// Amounts are numeric and must stay exact: keep numeric (OID 1700) as strings, never floats.
// (pg already does so by default; set it explicitly so no later change can slip.)
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);

/** The one way every service opens the database: node-postgres with a connection URL. */
export function createPool(connectionString: string, max = 10): pg.Pool {
  return new pg.Pool({ connectionString, max });
}

import type pg from 'pg';

/** The database the service runs on: a `pg` pool (embedded PGlite or a real server). */
export type Db = pg.Pool;
export type DbClient = pg.PoolClient;

/**
 * Runs `work` in one transaction. Only transaction-scoped state may be used inside: on the
 * embedded database every connection shares one session (docs/decisions/003).
 */
export async function transaction<T>(db: Db, work: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

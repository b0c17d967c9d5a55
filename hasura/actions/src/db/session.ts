import type pg from 'pg';

/**
 * Runs `work` in one transaction with the session set as the engine sets it for mutations
 * (`hasura.user`), so triggers see the acting user (status history, handled_by, ...).
 */
export async function inSession<T>(
  pool: pg.Pool,
  sessionVariables: Record<string, string>,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT set_config('hasura.user', $1, true)", [
      JSON.stringify(sessionVariables),
    ]);
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

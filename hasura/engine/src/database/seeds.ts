import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import type { Pool } from 'pg';

/**
 * Applies every `.sql` file of a Hasura seeds folder in file-name order, each in one
 * transaction, as `hasura seed apply` does. Seeds are written to be idempotent, so this
 * runs on every start. Returns the file names applied.
 */
export async function applySeeds(pool: Pool, dir: string): Promise<string[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  const client = await pool.connect();
  try {
    for (const file of files) {
      const sql = await readFile(path.join(dir, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`seed ${file} failed: ${reason}`, { cause: error });
      }
    }
  } finally {
    client.release();
  }
  return files;
}

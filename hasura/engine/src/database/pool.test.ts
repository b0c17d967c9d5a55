import { afterEach, describe, expect, it } from 'vitest';

import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded-postgres/index.ts';

import { createPool } from './pool.ts';

/*
 * A database restart drops every connection, including one a service holds between two
 * statements of a transaction. node-postgres emits `error` on that client; without a listener
 * the process would crash (it did: an uncaught "Connection terminated unexpectedly").
 */

const waitUntil = async (condition: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('createPool when the database goes away', () => {
  let db: EmbeddedPostgres | undefined;
  afterEach(async () => {
    await db?.stop();
    db = undefined;
  });

  it('survives a checked-out connection being dropped, and serves again once it is back', async () => {
    db = await startEmbeddedPostgres({ port: 0 });
    const { port } = db;
    const errors: Error[] = [];
    const pool = createPool(db.url, 2, (error) => errors.push(error));
    try {
      const client = await pool.connect();
      await client.query('BEGIN');
      await client.query('SELECT 1');
      // The server goes away while the client sits inside its transaction.
      await db.stop();
      db = undefined;
      await waitUntil(() => errors.length > 0);
      expect(errors[0]!.message).toMatch(/Connection terminated/);
      await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|terminated/);
      client.release();
      expect(pool.totalCount).toBe(0);

      // The same address answers again: the pool opens a new connection.
      db = await startEmbeddedPostgres({ port });
      const { rows } = await pool.query<{ ok: number }>('SELECT 1 AS ok');
      expect(rows).toEqual([{ ok: 1 }]);
    } finally {
      await pool.end();
    }
  });
});

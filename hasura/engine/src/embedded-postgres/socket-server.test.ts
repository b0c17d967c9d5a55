import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmbeddedPostgres, type EmbeddedPostgres } from './index.ts';

/*
 * The embedded database under concurrent clients, as the engine, actions and auth use it at
 * once: parameterised statements beside open transactions must each run with their own SQL
 * and parameters, and a transaction must see only its own work until it commits.
 */
describe('embedded PostgreSQL under concurrent clients', () => {
  let db: EmbeddedPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await startEmbeddedPostgres({ port: 0 });
    pool = new pg.Pool({ connectionString: db.url, max: 8 });
    await pool.query('CREATE TABLE counters (id int PRIMARY KEY, value int NOT NULL)');
    await pool.query('INSERT INTO counters VALUES (1, 0)');
  });
  afterAll(async () => {
    await pool.end();
    await db.stop();
  });

  it('keeps each parameterised statement with its own parameters beside transactions', async () => {
    const transactions = async () => {
      for (let i = 0; i < 40; i++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const { rows } = await client.query<{ n: number }>('SELECT $1::int AS n', [i]);
          expect(rows[0]!.n).toBe(i);
          await client.query('UPDATE counters SET value = value + 1 WHERE id = 1');
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }
    };
    const readers = async (seed: number) => {
      for (let i = 0; i < 60; i++) {
        const { rows } = await pool.query<{ a: number; b: string; c: number }>(
          'SELECT $1::int AS a, $2::text AS b, $3::int AS c',
          [seed + i, `r${seed}-${i}`, i - 100],
        );
        expect(rows[0]).toEqual({ a: seed + i, b: `r${seed}-${i}`, c: i - 100 });
      }
    };
    await Promise.all([transactions(), readers(1000), readers(2000), readers(3000), readers(4000)]);
    const { rows } = await pool.query<{ value: number }>('SELECT value FROM counters WHERE id = 1');
    expect(rows[0]!.value).toBe(40);
  });

  it('delivers results of several megabytes whole, and what follows them (issue 11)', async () => {
    // Before the fix the socket was handed views of PGlite's memory: a result larger than the
    // socket's buffer arrived garbled ("received invalid response") or not at all.
    const sizes = [5_000_000, 6_000_000, 8_000_000];
    const [big, small] = await Promise.all([
      Promise.all(
        sizes.map((size) =>
          pool.query<{ x: string }>('SELECT repeat($1::text, $2::int) AS x', ['ab', size / 2]),
        ),
      ),
      Promise.all(
        Array.from({ length: 20 }, (_, i) => pool.query<{ n: number }>('SELECT $1::int AS n', [i])),
      ),
    ]);
    expect(big.map(({ rows }) => rows[0]!.x.length)).toEqual(sizes);
    expect(big.every(({ rows }, i) => rows[0]!.x === 'ab'.repeat(sizes[i]! / 2))).toBe(true);
    expect(small.map(({ rows }) => rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('rolls back the transaction of a client that disconnects in the middle of it', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('UPDATE counters SET value = -1 WHERE id = 1');
    await client.end();
    const { rows } = await pool.query<{ value: number }>('SELECT value FROM counters WHERE id = 1');
    expect(rows[0]!.value).toBe(40);
  });
});

describe('embedded PostgreSQL stopping while clients are connected', () => {
  it('stops cleanly with a client inside a transaction and others mid-statement', async () => {
    const db = await startEmbeddedPostgres({ port: 0 });
    const inTransaction = new pg.Client({ connectionString: db.url });
    const busy = new pg.Pool({ connectionString: db.url, max: 4 });
    inTransaction.on('error', () => {});
    busy.on('error', () => {});
    busy.on('connect', (client) => client.on('error', () => {}));
    await inTransaction.connect();
    await inTransaction.query('BEGIN');
    await inTransaction.query('CREATE TABLE t (n int)');
    // Statements queued behind the open transaction, and more arriving during the stop.
    const queued = Array.from({ length: 8 }, () => busy.query('SELECT 1').catch(() => 'failed'));
    // Before the fix, the disconnects that close() causes reached the closed backend and
    // threw (an unhandled rejection: "Cannot read properties of undefined").
    await db.stop();
    expect(await Promise.all(queued)).toEqual(Array(8).fill('failed'));
    await inTransaction.end().catch(() => {});
    await busy.end();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '@app/engine';
import {
  createPool,
  createPreparedStatements,
  isSharedSessionDatabase,
} from '@app/engine/database';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../support/engine.ts';

/*
 * The engine runs its compiled SQL as named prepared statements on PostgreSQL, as Hasura does
 * (HASURA_GRAPHQL_USE_PREPARED_STATEMENTS), within bounds, and never on PGlite, whose single
 * session every pooled client shares (hasura/engine/src/database/prepared-statements.ts).
 */

const SELECT_BY_ID = 'SELECT $1::int + 1 AS next';

describe.each(databaseTargets)('prepared statements on $name', (target) => {
  let db: TestDatabase;
  let engine: Engine;
  let url: string;

  beforeAll(async () => {
    db = await target.create();
    await db.pool.query(`
      CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL);
      INSERT INTO item SELECT n, 'item ' || n FROM generate_series(1, 60) AS n;
    `);
    engine = await createEngine({
      databaseUrl: db.url,
      metadata: {
        object: {
          version: 3,
          sources: [{ name: 'default', tables: [{ table: { schema: 'public', name: 'item' } }] }],
        },
      },
      adminSecret: TEST_ADMIN_SECRET,
      poolSize: 3,
    });
    url = (await engine.listen(0)).url;
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
    await db?.dispose();
  });

  it('tells PGlite (one shared session) from a PostgreSQL server', async () => {
    expect(await isSharedSessionDatabase(db.pool)).toBe(target.name === 'pglite');
  });

  it('answers many concurrent requests of one shape each with its own values', async () => {
    const query = 'query Item($id: Int!) { item_by_pk(id: $id) { id name } }';
    const ids = Array.from({ length: 60 }, (_, index) => index + 1);
    // Twice over: the first requests name the text, the later ones run the prepared statement.
    const answers = await Promise.all(
      [...ids, ...ids].map(async (id) => {
        const response = await fetch(`${url}/v1/graphql`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-hasura-admin-secret': TEST_ADMIN_SECRET,
          },
          body: JSON.stringify({ query, variables: { id } }),
        });
        return { id, body: await response.json() };
      }),
    );
    for (const { id, body } of answers)
      expect(body).toEqual({ data: { item_by_pk: { id, name: `item ${id}` } } });
  });

  it.runIf(target.name === 'postgres')(
    'names a text the second time it is seen, and prepares it once per connection',
    async () => {
      const pool = createPool(db.url, 1);
      try {
        const statements = createPreparedStatements({ enabled: true });
        const prepared = async () =>
          (
            await pool.query<{ name: string }>(
              'SELECT name FROM pg_prepared_statements ORDER BY prepare_time',
            )
          ).rows.map((row) => row.name);
        const first = await statements.query<{ next: number }>(pool, SELECT_BY_ID, [1]);
        expect(first.rows).toEqual([{ next: 2 }]);
        expect(await prepared()).toEqual([]);
        const second = await statements.query<{ next: number }>(pool, SELECT_BY_ID, [41]);
        expect(second.rows).toEqual([{ next: 42 }]);
        const third = await statements.query<{ next: number }>(pool, SELECT_BY_ID, [6]);
        expect(third.rows).toEqual([{ next: 7 }]);
        expect(await prepared()).toEqual(['engine_1']);
        expect(statements.namedTexts).toBe(1);
      } finally {
        await pool.end();
      }
    },
  );

  it.runIf(target.name === 'postgres')(
    'keeps the texts it remembers and the statements per connection within their bounds',
    async () => {
      const pool = createPool(db.url, 1);
      try {
        const statements = createPreparedStatements({
          enabled: true,
          maxTexts: 3,
          maxPerConnection: 2,
        });
        const texts = Array.from({ length: 5 }, (_, index) => `SELECT $1::int + ${index} AS n`);
        for (const text of texts) {
          const twice = [
            await statements.query<{ n: number }>(pool, text, [10]),
            await statements.query<{ n: number }>(pool, text, [10]),
          ];
          expect(twice.map((result) => result.rows[0]?.n)).toEqual([
            10 + texts.indexOf(text),
            10 + texts.indexOf(text),
          ]);
        }
        const { rows } = await pool.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM pg_prepared_statements',
        );
        expect(rows[0]?.count).toBe(2);
        expect(statements.namedTexts).toBeLessThanOrEqual(3);
      } finally {
        await pool.end();
      }
    },
  );

  it('runs everything unnamed when turned off', async () => {
    const pool = createPool(db.url, 1);
    try {
      const statements = createPreparedStatements({ enabled: false });
      for (let n = 0; n < 3; n += 1) await statements.query(pool, SELECT_BY_ID, [n]);
      expect(statements.namedTexts).toBe(0);
      const { rows } = await pool.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM pg_prepared_statements',
      );
      expect(rows[0]?.count).toBe(0);
    } finally {
      await pool.end();
    }
  });
});

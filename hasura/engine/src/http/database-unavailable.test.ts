import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded-postgres/index.ts';
import { createEngine } from '../engine.ts';
import type { Engine } from '../engine-options.ts';

/*
 * While the database restarts, the engine answers every request at once with a clear,
 * retryable refusal (HTTP 503, Retry-After, Hasura's `postgres-error` / `connection error`),
 * never a 500, and serves again as soon as the database is back, without a restart of its own.
 */

const ADMIN_SECRET = 'test-admin-secret';
const metadata = {
  version: 3,
  sources: [
    {
      name: 'default',
      kind: 'postgres',
      tables: [{ table: { schema: 'public', name: 'note' } }],
    },
  ],
};

describe('the engine while its database restarts', () => {
  let dir: string;
  let db: EmbeddedPostgres | undefined;
  let engine: Engine;
  let url: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'engine-unavailable-'));
    db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: 0 });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL)');
    await client.end();
    engine = await createEngine({
      databaseUrl: db.url,
      metadata: { object: metadata },
      adminSecret: ADMIN_SECRET,
      poolSize: 2,
    });
    url = (await engine.listen(0)).url;
  });
  afterAll(async () => {
    await engine?.close();
    await db?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const gql = async (query: string) => {
    const response = await fetch(`${url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hasura-admin-secret': ADMIN_SECRET },
      body: JSON.stringify({ query }),
      signal: AbortSignal.timeout(10_000),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };

  it('answers 503 connection error while the database is down, and serves once it is back', async () => {
    expect((await gql('mutation { insert_note_one(object: { body: "a" }) { id } }')).body).toEqual({
      data: { insert_note_one: { id: 1 } },
    });
    const { port } = db!;
    await db!.stop();
    db = undefined;

    for (const query of [
      '{ note { id body } }',
      'mutation { insert_note_one(object: { body: "b" }) { id } }',
    ]) {
      const answer = await gql(query);
      expect(answer.status, query).toBe(503);
      expect(answer.retryAfter, query).toBe('1');
      expect(answer.body, query).toEqual({
        errors: [
          { message: 'connection error', extensions: { path: '$', code: 'postgres-error' } },
        ],
      });
    }

    db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port });
    expect(await gql('{ note { id body } }')).toMatchObject({
      status: 200,
      body: { data: { note: [{ id: 1, body: 'a' }] } },
    });
  });
});

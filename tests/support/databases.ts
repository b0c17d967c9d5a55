import { randomBytes } from 'node:crypto';

import pg from 'pg';

import { createPool } from '@app/engine/database';
import { startEmbeddedPostgres } from '@app/engine/embedded-postgres';

/**
 * Databases the integration suites run on: embedded PGlite always, and the real PostgreSQL
 * server when one answers (TEST_POSTGRES_URL, default the local server's `test` database).
 * With REQUIRE_POSTGRES=1 (as CI sets it when a server is up) an unreachable server fails
 * the run instead of being skipped. Each test file gets a database of its own.
 */

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  dispose(): Promise<void>;
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  create(): Promise<TestDatabase>;
}

const serverUrl = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

async function createPgliteDatabase(): Promise<TestDatabase> {
  const embedded = await startEmbeddedPostgres({ port: 0 });
  const pool = createPool(embedded.url, 4);
  return {
    url: embedded.url,
    pool,
    async dispose() {
      await pool.end();
      await embedded.stop();
    },
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function createServerDatabase(): Promise<TestDatabase> {
  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = createPool(url, 4);
  return {
    url,
    pool,
    async dispose() {
      await pool.end();
      const cleaner = new pg.Client({ connectionString: serverUrl });
      await cleaner.connect();
      try {
        await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleaner.end();
      }
    },
  };
}

async function serverReachable(): Promise<boolean> {
  if (serverUrl === 'off') return false;
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if (process.env['REQUIRE_POSTGRES'] === '1') {
      throw new Error(`REQUIRE_POSTGRES=1 but ${serverUrl} is unreachable`, { cause: error });
    }
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export const databaseTargets: DatabaseTarget[] = [
  { name: 'pglite', create: createPgliteDatabase },
  ...((await serverReachable())
    ? [{ name: 'postgres' as const, create: createServerDatabase }]
    : []),
];

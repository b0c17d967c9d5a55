import { randomBytes } from 'node:crypto';

import pg from 'pg';

import { startPgliteDatabase } from './pglite-server.ts';

/*
 * A fresh database per group: on the real PostgreSQL server when it answers (a database
 * created for the group, TimeZone UTC, dropped afterwards), else an embedded PGlite instance.
 */

export type DatabaseKind = 'postgres' | 'pglite';

export interface GroupDatabase {
  kind: DatabaseKind;
  /** What the engine connects to. */
  url: string;
  /** Runs SQL (several statements allowed) on the group's database. */
  exec(sql: string): Promise<void>;
  /** Drops the database (or stops PGlite). Safe to call twice. */
  dispose(): Promise<void>;
}

export interface DatabaseProvider {
  kind: DatabaseKind;
  /** Where it runs, for the report (no credentials). */
  description: string;
  create(label: string): Promise<GroupDatabase>;
}

export const defaultServerUrl =
  process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = parsed.password ? '***' : '';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export async function serverReachable(url: string): Promise<boolean> {
  if (url === 'off') return false;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A server-side error on an idle client must not crash the runner.
  client.on('error', () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function postgresProvider(serverUrl: string): DatabaseProvider {
  return {
    kind: 'postgres',
    description: `PostgreSQL server ${redact(serverUrl)}`,
    async create(label) {
      const safeLabel = label
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .slice(0, 30);
      const name = `conformance_${safeLabel}_${randomBytes(4).toString('hex')}`;
      await withClient(serverUrl, async (admin) => {
        await admin.query(`CREATE DATABASE "${name}"`);
        await admin.query(`ALTER DATABASE "${name}" SET timezone TO 'UTC'`);
      });
      const url = withDatabase(serverUrl, name);
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      client.on('error', () => {});
      await client.connect();
      let disposed = false;
      return {
        kind: 'postgres',
        url,
        async exec(sql) {
          await client.query(sql);
        },
        async dispose() {
          if (disposed) return;
          disposed = true;
          await client.end().catch(() => {});
          await withClient(serverUrl, async (admin) => {
            await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          });
        },
      };
    },
  };
}

function pgliteProvider(): DatabaseProvider {
  return {
    kind: 'pglite',
    description: 'embedded PGlite (in memory, citext + ltree loaded)',
    async create() {
      const embedded = await startPgliteDatabase();
      let client: pg.Client | undefined;
      try {
        client = new pg.Client({ connectionString: embedded.url });
        client.on('error', () => {});
        await client.connect();
      } catch (error) {
        await embedded.stop();
        throw error;
      }
      const connected = client;
      let disposed = false;
      return {
        kind: 'pglite',
        url: embedded.url,
        async exec(sql) {
          await connected.query(sql);
        },
        async dispose() {
          if (disposed) return;
          disposed = true;
          await connected.end().catch(() => {});
          await embedded.stop();
        },
      };
    },
  };
}

/** `auto`: the server when it answers, else PGlite. */
export async function chooseDatabaseProvider(
  mode: 'auto' | DatabaseKind,
  serverUrl = defaultServerUrl,
): Promise<DatabaseProvider> {
  if (mode === 'pglite') return pgliteProvider();
  if (await serverReachable(serverUrl)) return postgresProvider(serverUrl);
  if (mode === 'postgres') throw new Error(`PostgreSQL server ${redact(serverUrl)} is unreachable`);
  return pgliteProvider();
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { verifyPassword } from '@app/auth-service/password';

import { ensureClientBuilds } from '../../scripts/launcher/builds.ts';
import { SERVICES } from '../../scripts/launcher/services.ts';
import { databaseTargets } from '../support/databases.ts';
import { freePort, spawnTs, type Spawned } from '../support/processes.ts';
import { ALL_PRODUCT_TABLES, listTables } from '../support/schema.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Free ports for every service, so the tests never collide with a running `npm start`. */
async function servicePorts(): Promise<Record<string, string>> {
  const entries = await Promise.all(
    SERVICES.map(async (service) => [service.portVariable, String(await freePort())]),
  );
  return Object.fromEntries(entries) as Record<string, string>;
}

/*
 * `npm start` as a person uses it, on the embedded database: brings the stack up, prints a
 * database URL any client can use, keeps data across restarts, starts fresh on request,
 * refuses a second launcher on the same data, and stops cleanly on Ctrl-C (SIGINT).
 */
describe('the dev launcher on embedded PostgreSQL', () => {
  let dataDir: string;
  let port: number;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // The production builds `npm start` serves, made (or found current) once up front so each
    // start below stays within a test's time; the first start checks it finds them current.
    await ensureClientBuilds(
      root,
      { ...process.env, WEB_BUILD_DIR: '', MINIAPP_BUILD_DIR: '' },
      () => {},
    );
    dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'launcher-')), 'pglite');
    port = await freePort();
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    env = {
      ...inherited,
      ...(await servicePorts()),
      NODE_ENV: 'development',
      EMBEDDED_DB_DIR: dataDir,
      EMBEDDED_DB_PORT: String(port),
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'dev-only-owner-password',
    };
  }, 300_000);
  afterAll(async () => {
    await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  const launch = (...args: string[]) => spawnTs('scripts/start.ts', args, { cwd: root, env });
  const stop = async (launcher: Spawned) => {
    launcher.child.kill('SIGINT');
    return launcher.exited;
  };
  const databaseUrl = (launcher: Spawned) => {
    const match = /Database\s+(postgres:\/\/\S+)/.exec(launcher.output());
    if (!match) throw new Error(`no database URL printed:\n${launcher.output()}`);
    return match[1]!;
  };
  async function withClient<T>(url: string, work: (client: pg.Pool) => Promise<T>): Promise<T> {
    const client = new pg.Pool({ connectionString: url, max: 1 });
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  it('comes up with every table, the seeds and the admin, at the printed URL', async () => {
    const launcher = launch();
    await launcher.waitFor(/\] ready/);
    // The production builds, current, and where to sign in and read mail, in the banner.
    expect(launcher.output()).toMatch(/production builds up to date/);
    expect(launcher.output()).toMatch(
      /Admin\s+owner@example\.com\s+password dev-only-owner-password \(development only\)/,
    );
    expect(launcher.output()).toMatch(/Mail\s+written as \.eml files to \S*\.data\/outbox\//);
    const portal = /Web portal\s+(http:\/\/\S+)/.exec(launcher.output())?.[1];
    const page = await (await fetch(portal!)).text();
    expect(page, 'the portal serves its production build').toMatch(
      /\/assets\/entry\.client-[\w-]+\.js/,
    );
    expect(page).not.toContain('/@vite/client');
    const url = databaseUrl(launcher);
    expect(url).toContain(`:${port}/`);
    await withClient(url, async (client) => {
      expect(await listTables(client)).toEqual(ALL_PRODUCT_TABLES);
      const seeded = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM currencies');
      expect(seeded.rows[0]!.n).toBeGreaterThan(40);
      const admin = await client.query<{ password_hash: string }>(
        `SELECT u.password_hash FROM portal_users u JOIN roles r ON r.user_id = u.id
         WHERE u.email = 'owner@example.com' AND r.role_type = 'admin'`,
      );
      expect(admin.rowCount).toBe(1);
      expect(await verifyPassword(admin.rows[0]!.password_hash, 'dev-only-owner-password')).toBe(
        true,
      );
      await client.query(`INSERT INTO portal_users (email) VALUES ('kept@example.com')`);
    });

    const graphql = /GraphQL\s+(http:\/\/\S+)/.exec(launcher.output())?.[1];
    expect(graphql, 'the launcher prints the GraphQL URL').toBeDefined();
    const answer = await fetch(graphql!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hasura-admin-secret': 'dev-only-hasura-admin-secret',
      },
      body: JSON.stringify({ query: '{ currencies_by_pk(code: "BTC") { code kind } }' }),
    });
    expect(await answer.json()).toEqual({
      data: { currencies_by_pk: { code: 'BTC', kind: 'crypto' } },
    });

    const second = launch();
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by process/);

    expect(await stop(launcher)).toBe(0);
    await expect(withClient(url, (client) => client.query('SELECT 1'))).rejects.toThrow();
  });

  it('keeps the data across a restart', async () => {
    const launcher = launch();
    await launcher.waitFor(/\] ready/);
    expect(launcher.output()).toMatch(/migrations up to date/);
    const kept = await withClient(databaseUrl(launcher), (client) =>
      client.query(`SELECT 1 FROM portal_users WHERE email = 'kept@example.com'`),
    );
    expect(kept.rowCount).toBe(1);
    expect(await stop(launcher)).toBe(0);
  });

  it('starts from an empty database with --fresh', async () => {
    const launcher = launch('--fresh');
    await launcher.waitFor(/\] ready/);
    const kept = await withClient(databaseUrl(launcher), (client) =>
      client.query(`SELECT 1 FROM portal_users WHERE email = 'kept@example.com'`),
    );
    expect(kept.rowCount).toBe(0);
    expect(await stop(launcher)).toBe(0);
  });
});

describe.each(databaseTargets.filter((target) => target.name === 'postgres'))(
  'the dev launcher with DATABASE_URL ($name server)',
  (target) => {
    it('provisions and uses that server instead of embedded PostgreSQL', async () => {
      const db = await target.create();
      try {
        const launcher = spawnTs('scripts/start.ts', [], {
          cwd: root,
          env: {
            ...process.env,
            ...(await servicePorts()),
            NODE_ENV: 'development',
            DATABASE_URL: db.url,
          },
        });
        await launcher.waitFor(/\] ready/);
        expect(launcher.output()).toMatch(/PostgreSQL from DATABASE_URL/);
        expect(await listTables(db.pool)).toEqual(ALL_PRODUCT_TABLES);
        launcher.child.kill('SIGINT');
        expect(await launcher.exited).toBe(0);
      } finally {
        await db.dispose();
      }
    });
  },
);

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { parseAuthEnv } from '@app/auth-service/env';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { postJsonFrom } from '../../support/post-from.ts';
import { migratedDatabase, startAuth, type AuthServer } from './harness.ts';

/*
 * Issue 19, point 6 (SECURITY.md 23): docker-compose.yml published the auth service directly
 * while AUTH_TRUST_PROXY trusted one hop, so a client's own X-Forwarded-For was believed and
 * per-address limits counted whatever it wrote (13 of 13 over-limit requests passed). The
 * service now trusts a proxy by its address only, trusts none by default, and the compose file
 * trusts none while nothing is in front. Clients are real sockets from distinct loopback
 * addresses (127.0.0.x), so the address the service sees is the one the kernel gives it.
 */

const CADDY = '/usr/bin/caddy';
const REPO = new URL('../../../', import.meta.url);
/** Three requests an hour per address; the rest of the 16 (13) must be refused. */
const LIMITS = {
  reset: { ip: { limit: 3, windowSeconds: 3600 }, subject: { limit: 100, windowSeconds: 3600 } },
};
const ATTEMPTS = 16;
const EXPECTED = [...Array<number>(3).fill(200), ...Array<number>(ATTEMPTS - 3).fill(429)];

/** `ATTEMPTS` reset requests from `from`, each for another e-mail; their statuses. */
async function resets(
  base: string,
  from: string,
  forged: (n: number) => Record<string, string> = () => ({}),
): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < ATTEMPTS; n += 1) {
    statuses.push(
      (
        await postJsonFrom(
          new URL('/reset_password', base).href,
          { email: `r${n}@example.com` },
          from,
          forged(n),
        )
      ).status,
    );
  }
  return statuses;
}

/** A different forged client address every time, in the shapes clients send. */
const forgedHeaders = (n: number): Record<string, string> => ({
  'x-forwarded-for': n % 2 === 0 ? `203.0.113.${n + 1}` : `198.51.100.${n + 1}, 203.0.113.${n}`,
  'x-real-ip': `192.0.2.${n + 1}`,
  forwarded: `for=192.0.2.${n + 1}`,
});

/** The compose file's AUTH_TRUST_PROXY for the auth service, `${VAR:-default}` resolved. */
async function composeTrustProxy(): Promise<string> {
  const compose = parseYaml(await readFile(new URL('docker-compose.yml', REPO), 'utf8')) as {
    services: { auth: { environment: Record<string, string | undefined> } };
  };
  const raw = compose.services.auth.environment['AUTH_TRUST_PROXY'] ?? '';
  const variable = /^\$\{[A-Z_]+(?::?-([^}]*))?\}$/.exec(raw);
  return variable ? (variable[1] ?? '') : raw;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The real Caddy in front of `upstream`, on a free port, with its admin API off. */
async function startCaddy(upstream: string): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'caddy-'));
  const port = await freePort();
  const config = join(dir, 'Caddyfile');
  await writeFile(
    config,
    `{\n  admin off\n  auto_https off\n}\n\nhttp://127.0.0.1:${port} {\n  bind 127.0.0.1\n  reverse_proxy ${new URL(upstream).host}\n}\n`,
  );
  const child: ChildProcess = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited: ${log}`);
    const up = await fetch(`${url}/healthz`)
      .then((response) => response.ok)
      .catch(() => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`caddy did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe.each(databaseTargets)(
  'security regression: a forged X-Forwarded-For changes nothing on $name',
  (target) => {
    let db: TestDatabase;
    const servers: AuthServer[] = [];

    const start = async (trustProxy: string) => {
      const server = await startAuth(db, undefined, {
        limits: LIMITS,
        env: { AUTH_RATE_LIMIT_FACTOR: '1', AUTH_TRUST_PROXY: trustProxy },
      });
      servers.push(server);
      return server;
    };
    const counted = async () =>
      (await db.pool.query<{ key: string }>('SELECT key FROM auth.rate_limits ORDER BY key')).rows
        .map((row) => row.key)
        .filter((key) => key.startsWith('reset:ip:'));

    beforeAll(async () => {
      db = await migratedDatabase(target);
    });
    beforeEach(async () => {
      await db.pool.query('DELETE FROM auth.rate_limits');
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      await db?.dispose();
    });

    it("limits a direct client under the compose file's setting, whatever it forges", async () => {
      const server = await start(await composeTrustProxy());
      expect(await resets(server.url, '127.0.0.11', forgedHeaders)).toEqual(EXPECTED);
      expect(await counted()).toEqual(['reset:ip:127.0.0.11']);
    });

    it('refuses a hop count at start-up, naming the variable', () => {
      const base = { NODE_ENV: 'test', DATABASE_URL: db.url };
      for (const hops of ['1', '2', '0']) {
        expect(() => parseAuthEnv({ ...base, AUTH_TRUST_PROXY: hops })).toThrow(
          /AUTH_TRUST_PROXY: is a hop count/,
        );
      }
      expect(() => parseAuthEnv({ ...base, AUTH_TRUST_PROXY: 'true' })).toThrow(/AUTH_TRUST_PROXY/);
      expect(parseAuthEnv({ ...base, AUTH_TRUST_PROXY: '' }).AUTH_TRUST_PROXY).toEqual([]);
      expect(
        parseAuthEnv({ ...base, AUTH_TRUST_PROXY: '10.0.0.5, 172.16.0.0/12, loopback' })
          .AUTH_TRUST_PROXY,
      ).toEqual(['10.0.0.5', '172.16.0.0/12', 'loopback']);
    });

    it('limits a direct client exactly as one that forges nothing, with a proxy trusted', async () => {
      // 127.0.0.1 is trusted (the proxy's address); these clients are not it.
      const server = await start('127.0.0.1');
      const forging = await resets(server.url, '127.0.0.12', forgedHeaders);
      const honest = await resets(server.url, '127.0.0.13');
      expect(forging).toEqual(EXPECTED);
      expect(honest).toEqual(EXPECTED);
      expect(await counted()).toEqual(['reset:ip:127.0.0.12', 'reset:ip:127.0.0.13']);
    });

    it('behind the real Caddy, keys each client by the address Caddy saw', async () => {
      const server = await start('127.0.0.1');
      const caddy = await startCaddy(server.url);
      try {
        const forging = await resets(caddy.url, '127.0.0.14', forgedHeaders);
        expect(forging).toEqual(EXPECTED);
        // Another client behind the same proxy has its own count.
        const other = await resets(caddy.url, '127.0.0.15');
        expect(other).toEqual(EXPECTED);
        expect(await counted()).toEqual(['reset:ip:127.0.0.14', 'reset:ip:127.0.0.15']);
      } finally {
        await caddy.stop();
      }
    });
  },
);

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launcherAddressEnv } from '../../../scripts/launcher/addresses.ts';
import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { cleanEnvironment } from '../../support/launcher-env.ts';
import { spawnTs, type Spawned } from '../../support/processes.ts';

/*
 * A stack on ports other than the defaults works with nothing but the port variables set
 * (issue 20): the portal, opened at http://localhost:WEB_PORT or at http://127.0.0.1:WEB_PORT
 * (what the web server logs), can call the auth service, and the portal's links name its port.
 * Ports 3400-3499 and 43400-43499 are this file's.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A browser's CORS preflight for a sign-in, from `origin`. */
const preflight = (authUrl: string, origin: string) =>
  fetch(`${authUrl}/login`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });

async function stop(service: Spawned): Promise<void> {
  if (service.child.exitCode === null && service.child.signalCode === null) {
    service.child.kill('SIGINT');
  }
  await service.exited;
}

describe('the launcher derives every address from the ports', () => {
  const ports = {
    WEB_PORT: '3410',
    HASURA_GRAPHQL_SERVER_PORT: '3411',
    AUTH_PORT: '3412',
    ACTIONS_PORT: '3413',
    BOT_PORT: '3414',
    EMBEDDED_DB_PORT: '3415',
  };

  it('gives each service the addresses of the ports in use', () => {
    expect(launcherAddressEnv(ports)).toEqual({
      PUBLIC_SITE_URL: 'http://localhost:3410',
      PUBLIC_WEB_URL: 'http://localhost:3410',
      MINIAPP_URL: 'http://localhost:3410/telegram-app',
      PUBLIC_GRAPHQL_URL: 'http://localhost:3411/v1/graphql',
      PUBLIC_AUTH_URL: 'http://localhost:3412',
      ACTIONS_BASE_URL: 'http://127.0.0.1:3413',
      BOT_EVENTS_URL: 'http://127.0.0.1:3414/events',
      AUTH_CORS_ORIGINS: 'http://localhost:3410,http://127.0.0.1:3410',
      AUTH_WEB_ORIGIN: 'http://localhost:3410',
      AUTH_MINIAPP_ORIGIN: 'http://localhost:3410',
    });
  });

  it('keeps what a person set, and follows the portal address they gave', () => {
    const derived = launcherAddressEnv({
      ...ports,
      PUBLIC_SITE_URL: 'https://exchange.example',
      PUBLIC_AUTH_URL: 'https://auth.exchange.example',
      BOT_EVENTS_URL: '',
    });
    expect(derived).toMatchObject({
      PUBLIC_SITE_URL: 'https://exchange.example',
      PUBLIC_WEB_URL: 'https://exchange.example',
      MINIAPP_URL: 'https://exchange.example/telegram-app',
      PUBLIC_AUTH_URL: 'https://auth.exchange.example',
      // Empty counts as unset, as the services read it.
      BOT_EVENTS_URL: 'http://127.0.0.1:3414/events',
      AUTH_CORS_ORIGINS: 'https://exchange.example,http://localhost:3410,http://127.0.0.1:3410',
      AUTH_WEB_ORIGIN: 'https://exchange.example',
    });
    expect(launcherAddressEnv({ ...ports, AUTH_CORS_ORIGINS: 'https://a.example' })).toMatchObject({
      AUTH_CORS_ORIGINS: 'https://a.example',
    });
  });
});

describe('the auth service run alone, with only its port and the portal port set', () => {
  let database: TestDatabase;
  let auth: Spawned;
  const authUrl = 'http://127.0.0.1:43410';

  beforeAll(async () => {
    database = await databaseTargets[0]!.create();
    auth = spawnTs('auth-service/src/main.ts', [], {
      cwd: root,
      env: {
        ...cleanEnvironment(),
        NODE_ENV: 'development',
        DATABASE_URL: database.url,
        AUTH_PORT: '43410',
        WEB_PORT: '3420',
      },
    });
    await auth.waitFor(/auth service listening/);
  });
  afterAll(async () => {
    if (auth) await stop(auth);
    await database?.dispose();
  });

  it.each(['http://localhost:3420', 'http://127.0.0.1:3420'])(
    'answers a preflight from the portal at %s',
    async (origin) => {
      const response = await preflight(authUrl, origin);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    },
  );

  it.each(['http://localhost:3000', 'http://localhost:3421', 'https://evil.example'])(
    'refuses %s',
    async (origin) => {
      const response = await preflight(authUrl, origin);
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    },
  );
});

describe('`npm start` on other ports, nothing else set', () => {
  let dataDir: string;
  let launcher: Spawned;
  const web = 3430;
  const auth = 3432;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'launcher-ports-'));
    launcher = spawnTs('scripts/start.ts', ['--fresh'], {
      cwd: root,
      env: {
        ...cleanEnvironment(),
        NODE_ENV: 'development',
        EMBEDDED_DB_DIR: path.join(dataDir, 'pglite'),
        WEB_PORT: String(web),
        HASURA_GRAPHQL_SERVER_PORT: '3431',
        AUTH_PORT: String(auth),
        ACTIONS_PORT: '3433',
        BOT_PORT: '3434',
        WATCHERS_PORT: '3436',
        EMBEDDED_DB_PORT: '3435',
        ADMIN_EMAIL: 'owner@example.com',
        ADMIN_PASSWORD: 'dev-only-owner-password',
      },
    });
    await launcher.waitFor(/\] ready/, 180_000);
  }, 240_000);
  afterAll(async () => {
    if (launcher) await stop(launcher);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the portal on its port', () => {
    expect(launcher.output()).toContain(`http://localhost:${web}/`);
    expect(launcher.output()).toContain(`http://localhost:${web}/telegram-app`);
  });

  it.each([`http://localhost:${web}`, `http://127.0.0.1:${web}`])(
    'lets the portal at %s sign in',
    async (origin) => {
      const answer = await preflight(`http://127.0.0.1:${auth}`, origin);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      // The sign-in itself reaches the service and the browser may read the answer.
      const login = await fetch(`http://127.0.0.1:${auth}/login`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password: 'dev-only-owner-password' }),
      });
      expect(login.headers.get('access-control-allow-origin')).toBe(origin);
      expect(login.status).not.toBe(403);
    },
  );

  it('refuses the default port when the portal is not there', async () => {
    const answer = await preflight(`http://127.0.0.1:${auth}`, 'http://localhost:3000');
    expect(answer.status).toBe(403);
  });

  it("serves the portal's canonical links on its port", async () => {
    const page = await fetch(`http://127.0.0.1:${web}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(new RegExp(`rel="canonical" href="http://localhost:${web}/?"`));
    expect(html).not.toContain('localhost:3000');
  });
});

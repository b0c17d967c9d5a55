import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, spawnTs, type Spawned } from '../../tests/support/processes.ts';

/*
 * The development web server (server/main.ts with WEB_SERVE=dev), as `npm start` runs it:
 * the portal's and the mini-app's Vite middleware. Vite serves files by absolute path under
 * /@fs/; by default anything in the checkout, which holds .data/ (the embedded database with
 * password hashes, the mail outbox with codes and reset links) and .env files. Issue 19,
 * point 7d: only the folders the client code lives in are served, and secrets never.
 */

const repo = path.resolve(import.meta.dirname, '..', '..');
const marker = `fs-probe-${randomBytes(8).toString('hex')}`;
/** What the files hold (not in their names, which a refusal may quote). */
const content = `secret-content-${randomBytes(8).toString('hex')}`;
/** Files that must never be served, each holding `content`. */
const secrets = {
  data: path.join(repo, '.data', marker, 'outbox', 'reset-link.eml'),
  env: path.join(repo, `.env.${marker}`),
  // Inside a served folder: the patterns refuse them there too.
  pem: path.join(repo, 'web', 'app', `${marker}.pem`),
  dataInApp: path.join(repo, 'web', 'app', '.data', marker, 'pglite', 'base'),
};

let server: Spawned;
let base: string;
/** The folders this test makes, to remove afterwards (never one that was there before). */
const made: string[] = [];

beforeAll(async () => {
  for (const folder of [path.join(repo, '.data'), path.join(repo, 'web', 'app', '.data')]) {
    if (!existsSync(folder)) made.push(folder);
  }
  for (const file of Object.values(secrets)) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${content}\n`);
  }
  const port = await freePort();
  const { DATABASE_URL: _database, TELEGRAM_BOT_TOKEN: _token, ...inherited } = process.env;
  server = spawnTs('server/main.ts', [], {
    cwd: path.join(repo, 'web'),
    env: {
      ...inherited,
      NODE_ENV: 'development',
      WEB_SERVE: 'dev',
      WEB_PORT: String(port),
      WEB_HOST: '127.0.0.1',
      // No engine: the pages render without the catalog.
      PUBLIC_GRAPHQL_URL: 'http://127.0.0.1:9/v1/graphql',
      MINIAPP_DEV_LAUNCH: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 150_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await rm(path.join(repo, '.data', marker), { recursive: true, force: true });
  await rm(path.join(repo, 'web', 'app', '.data', marker), { recursive: true, force: true });
  // Only while empty: something else may have started using it meanwhile.
  for (const folder of made) await rmdir(folder).catch(() => undefined);
  await rm(secrets.env, { force: true });
  await rm(secrets.pem, { force: true });
});

/** A GET with the path exactly as written (fetch would normalise `..` and `%2e`). */
function rawGet(pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/`, { path: pathname, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every way of asking Vite for an absolute path, through the portal and the mini-app. */
function probes(file: string): string[] {
  const prefixes = ['', '/telegram-app'];
  const forms = [
    `/@fs${file}`,
    `/@fs${file}?raw`,
    `/@fs${file}?import`,
    `/@fs${file}?url`,
    `/@fs${file}?raw&import`,
    `/@fs${file.replaceAll('/', '//')}`,
    `/@fs${file.replace(/\/\.data\//, '/web/../.data/').replace(/\/\.env/, '/web/../.env')}`,
    `/@fs${encodeURI(file).replaceAll('.', '%2e')}`,
  ];
  return prefixes.flatMap((prefix) => forms.map((form) => `${prefix}${form}`));
}

describe('the development web server', () => {
  it('security regression: serves nothing of .data/ through /@fs/', async () => {
    for (const file of [secrets.data, secrets.dataInApp]) {
      for (const probe of probes(file)) {
        const { status, body } = await rawGet(probe);
        expect([403, 404], probe).toContain(status);
        expect(body, probe).not.toContain(content);
      }
    }
  });

  it('security regression: serves no .env file, key or system file through /@fs/', async () => {
    for (const probe of [
      ...probes(secrets.env),
      ...probes(path.join(repo, '.env')),
      ...probes(secrets.pem),
      ...probes('/etc/passwd'),
      '/@fs/etc/passwd',
      '/telegram-app/@fs/etc/passwd',
      '/@fs/proc/self/environ',
    ]) {
      const { status, body } = await rawGet(probe);
      expect([403, 404], probe).toContain(status);
      expect(body, probe).not.toContain(content);
      expect(body, probe).not.toMatch(/root:x:0:0/);
    }
  });

  it('security regression: serves no other part of the checkout (services, tests, scripts)', async () => {
    for (const file of [
      path.join(repo, 'auth-service', 'src', 'env.ts'),
      path.join(repo, 'scripts', 'start.ts'),
      path.join(repo, 'tests', 'support', 'databases.ts'),
      path.join(repo, 'node_modules', '@app', 'auth-service', 'src', 'env.ts'),
      path.join(repo, 'package.json'),
      path.join(repo, 'web', 'server', 'env.ts'),
    ]) {
      for (const probe of [`/@fs${file}?raw`, `/telegram-app/@fs${file}?raw`]) {
        const { status, body } = await rawGet(probe);
        expect([403, 404], probe).toContain(status);
        expect(body, probe).not.toContain('export');
      }
    }
    // Paths under the portal's root (web/) that are not client code: its server, its config.
    for (const probe of [
      '/server/env.ts',
      '/server/env.ts?raw',
      '/vite.config.ts?raw',
      '/package.json',
    ]) {
      const { status, body } = await rawGet(probe);
      expect([403, 404], probe).toContain(status);
      expect(body, probe).not.toContain('export');
    }
  });

  it('still renders the portal and the mini-app, with their modules', async () => {
    // A page that needs no engine (the home page's loader asks it for the catalog).
    const portal = await rawGet('/login');
    expect(portal.status).toBe(200);
    expect(portal.body).toContain('<html');
    const portalModules = [
      '/@vite/client',
      ...new Set(
        [...portal.body.matchAll(/"(\/[^"]+\.(?:tsx?|jsx?))"/g)].map((match) => match[1]!),
      ),
    ];
    expect(portalModules).toContain('/app/root.tsx');
    // Each module the page loads, and each module those import (the shared code among them).
    const imported = new Set<string>();
    for (const module of portalModules) {
      const answer = await rawGet(module);
      expect(answer.status, module).toBe(200);
      for (const match of answer.body.matchAll(/from "(\/[^"?]+)(?:\?[^"]*)?"/g))
        imported.add(match[1]!);
    }
    expect([...imported].some((module) => module.includes('/shared/src/'))).toBe(true);
    for (const module of imported) expect((await rawGet(module)).status, module).toBe(200);

    const miniapp = await rawGet('/telegram-app');
    expect(miniapp.status).toBe(200);
    expect(miniapp.body).toContain('/telegram-app/src/main.tsx');
    expect((await rawGet('/telegram-app/src/main.tsx')).status).toBe(200);
    // The code both apps share is served from its own folders.
    for (const shared of [
      path.join(repo, 'shared', 'src', 'i18n', 'index.ts'),
      path.join(repo, 'client', 'src', 'auth', 'store.ts'),
    ]) {
      const answer = await rawGet(`/telegram-app/@fs${shared}`);
      expect(answer.status, shared).toBe(200);
      expect(answer.body, shared).toContain('export');
    }
    expect(
      (await rawGet(`/@fs${path.join(repo, 'shared', 'src', 'i18n', 'index.ts')}`)).status,
    ).toBe(200);
  });
});

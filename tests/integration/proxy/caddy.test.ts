import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cleanEnvironment, portVariables } from '../../support/launcher-env.ts';
import { spawnTs, type Spawned } from '../../support/processes.ts';

/*
 * Issue 20, "one public entry": the production proxy configuration (deploy/Caddyfile), run by
 * the real Caddy with only its environment placeholders set, in front of the stack started as a
 * person starts it (`npm start -- --fresh`, our engine standing in for the official one). A
 * browser that knows only https://localhost:CADDY signs up, creates an order and follows it
 * live over the WebSocket through Caddy; the test also checks what must not be reachable and
 * that a client cannot choose the address the auth service's limits count.
 * Ports 25000-25099 are this file's.
 */

const CADDY = '/usr/bin/caddy';
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const root = fileURLToPath(new URL('../../..', import.meta.url));

const HTTPS_PORT = 25010;
const HTTP_PORT = 25011;
const PORTS = {
  web: 25020,
  engine: 25021,
  auth: 25022,
  actions: 25023,
  bot: 25024,
  watchers: 25026,
  database: 25025,
};
const SITE = `https://localhost:${HTTPS_PORT}`;
const ENGINE_DIRECT = `http://127.0.0.1:${PORTS.engine}/v1/graphql`;
const ADMIN_SECRET = 'dev-only-hasura-admin-secret';
const ACTIONS_SECRET = 'dev-only-actions-secret';
const WEBHOOK_SECRET = 'dev-only-telegram-webhook-secret';
const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const DEPOSIT_ADDRESS = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request exactly as written (no path normalisation, unlike fetch), from the local address
 * `from`, over a connection of its own; `https:` trusts Caddy's local CA.
 */
function request(
  url: string,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: unknown;
    from?: string;
    ca?: string;
  } = {},
): Promise<Answer> {
  const target = new URL(url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const requestOptions: https.RequestOptions = {
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    path: options.path ?? `${target.pathname}${target.search}`,
    method: options.method ?? (payload ? 'POST' : 'GET'),
    localAddress: options.from,
    agent: false,
    ca: options.ca,
    headers: {
      ...(payload
        ? {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(payload)),
          }
        : {}),
      ...options.headers,
    },
  };
  return new Promise((resolve, reject) => {
    const onResponse = (response: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    };
    const outgoing =
      target.protocol === 'https:'
        ? https.request(requestOptions, onResponse)
        : http.request(requestOptions, onResponse);
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** The portal's answer to a path it has no page for: only the web service saw the request. */
const portalRefusal = (answer: Answer): boolean =>
  (answer.status === 404 || answer.status === 405) &&
  /^text\/html/.test(String(answer.headers['content-type']));

/** The real Caddy on deploy/Caddyfile; only its placeholders differ from production. */
async function startCaddy(
  dir: string,
): Promise<{ child: ChildProcess; log(): string; ca: string }> {
  const env = {
    PATH: process.env['PATH'] ?? '',
    // Caddy's certificates, its local CA and its autosave stay in the test's folder.
    HOME: dir,
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    SITE_ADDRESS: SITE,
    CADDY_HTTPS_PORT: String(HTTPS_PORT),
    CADDY_HTTP_PORT: String(HTTP_PORT),
    CADDY_ADMIN: 'off',
    // The local CA stays out of the machine's trust store; the test trusts it by file.
    CADDY_EXTRA_GLOBAL_OPTIONS: 'skip_install_trust',
    WEB_UPSTREAM: `127.0.0.1:${PORTS.web}`,
    ENGINE_UPSTREAM: `127.0.0.1:${PORTS.engine}`,
    AUTH_UPSTREAM: `127.0.0.1:${PORTS.auth}`,
    BOT_UPSTREAM: `127.0.0.1:${PORTS.bot}`,
  };
  const child = spawn(
    CADDY,
    ['run', '--config', path.join(root, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const caFile = path.join(dir, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited:\n${log}`);
    if (existsSync(caFile)) {
      const ca = await readFile(caFile, 'utf8');
      // Any answer over TLS (the stack is not up yet: 502) means Caddy serves the site.
      const served = await request(`${SITE}/`, { ca })
        .then(() => true)
        .catch(() => false);
      if (served) return { child, log: () => log, ca };
    }
    if (Date.now() > deadline) throw new Error(`caddy did not serve ${SITE}:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** As a service on the compose network calls the engine: directly, with the admin secret. */
async function asManager<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const call = async (body: unknown, session: Record<string, string> = {}) => {
    const response = await fetch(ENGINE_DIRECT, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hasura-admin-secret': ADMIN_SECRET,
        ...session,
      },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { data?: unknown; errors?: unknown[] };
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    return answer.data;
  };
  const staff = (await call({
    query: 'query { roles(where: { role_type: { _eq: "admin" } }, limit: 1) { user_id } }',
  })) as { roles: Array<{ user_id: string }> };
  const staffId = staff.roles[0]?.user_id;
  if (!staffId) throw new Error('no provisioned admin');
  return (await call(
    { query, variables },
    { 'x-hasura-role': 'manager', 'x-hasura-user-id': staffId },
  )) as T;
}

describe('the production proxy (deploy/Caddyfile) in front of the stack', () => {
  let dir: string;
  let caddy: Awaited<ReturnType<typeof startCaddy>> | undefined;
  let launcher: Spawned | undefined;
  let browser: Browser | undefined;
  let ca: string;

  beforeAll(async () => {
    if (!existsSync(CADDY)) throw new Error('install caddy (apt-get install caddy)');
    dir = await mkdtemp(path.join(tmpdir(), 'proxy-caddy-'));
    caddy = await startCaddy(dir);
    ca = caddy.ca;
    launcher = spawnTs('scripts/start.ts', ['--fresh'], {
      cwd: root,
      env: {
        ...cleanEnvironment(),
        NODE_ENV: 'development',
        EMBEDDED_DB_DIR: path.join(dir, 'pglite'),
        AUTH_OUTBOX_DIR: path.join(dir, 'outbox'),
        ACTIONS_OUTBOX_DIR: path.join(dir, 'outbox'),
        LOG_LEVEL: 'warn',
        ...portVariables(PORTS),
        // What README "Deploy" has compose set: one origin, the services trusting the proxy.
        PUBLIC_SITE_URL: SITE,
        PUBLIC_GRAPHQL_URL: `${SITE}/v1/graphql`,
        PUBLIC_AUTH_URL: `${SITE}/auth`,
        // Compose trusts Caddy's one address. Here every client is on loopback too, so trusting
        // the whole range makes the auth service believe every address X-Forwarded-For names:
        // the rate-limit check below then sees exactly what Caddy sent, and fails if Caddy
        // passed on (appended to) a client's own X-Forwarded-For.
        AUTH_TRUST_PROXY: 'loopback',
        ENGINE_TRUST_PROXY: '127.0.0.1',
        // The web server reads the catalog from PUBLIC_GRAPHQL_URL; in production the site's
        // certificate is a public one, here Caddy's local CA signs it.
        NODE_EXTRA_CA_CERTS: path.join(dir, 'data/caddy/pki/authorities/local/root.crt'),
      },
    });
    await launcher.waitFor(/\] ready/, 240_000);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stopProcess(launcher?.child, 'SIGINT');
    await launcher?.exited;
    await stopProcess(caddy?.child, 'SIGTERM');
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('signs up, creates an order and follows it live, all through the one origin', async () => {
    const context = await browser!.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      const sockets: string[] = [];
      page.on('request', (sent) => requested.push(sent.url()));
      page.on('websocket', (socket) => sockets.push(socket.url()));
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });

      await page.goto(`${SITE}/create-transaction/btc-to-usdttrc20?side=send&amount=0.05`);
      await page
        .locator('html[data-hydrated="true"]')
        .waitFor({ state: 'attached', timeout: 45_000 })
        .catch((error: unknown) => {
          throw new Error(`not hydrated: ${String(error)}\npage errors: ${problems.join('\n')}`);
        });
      await expect
        .poll(() => page.getByLabel('You get').inputValue(), { timeout: 20_000 })
        .toMatch(/^\d+(\.\d+)?$/);
      // A new e-mail: the form signs the visitor up (quick-auth) on the way.
      await page.getByLabel('E-mail').fill(`proxy-${Date.now()}@example.com`);
      await page.getByLabel('Full name').fill('Vera Visitor');
      await page.getByLabel(/Wallet address/).fill(TRC20_ADDRESS);
      await page.getByLabel('Reason for the exchange').fill('Savings');
      await page.getByLabel(/exchange terms and rules/).check();
      await page.getByLabel(/AML\/CTF and KYC policies/).check();
      await page.getByRole('button', { name: 'Create the exchange' }).click();

      await page.waitForURL(/\/transaction\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      const id = page.url().split('/').pop()!;
      await page.getByText('Waiting for operator').waitFor({ timeout: 20_000 });
      // Marks this document: a reload would lose it.
      await page.evaluate(() => ((globalThis as unknown as { followed: boolean }).followed = true));

      await asManager(
        `mutation ($id: uuid!, $address: String!) {
           supplyRequisites(transactionId: $id, depositAddress: $address) { status }
         }`,
        { id, address: DEPOSIT_ADDRESS },
      );
      await page.getByText('Waiting for payment').waitFor({ timeout: 20_000 });
      await page.getByText(DEPOSIT_ADDRESS).waitFor();
      expect(
        await page.evaluate(() => (globalThis as unknown as { followed?: boolean }).followed),
      ).toBe(true);

      expect(sockets).toContain(`wss://localhost:${HTTPS_PORT}/v1/graphql`);
      // The sign-up went to the auth service through the proxy's /auth.
      expect(requested).toContain(`${SITE}/auth/quick-auth`);
      // Nothing the page asked for went anywhere but the one origin.
      const elsewhere = requested.filter(
        (url) => !url.startsWith(`${SITE}/`) && !url.startsWith('data:'),
      );
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('serves the mini-app from its build at /telegram-app, HTTPS only from then on', async () => {
    const answer = await request(`${SITE}/telegram-app`, { ca });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('/telegram-app/assets/');
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it("refreshes a session through /auth (the tokens' routes work behind the prefix)", async () => {
    const origin = { origin: SITE };
    const login = await request(`${SITE}/auth/login`, {
      ca,
      headers: { ...origin, 'x-request-id': 'chosen-by-the-client' },
      body: { email: 'admin@exchange.local', password: 'dev-only-admin-password' },
    });
    expect(login.status).toBe(200);
    // The id the service logged under is the proxy's, not the one the client sent.
    expect(login.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const tokens = JSON.parse(login.text) as { refreshToken: string; accessToken: string };
    const refreshed = await request(`${SITE}/auth/refresh_tokens`, {
      ca,
      headers: origin,
      body: { refreshToken: tokens.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const renewed = JSON.parse(refreshed.text) as { accessToken?: unknown };
    expect(typeof renewed.accessToken).toBe('string');
  });

  it.each([
    '/metrics',
    '/METRICS',
    '/metrics/',
    '//metrics',
    '/auth/metrics',
    '/auth/Metrics',
    '/v1/graphql/../metrics',
    '/v1/graphql/..%2fmetrics',
    '/telegram-app/../metrics',
    '/%6detrics',
    '/healthz',
    '/auth/healthz',
    '/v1/graphql/../HEALTHZ',
  ])('answers %s with 404 (no service exposes metrics or health through it)', async (raw) => {
    const answer = await request(SITE, { ca, path: raw });
    expect(answer.status).toBe(404);
    // Caddy's own empty answer: the request reached no service (the portal's 404 is a page).
    expect(answer.text).toBe('');
  });

  it("does not reach the actions service, nor the engine's other endpoints", async () => {
    // Reached directly, the actions service answers this call in JSON; through the proxy the
    // path is the portal's, which has no such page.
    const call = {
      headers: { 'x-actions-secret': ACTIONS_SECRET },
      body: { action: { name: 'quote' }, input: {}, session_variables: {} },
    };
    const direct = await request(`http://127.0.0.1:${PORTS.actions}/actions/quote`, call);
    expect(direct.headers['content-type']).toMatch(/^application\/json/);
    expect(portalRefusal(await request(`${SITE}/actions/quote`, { ca, ...call }))).toBe(true);

    for (const endpoint of ['/v1/metadata', '/v2/query', '/v1/version', '/console']) {
      const answer = await request(`${SITE}${endpoint}`, {
        ca,
        headers: { 'x-hasura-admin-secret': ADMIN_SECRET },
        body: { type: 'export_metadata', args: {} },
      });
      expect(
        portalRefusal(answer),
        `${endpoint}: ${answer.status} ${answer.text.slice(0, 80)}`,
      ).toBe(true);
    }
  });

  it('never lets the admin secret through: the request is a visitor', async () => {
    const query = { query: '{ portal_users(limit: 1) { email } }' };
    const direct = await request(ENGINE_DIRECT, {
      headers: { 'x-hasura-admin-secret': ADMIN_SECRET },
      body: query,
    });
    const directAnswer = JSON.parse(direct.text) as { data?: { portal_users?: unknown } };
    expect(Array.isArray(directAnswer.data?.portal_users)).toBe(true);
    const proxied = await request(`${SITE}/v1/graphql`, {
      ca,
      headers: { 'x-hasura-admin-secret': ADMIN_SECRET },
      body: query,
    });
    const answer = JSON.parse(proxied.text) as { data?: unknown; errors?: unknown[] };
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.length).toBeGreaterThan(0);
  });

  it("counts a client's attempts by the address Caddy saw, whatever X-Forwarded-For it sends", async () => {
    // The reset limit is 10 an hour per address. One client forging a new address each time
    // is still one client; another client is not held back by it.
    const reset = (from: string, n: number, forged: Record<string, string>) =>
      request(`${SITE}/auth/reset_password`, {
        ca,
        from,
        headers: forged,
        body: { email: `xff-${from}-${n}@example.com` },
      });
    const statuses: number[] = [];
    for (let n = 0; n < 12; n += 1) {
      const answer = await reset('127.0.0.31', n, {
        'x-forwarded-for': `203.0.113.${n + 1}`,
        'x-real-ip': `192.0.2.${n + 1}`,
        forwarded: `for=198.51.100.${n + 1}`,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429]);
    expect((await reset('127.0.0.32', 0, { 'x-forwarded-for': '127.0.0.31' })).status).toBe(200);
  });

  it("passes Telegram's updates to the bot, which checks their secret", async () => {
    const update = { update_id: 1 };
    const wrong = await request(`${SITE}/telegram/webhook`, {
      ca,
      headers: { 'x-telegram-bot-api-secret-token': 'not-the-secret' },
      body: update,
    });
    expect(wrong.status).toBe(401);
    const right = await request(`${SITE}/telegram/webhook`, {
      ca,
      headers: { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET },
      body: update,
    });
    expect(right.status).toBe(200);
    expect((await request(`${SITE}/telegram/webhook`, { ca })).status).toBe(404);
  });

  it('redirects plain HTTP to HTTPS', async () => {
    const answer = await request(`http://localhost:${HTTP_PORT}/telegram-app?start=1`);
    expect(answer.status).toBe(308);
    const location = new URL(String(answer.headers['location']));
    expect(location.protocol).toBe('https:');
    expect(location.hostname).toBe('localhost');
    expect(`${location.pathname}${location.search}`).toBe('/telegram-app?start=1');
  });
});

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cleanEnvironment, portVariables } from '../../support/launcher-env.ts';
import { spawnTs, type Spawned } from '../../support/processes.ts';

/*
 * An operator can watch the stack (issue 20): every service serves Prometheus metrics on its
 * own port, and one request id follows a request through the web, engine, actions and auth
 * logs the launcher prints. The stack starts as a user starts it (`npm start`, i.e.
 * scripts/start.ts --fresh) on ports 25110-25115, this file's.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));

const PORTS = {
  web: 25110,
  engine: 25111,
  auth: 25112,
  actions: 25113,
  bot: 25114,
  watchers: 25116,
  database: 25115,
};
const SERVICES = ['web', 'engine', 'auth', 'actions', 'bot'] as const;
type Service = (typeof SERVICES)[number];
const url = (service: Service, pathname: string) => `http://127.0.0.1:${PORTS[service]}${pathname}`;

let dataDir: string;
let launcher: Spawned;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'observability-'));
  launcher = spawnTs('scripts/start.ts', ['--fresh'], {
    cwd: root,
    env: {
      ...cleanEnvironment(),
      NODE_ENV: 'development',
      EMBEDDED_DB_DIR: path.join(dataDir, 'pglite'),
      ...portVariables(PORTS),
    },
  });
  await launcher.waitFor(/\] ready/, 540_000);
}, 600_000);

afterAll(async () => {
  if (launcher && launcher.child.exitCode === null && launcher.child.signalCode === null)
    launcher.child.kill('SIGINT');
  await launcher?.exited;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The JSON log lines the launcher printed for `service` (its output is `[name] {json}`). */
function logLines(service: Service): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  for (const line of launcher.output().split('\n')) {
    const match = /^\[(\w+)\] (\{.*\})\s*$/.exec(line);
    if (match?.[1] !== service) continue;
    try {
      lines.push(JSON.parse(match[2]!) as Record<string, unknown>);
    } catch {
      // Not a JSON line (a tool's own output).
    }
  }
  return lines;
}

/** Waits until `service` has logged lines with `reqId`, then returns them. */
async function linesWithId(service: Service, reqId: string, atLeast = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = logLines(service).filter((line) => line['reqId'] === reqId);
    if (lines.length >= atLeast || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function scrape(service: Service, headers: Record<string, string> = {}) {
  const response = await fetch(url(service, '/metrics'), { headers });
  return { status: response.status, text: await response.text(), type: response.headers };
}

/**
 * The sum of a metric's samples whose labels include `labels` (Prometheus text format); with
 * `absent`, what a counter that has no such sample yet counts.
 */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
  absent?: number,
): number {
  let sum = 0;
  let found = false;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = new Map<string, string>();
    for (const label of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      given.set(label[1]!, label[2]!);
    if (Object.entries(labels).every(([key, value]) => given.get(key) === value)) {
      sum += Number(match[3]);
      found = true;
    }
  }
  if (!found && absent !== undefined) return absent;
  if (!found) throw new Error(`no sample of ${name} ${JSON.stringify(labels)}`);
  return sum;
}

async function graphql(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url('engine', '/v1/graphql'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    id: response.headers.get('x-request-id'),
    body: (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] },
  };
}

async function signUp(): Promise<string> {
  const password = `Obs-${randomUUID()}`;
  const response = await fetch(url('auth', '/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `observer-${randomUUID().slice(0, 8)}@example.com`,
      password,
      confirmPassword: password,
    }),
  });
  const body = (await response.json()) as { accessToken?: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.accessToken!;
}

const CREATE_ORDER = `mutation CreateOrderForObservability($input: CreateExchangeInput!) {
  createExchange(input: $input) { id status }
}`;

const orderInput = (email: string) => ({
  from: 'BTC',
  to: 'USDTTRC20',
  side: 'send',
  amount: '0.015',
  email,
  fullName: 'Olga Observer',
  walletAddress: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
  reason: 'Savings',
  agreeTerms: true,
  agreeAml: true,
  idempotencyKey: randomUUID(),
});

describe('Prometheus metrics on every service', () => {
  it.each(SERVICES)('%s serves /metrics on its own port, open to this machine', async (service) => {
    const { status, text, type } = await scrape(service);
    expect(status).toBe(200);
    expect(type.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    // Node's process metrics and the HTTP counters, labelled with the service.
    expect(sample(text, 'process_cpu_user_seconds_total', { service })).toBeGreaterThan(0);
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it.each(SERVICES)('%s refuses /metrics to a request a proxy forwarded', async (service) => {
    const { status, text } = await scrape(service, { 'x-forwarded-for': '203.0.113.9' });
    expect(status).toBe(404);
    expect(text).not.toContain('process_cpu');
  });

  it('shows the database pools, the event and outbox backlogs', async () => {
    for (const service of ['engine', 'auth', 'actions', 'bot'] as const) {
      const { text } = await scrape(service);
      expect(sample(text, 'db_pool_connections'), service).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'db_pool_waiting_clients'), service).toBe(0);
    }
    expect(sample((await scrape('engine')).text, 'event_trigger_backlog')).toBeGreaterThanOrEqual(
      0,
    );
    expect(sample((await scrape('bot')).text, 'bot_outbox_backlog')).toBeGreaterThanOrEqual(0);
  });

  it('counts HTTP requests by route pattern, never by raw path', async () => {
    const before = await scrape('auth');
    const count = (text: string) =>
      sample(text, 'http_requests_total', { route: 'unmatched', status: '4xx' }, 0);
    const id = randomUUID();
    expect((await fetch(url('auth', `/no-such-route/${id}`))).status).toBe(404);
    const after = await scrape('auth');
    expect(count(after.text)).toBe(count(before.text) + 1);
    expect(after.text).not.toContain(id);
  });

  it("counts the engine's operations by type and outcome", async () => {
    const ok = () =>
      scrape('engine').then(({ text }) =>
        sample(text, 'graphql_operations_total', { type: 'query', outcome: 'ok' }, 0),
      );
    const before = await ok();
    const answer = await graphql('query Currencies { currencies { code } }', {});
    expect(answer.body.errors).toBeUndefined();
    expect(await ok()).toBe(before + 1);
    const failed = await graphql('query Broken { no_such_field }', {});
    expect(failed.body.errors).toBeDefined();
    const { text } = await scrape('engine');
    // Refused before its operation was known: its type is `unknown`.
    expect(
      sample(text, 'graphql_operations_total', { type: 'unknown', outcome: 'validation-failed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', { type: 'query' }),
    ).toBeGreaterThanOrEqual(before + 1);
  });

  it('tells the operator how many orders wait for payment details, and for how long', async () => {
    const queue = async () => {
      const { text } = await scrape('actions');
      return {
        waiting: sample(text, 'orders_waiting_for_operator'),
        oldest: sample(text, 'orders_waiting_for_operator_oldest_age_seconds'),
        late: sample(text, 'orders_requisites_late'),
      };
    };
    const before = await queue();
    const token = await signUp();
    const created = await graphql(
      CREATE_ORDER,
      { input: orderInput('observer@example.com') },
      { authorization: `Bearer ${token}` },
    );
    expect(created.body.errors, JSON.stringify(created.body)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const after = await queue();
    expect(after.waiting).toBe(before.waiting + 1);
    expect(after.oldest).toBeGreaterThanOrEqual(1);
    // Its payment details are due ten minutes after creation: not late yet.
    expect(after.late).toBe(before.late);
  });
});

describe('one request id through the services', () => {
  it('follows a portal request to the engine and the actions service, and a sign-in', async () => {
    const id = `obs-${randomUUID()}`;
    // The exchange-monitor feed: the portal's server asks the engine for `rateFeed`, an action
    // the engine runs on the actions service.
    const feed = await fetch(url('web', '/bestchange.xml'), { headers: { 'x-request-id': id } });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('x-request-id')).toBe(id);
    const login = await fetch(url('auth', '/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }),
    });
    expect(login.status).toBe(401);
    expect(login.headers.get('x-request-id')).toBe(id);

    const web = await linesWithId('web', id);
    expect(web).toContainEqual(
      expect.objectContaining({ msg: 'request', method: 'GET', status: 200 }),
    );
    const engine = await linesWithId('engine', id, 2);
    expect(engine).toContainEqual(
      expect.objectContaining({ msg: 'request', route: '/v1/graphql', status: 200 }),
    );
    expect(engine).toContainEqual(
      expect.objectContaining({ msg: 'graphql operation', operationType: 'query' }),
    );
    const actions = await linesWithId('actions', id);
    expect(actions).toContainEqual(
      expect.objectContaining({ msg: 'request', route: '/actions/:name', status: 200 }),
    );
    const auth = await linesWithId('auth', id);
    expect(auth).toContainEqual(
      expect.objectContaining({ route: '/login', status: 401, method: 'POST' }),
    );
  });

  it('follows an order from the engine to the actions service, one line per operation', async () => {
    const id = `order-${randomUUID()}`;
    const token = await signUp();
    const created = await graphql(
      CREATE_ORDER,
      { input: orderInput('observer@example.com') },
      { authorization: `Bearer ${token}`, 'x-request-id': id },
    );
    expect(created.body.errors, JSON.stringify(created.body)).toBeUndefined();
    expect(created.id).toBe(id);
    const engine = await linesWithId('engine', id, 2);
    const operation = engine.filter((line) => line['msg'] === 'graphql operation');
    expect(operation).toEqual([
      expect.objectContaining({
        operationName: 'CreateOrderForObservability',
        operationType: 'mutation',
        role: 'user',
        ms: expect.any(Number) as number,
      }),
    ]);
    // Never the variables, the query text or the token.
    const printed = JSON.stringify(engine);
    expect(printed).not.toContain('Olga Observer');
    expect(printed).not.toContain('createExchange(input');
    expect(printed).not.toContain(token);
    expect(await linesWithId('actions', id)).toContainEqual(
      expect.objectContaining({ route: '/actions/:name', status: 200 }),
    );
  });

  it('makes a new id for a request without one, or with one of an unsafe shape', async () => {
    const none = await graphql('query { currencies { code } }', {});
    expect(none.id).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await graphql(
      'query { currencies { code } }',
      {},
      {
        'x-request-id': 'a b"}{\u00e9',
      },
    );
    expect(unsafe.id).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(url('auth', '/healthz'), {
      headers: { 'x-request-id': 'x'.repeat(129) },
    });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

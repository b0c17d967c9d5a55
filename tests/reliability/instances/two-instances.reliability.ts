import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';

import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '@app/auth-service/password';

import { liveClient, type LiveClient } from '../../integration/actions/staff-live.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { signHs256, userClaims } from '../../support/jwt.ts';
import { CREATE, CURRENCIES, QUOTE, graphqlCall, orderInput } from '../faults/load.ts';
import { provision, startOwnDatabase, testPool } from '../faults/databases.ts';
import {
  delay,
  launcherEnvironment,
  listen,
  quietPort,
  scratchDir,
  startServiceProcess,
  type HttpServer,
  type ServiceProcess,
} from '../faults/services.ts';
import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

/*
 * Issue 11, "More than one instance": two engines, two actions services and two auth services
 * on one database (a PostgreSQL server of the check's own; PGlite without the binaries), each
 * engine calling its own actions service through a counting proxy and delivering the bot's
 * triggers to a counting receiver. Proven:
 *
 * - attempt limits are shared: failed logins spread over both auth services are refused at
 *   the same attempt as on one (auth.rate_limits);
 * - each event is delivered once across both engines (a claim with FOR UPDATE SKIP LOCKED and
 *   a lease on hdb_catalog.event_log): one delivery per event id, no receiver failing;
 * - a cron trigger fires once per scheduled time across both engines;
 * - a subscriber on either engine sees a change made through the other;
 * - requests through either actions service work.
 */

const ORDERS = byProfile({ short: 40, full: 200 });
const LOGIN_LIMIT = 10;

interface Delivery {
  via: string;
  path: string;
  id: string | undefined;
  name: string | undefined;
  scheduledTime: string | undefined;
}

/** Records every request, then forwards it to `target` (or answers 200 itself without one). */
async function countingServer(
  deliveries: Delivery[],
  via: string,
  target?: string,
): Promise<HttpServer> {
  const app = express();
  app.use(express.raw({ type: '*/*', limit: '2mb' }));
  app.use(async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      // Not JSON.
    }
    deliveries.push({
      via,
      path: req.path,
      id: typeof parsed['id'] === 'string' ? parsed['id'] : undefined,
      name: typeof parsed['name'] === 'string' ? parsed['name'] : undefined,
      scheduledTime:
        typeof parsed['scheduled_time'] === 'string' ? parsed['scheduled_time'] : undefined,
    });
    if (!target) {
      res.json({ ok: true });
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name))
        headers[name] = value;
    }
    try {
      const response = await fetch(`${target}${req.originalUrl}`, {
        method: req.method,
        headers,
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      });
      res
        .status(response.status)
        .type(response.headers.get('content-type') ?? 'application/json')
        .send(await response.text());
    } catch {
      res.status(502).json({ message: 'proxy: target unreachable' });
    }
  });
  return listen(app);
}

describe('two instances of each service on one database', () => {
  let database: Awaited<ReturnType<typeof startOwnDatabase>>;
  let scratch: string;
  let mailbox: Mailbox;
  const deliveries: Delivery[] = [];
  const servers: HttpServer[] = [];
  const services: ServiceProcess[] = [];
  let engines: ServiceProcess[];
  let auths: ServiceProcess[];
  let startedAt: number;
  /** Measured below: events and cron occurrences delivered more than once. */
  const figures = { duplicate_actions: 0 };
  const details: Record<string, unknown> = {};

  beforeAll(async () => {
    database = await startOwnDatabase();
    await provision(database.url);
    scratch = await scratchDir();
    mailbox = await startMailbox();
    const receiver = await countingServer(deliveries, 'bot');
    servers.push(receiver);
    const env = launcherEnvironment({
      databaseUrl: database.url,
      actionsUrl: 'http://127.0.0.1:9',
      botEventsUrl: `${receiver.url}/events`,
      smtpUrl: mailbox.url,
      scratchDir: scratch,
    });
    const [actionsA, actionsB, authA, authB] = await Promise.all([
      startServiceProcess('actions', env),
      startServiceProcess('actions', env),
      startServiceProcess('auth', env),
      startServiceProcess('auth', env),
    ]);
    services.push(actionsA, actionsB, authA, authB);
    auths = [authA, authB];
    const proxies = await Promise.all([
      countingServer(deliveries, 'A', actionsA.url),
      countingServer(deliveries, 'B', actionsB.url),
    ]);
    servers.push(...proxies);
    engines = await Promise.all(
      (['A', 'B'] as const).map(async (name, index) =>
        startServiceProcess(
          'engine',
          {
            ...env,
            ACTIONS_BASE_URL: proxies[index]!.url,
            BOT_EVENTS_URL: `${receiver.url}/${name}/events`,
          },
          await quietPort(),
        ),
      ),
    );
    services.push(...engines);
    startedAt = Date.now();
  });

  afterAll(async () => {
    recordFigures({ check: 'instances/two-instances', figures, details });
    const logs = process.env['RELIABILITY_LOGS'];
    if (logs) {
      const { appendFile, mkdir } = await import('node:fs/promises');
      await mkdir(logs, { recursive: true });
      for (const service of services)
        await appendFile(`${logs}/${service.name}-${service.port}.log`, service.output());
    }
    await Promise.all(services.map((service) => service.stop('SIGTERM')));
    for (const server of servers) await server.close();
    await mailbox?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    await database?.dispose();
  });

  it('shares attempt limits: failed logins over both auth services stop at the same total', async () => {
    const pool = testPool(database.url, 1);
    const passwordHash = await hashPassword('the-right-password-123');
    const emails = [
      `limits-one-${randomUUID()}@example.com`,
      `limits-two-${randomUUID()}@example.com`,
    ];
    for (const email of emails) {
      await pool.query(
        `INSERT INTO public.portal_users (email, password_hash, is_verified_email) VALUES ($1, $2, true)`,
        [email, passwordHash],
      );
    }
    await pool.end();
    /** Wrong passwords until refused; returns the attempt that was refused (429). */
    const refusedAt = async (email: string, pick: (attempt: number) => ServiceProcess) => {
      for (let attempt = 1; attempt <= LOGIN_LIMIT + 5; attempt++) {
        const response = await fetch(`${pick(attempt).url}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'a-wrong-password-123' }),
        });
        if (response.status === 429) return attempt;
        expect(response.status).toBe(401);
      }
      return undefined;
    };
    const oneInstance = await refusedAt(emails[0]!, () => auths[0]!);
    const twoInstances = await refusedAt(emails[1]!, (attempt) => auths[attempt % 2]!);
    details['loginRefusedAt'] = { oneInstance, twoInstances };
    expect(oneInstance).toBe(LOGIN_LIMIT + 1);
    expect(twoInstances).toBe(oneInstance);
  });

  it('serves requests through either actions service; a subscriber on either engine sees the other', async () => {
    const userId = randomUUID();
    const email = `instances-${randomUUID().slice(0, 8)}@example.com`;
    const pool = testPool(database.url, 1);
    // Confirmed: an unconfirmed account has few orders (decision 016).
    await pool.query(
      'INSERT INTO public.portal_users (id, email, is_verified_email) VALUES ($1, $2, true)',
      [userId, email],
    );
    await pool.end();
    const token = signHs256(userClaims(userId));
    const live: LiveClient[] = engines.map((engine) =>
      liveClient(engine.url, { userId, role: 'user' }),
    );
    try {
      const query = `subscription { transactions(order_by: { number: desc }, limit: 5) { id status } }`;
      const watches = live.map((client) =>
        client.subscribe<{ transactions: Array<{ id: string; status: string }> }>(query),
      );
      for (const watch of watches) expect('data' in (await watch.first)).toBe(true);

      for (const [index, engine] of engines.entries()) {
        // Through this engine (and its actions service): a quote, a read, an order.
        for (const [query, variables] of [
          [QUOTE, { input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.015' } }],
          [CURRENCIES, {}],
        ] as const) {
          const verdict = await graphqlCall(engine.url, query, variables);
          expect(verdict.kind, JSON.stringify(verdict)).toBe('ok');
        }
        const created = await graphqlCall(
          engine.url,
          CREATE,
          { input: orderInput(email, `instances-${randomUUID()}`) },
          token,
        );
        if (created.kind !== 'ok') throw new Error(`createExchange: ${JSON.stringify(created)}`);
        const id = (created.body as { createExchange: { id: string } }).createExchange.id;
        // The subscriber on the other engine sees the new order.
        const other = watches[1 - index]!;
        await other.next((value) => value.transactions.some((order) => order.id === id), 15_000);
        // And a change through the other engine reaches this one's subscriber.
        const canceled = await graphqlCall(
          engines[1 - index]!.url,
          `mutation ($id: uuid!) { cancelExchange(transactionId: $id) { status } }`,
          { id },
          token,
        );
        expect(canceled.kind, JSON.stringify(canceled)).toBe('ok');
        await watches[index]!.next(
          (value) =>
            value.transactions.some((order) => order.id === id && order.status === 'canceled'),
          15_000,
        );
      }
      const actionCalls = ['A', 'B'].map(
        (via) =>
          deliveries.filter(
            (delivery) => delivery.via === via && delivery.path.startsWith('/actions/'),
          ).length,
      );
      details['actionCallsPerInstance'] = actionCalls;
      expect(actionCalls.every((count) => count > 0)).toBe(true);
    } finally {
      await Promise.all(live.map((client) => client.close()));
    }
  });

  it('delivers each event once across both engines', async () => {
    const users = Array.from({ length: 4 }, () => ({
      id: randomUUID(),
      email: `events-${randomUUID().slice(0, 8)}@example.com`,
    }));
    const pool = testPool(database.url, 2);
    try {
      for (const user of users)
        // Confirmed: an unconfirmed account has few orders (decision 016).
        await pool.query(
          'INSERT INTO public.portal_users (id, email, is_verified_email) VALUES ($1, $2, true)',
          [user.id, user.email],
        );
      const orderIds: string[] = [];
      const work = Array.from({ length: ORDERS }, (_, index) => index);
      await Promise.all(
        users.map(async (user, worker) => {
          for (let index = work.shift(); index !== undefined; index = work.shift()) {
            const created = await graphqlCall(
              engines[(index + worker) % 2]!.url,
              CREATE,
              { input: orderInput(user.email, `events-${randomUUID()}`) },
              signHs256(userClaims(user.id)),
            );
            if (created.kind !== 'ok') throw new Error(JSON.stringify(created));
            orderIds.push((created.body as { createExchange: { id: string } }).createExchange.id);
          }
        }),
      );
      // Every new-order event (bot and e-mail) delivered, as the log says.
      const deadline = Date.now() + 60_000;
      let events: Array<{ id: string; trigger_name: string; delivered: boolean; tries: number }> =
        [];
      for (;;) {
        ({ rows: events } = await pool.query(
          `SELECT id::text, trigger_name, delivered, tries FROM hdb_catalog.event_log
            WHERE trigger_name IN ('order_created_bot', 'order_created_email')
              AND payload->'data'->'new'->>'id' = ANY($1)`,
          [orderIds],
        ));
        if (
          (events.length === orderIds.length * 2 && events.every((event) => event.delivered)) ||
          Date.now() > deadline
        )
          break;
        await delay(250);
      }
      const ids = new Set(events.map((event) => event.id));
      const perEvent = new Map<string, { count: number; via: Set<string> }>();
      for (const delivery of deliveries) {
        if (!delivery.id || !ids.has(delivery.id)) continue;
        const entry = perEvent.get(delivery.id) ?? { count: 0, via: new Set<string>() };
        entry.count += 1;
        entry.via.add(delivery.path.startsWith('/A/') || delivery.via === 'A' ? 'A' : 'B');
        perEvent.set(delivery.id, entry);
      }
      const twice = [...perEvent.values()].filter((entry) => entry.count > 1).length;
      const never = [...ids].filter((id) => !perEvent.has(id)).length;
      const retried = events.filter((event) => event.tries !== 1).length;
      const byEngine = { A: 0, B: 0 };
      for (const entry of perEvent.values())
        for (const via of entry.via) byEngine[via as 'A' | 'B'] += 1;
      details['events'] = {
        orders: orderIds.length,
        events: events.length,
        deliveredTwice: twice,
        neverDelivered: never,
        retried,
        byEngine,
      };
      figures.duplicate_actions += twice;
      expect(events.length).toBe(orderIds.length * 2);
      expect(retried).toBe(0);
      expect(never).toBe(0);
      expect(twice).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('fires each cron trigger once per scheduled time across both engines', async () => {
    // At least one whole minute with both engines up: wait for the first occurrence after
    // they started, and its delivery.
    const firstFull = Math.ceil((startedAt + 1_000) / 60_000) * 60_000;
    const waitUntil = firstFull + 15_000;
    if (Date.now() < waitUntil) await delay(waitUntil - Date.now());
    const cron = deliveries.filter((delivery) => delivery.path.startsWith('/cron/'));
    const perOccurrence = new Map<string, number>();
    for (const delivery of cron) {
      const key = `${delivery.name} ${delivery.scheduledTime}`;
      perOccurrence.set(key, (perOccurrence.get(key) ?? 0) + 1);
    }
    const due = [...perOccurrence.keys()].filter(
      (key) => Date.parse(key.split(' ')[1]!) >= firstFull,
    );
    const twice = [...perOccurrence.values()].filter((count) => count > 1).length;
    details['cron'] = {
      occurrences: Object.fromEntries(perOccurrence),
      byEngine: {
        A: cron.filter((d) => d.via === 'A').length,
        B: cron.filter((d) => d.via === 'B').length,
      },
    };
    figures.duplicate_actions += twice;
    expect(due.map((key) => key.split(' ')[0]).sort()).toEqual(
      expect.arrayContaining(['order_deadlines', 'refresh_rates']),
    );
    expect(twice, JSON.stringify(details['cron'])).toBe(0);
  });
});

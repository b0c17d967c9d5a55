import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import type pg from 'pg';

import { createPool } from '@app/engine/database';

import { provisionDatabase } from '../../../scripts/launcher/database.ts';
import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import type { Spawned } from '../../support/processes.ts';

import { serveLocally } from './local-server.ts';
import { quietPort } from './ports.ts';
import { serviceEnvironment } from './service-environment.ts';
import { launchService, spawnUntilReady, stopProcess } from './service-process.ts';

export { quietPort };

/*
 * The product as separate processes, for the reliability checks (issue 11): the GraphQL
 * engine, the actions service and the auth service, each its own `node --import tsx` child
 * started as the launcher (scripts/start.ts) starts it and with the environment the launcher
 * gives it, on ports of their own, against a fresh database that is migrated and seeded (and
 * has the admin account) exactly as `npm start` / `npm run db:provision` leaves it.
 *
 * Usage:
 *
 *   const stack = await startStack();               // beforeAll (takes ~10-30 s)
 *   const users = await signUpUsers(stack, 20);      // tokens through POST /register
 *   await fetch(stack.urls.graphql, ...);            // or stack.urls.auth, stack.urls.actions
 *   await rssBytes(stack.services.engine.pid!);      // a service's resident memory
 *   await stack.restart('engine');                   // fault injection: new process, same port
 *   await stack.stop();                              // afterAll: services, database, temp files
 *
 * Differences from `npm start`, all deliberate:
 * - the database is a new one: on the PostgreSQL server when it answers (TEST_POSTGRES_URL,
 *   default postgres://postgres@127.0.0.1:5432/test; a uniquely named database, dropped by
 *   stop()), else embedded PGlite in a child process of its own (in memory);
 * - AUTH_RATE_LIMIT_FACTOR=1000000 (every sign-up comes from one address), and
 *   AUTH_ACCESS_TOKEN_TTL=3600 (the longest allowed: an access token outlives a full run);
 * - QUOTE_MAX_RATE_AGE_SECONDS is ten years, so the seeded offline rates quote;
 * - the bot is not started: its event triggers go to a sink here that answers 200;
 * - mail goes to .eml files in a temporary outbox (removed by stop());
 * - the environment is built from scratch (PATH, HOME and the launcher's variables), so a
 *   developer's DATABASE_URL or HASURA_GRAPHQL_* cannot leak into the services
 *   (./service-environment.ts);
 * - ports are picked below Linux's ephemeral range (./ports.ts).
 */

/** The services a stack runs (the web portal and the bot are not needed by these checks). */
export const STACK_SERVICES = ['engine', 'actions', 'auth'] as const;
export type ServiceName = (typeof STACK_SERVICES)[number];

/** The development admin secret the launcher's engine uses (`x-hasura-admin-secret`). */
export const ADMIN_SECRET = 'dev-only-hasura-admin-secret';
/** The development ACTIONS_SECRET the launcher shares between the engine and the actions. */
export const ACTIONS_SECRET = 'dev-only-actions-secret';
/** Ten years: the seeded offline rates snapshot counts as fresh. */
export const TEN_YEARS_SECONDS = 315_360_000;

export interface StackOptions {
  /** Where the database runs: `auto` (default) is the server when it answers, else PGlite. */
  database?: 'auto' | 'postgres' | 'pglite';
  /** More (or overriding) environment for every service, or per service. */
  env?: Partial<Record<ServiceName | 'all', Record<string, string>>>;
}

/** One running service. `pid` and `output` follow restarts. */
export interface StackService {
  readonly name: ServiceName;
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * The service's own node process (spawned as `node --import tsx <entry>`, so tsx runs inside
   * it and there is no wrapper process); undefined while the service is stopped.
   */
  readonly pid: number | undefined;
  /** What the current process printed so far (stdout and stderr). */
  output(): string;
}

export interface Stack {
  urls: {
    /** POST GraphQL here (`/v1/graphql` of the engine). */
    graphql: string;
    engine: string;
    auth: string;
    actions: string;
  };
  services: Record<ServiceName, StackService>;
  database: {
    kind: 'postgres' | 'pglite';
    url: string;
    /** The PGlite child's pid; undefined on the server. */
    pid: number | undefined;
  };
  /** A small pool on the stack's database (setup, checks); ended by stop(). */
  pool: pg.Pool;
  /** Bot event-trigger deliveries the sink has answered so far. */
  botEventsReceived(): number;
  /** Stops one service (SIGTERM, SIGKILL after 5 s; or the given signal, without grace). */
  stopService(name: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped service again on its port and waits for its health check. */
  startService(name: ServiceName): Promise<void>;
  /** stopService then startService. */
  restart(name: ServiceName): Promise<void>;
  /** Stops everything and removes the database and the temporary files. Idempotent. */
  stop(): Promise<void>;
}

interface StackDatabase {
  kind: 'postgres' | 'pglite';
  url: string;
  pid: number | undefined;
  dispose(): Promise<void>;
}

async function openDatabase(choice: 'auto' | 'postgres' | 'pglite'): Promise<StackDatabase> {
  const server = databaseTargets.find((target) => target.name === 'postgres');
  if (choice === 'postgres' && !server) throw new Error('the PostgreSQL server does not answer');
  if (server && choice !== 'pglite') {
    // Its pool stays unused (pg connects lazily); the stack keeps a pool of its own.
    const db: TestDatabase = await server.create();
    return { kind: 'postgres', url: db.url, pid: undefined, dispose: () => db.dispose() };
  }
  const { spawned: child, url } = await spawnUntilReady(
    new URL('./pglite-process.ts', import.meta.url),
    /pglite ready (\S+)/,
  );
  return {
    kind: 'pglite',
    url,
    pid: child.child.pid,
    async dispose() {
      await stopProcess(child, 'SIGTERM', 10_000);
    },
  };
}

/** Answers every POST with 200 (the bot's /events), counting them. */
async function startSink(): Promise<{ url: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const server = await serveLocally((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { url: `${server.url}/events`, received: () => received, close: () => server.close() };
}

/**
 * Starts a fresh database and the engine, actions and auth services on it (see the header).
 * On failure everything started so far is stopped again.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  };
  try {
    const scratch = await mkdtemp(path.join(tmpdir(), 'reliability-stack-'));
    cleanups.push(() => rm(scratch, { recursive: true, force: true }));
    const database = await openDatabase(options.database ?? 'auto');
    cleanups.push(() => database.dispose());
    await provisionDatabase(database.url, {
      email: 'admin@exchange.local',
      password: 'dev-only-admin-password',
    });
    const pool = createPool(database.url, 4);
    cleanups.push(() => pool.end());
    const sink = await startSink();
    cleanups.push(() => sink.close());

    const ports = {} as Record<ServiceName, number>;
    for (const name of STACK_SERVICES) ports[name] = await quietPort();
    const url = (name: ServiceName) => `http://127.0.0.1:${ports[name]}`;

    // The launcher's environment, with the stack's ports and the differences in the header.
    const shared: Record<string, string> = {
      ...serviceEnvironment({
        databaseUrl: database.url,
        actionsUrl: url('actions'),
        actionsSecret: ACTIONS_SECRET,
        botEventsUrl: sink.url,
        botEventsSecret: 'dev-only-bot-events-secret',
        publicGraphqlUrl: `${url('engine')}/v1/graphql`,
        publicAuthUrl: url('auth'),
        publicWebUrl: 'http://localhost:3000',
      }),
      HASURA_GRAPHQL_ADMIN_SECRET: ADMIN_SECRET,
      AUTH_RATE_LIMIT_FACTOR: '1000000',
      AUTH_ACCESS_TOKEN_TTL: '3600',
      QUOTE_MAX_RATE_AGE_SECONDS: String(TEN_YEARS_SECONDS),
      AUTH_OUTBOX_DIR: path.join(scratch, 'outbox'),
      ACTIONS_OUTBOX_DIR: path.join(scratch, 'outbox'),
      ...options.env?.all,
    };

    const running = {} as Record<ServiceName, Spawned | undefined>;
    const start = async (name: ServiceName) => {
      await launchService(name, ports[name], { ...shared, ...options.env?.[name] }, (spawned) => {
        running[name] = spawned;
      });
    };
    const stopService = async (name: ServiceName, signal?: NodeJS.Signals) => {
      const spawned = running[name];
      if (!spawned) return;
      await stopProcess(spawned, signal ?? 'SIGTERM', signal ? 10_000 : 5_000);
      running[name] = undefined;
    };
    cleanups.push(() => Promise.all(STACK_SERVICES.map((name) => stopService(name))));

    // The actions first (the engine calls it), then the engine and auth side by side.
    await start('actions');
    await Promise.all([start('engine'), start('auth')]);

    const services = Object.fromEntries(
      STACK_SERVICES.map((name) => [
        name,
        {
          name,
          port: ports[name],
          url: url(name),
          get pid() {
            const child = running[name]?.child;
            return child && child.exitCode === null && child.signalCode === null
              ? child.pid
              : undefined;
          },
          output: () => running[name]?.output() ?? '',
        } satisfies StackService,
      ]),
    ) as Record<ServiceName, StackService>;

    let stopped: Promise<void> | undefined;
    return {
      urls: {
        graphql: `${url('engine')}/v1/graphql`,
        engine: url('engine'),
        auth: url('auth'),
        actions: url('actions'),
      },
      services,
      database: { kind: database.kind, url: database.url, pid: database.pid },
      pool,
      botEventsReceived: () => sink.received(),
      stopService,
      async startService(name) {
        if (running[name]) throw new Error(`${name} is running`);
        await start(name);
      },
      async restart(name) {
        await stopService(name);
        await start(name);
      },
      stop: () => (stopped ??= cleanUp()),
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** A user signed up through the auth service, with the tokens of that first sign-in. */
export interface SignedUpUser {
  id: string;
  email: string;
  /** Null for a quick-auth account (it has none). */
  password: string | null;
  accessToken: string;
  /** The first refresh token of the sign-in; each use rotates it (never present it twice). */
  refreshToken: string;
}

/** The `sub` claim (the user id) of an access token. */
export function tokenSubject(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as {
    sub?: unknown;
  };
  if (typeof payload.sub !== 'string') throw new Error('the access token has no sub');
  return payload.sub;
}

/**
 * Signs up `count` users through the auth service (e-mail `<prefix>-<n>-<random>@example.com`)
 * a few at a time, and returns their tokens: by default with POST /register and a password
 * (an argon2id hash each, some 20 ms of CPU), then confirms each address (in the database, as
 * following the mailed code does: an unconfirmed account may have only a few orders, decision
 * 016) and signs in again, since confirming ends the sign-up's session; with `via: 'quick-auth'`
 * through POST /quick-auth (the order form's sign-up: an unconfirmed account without a password,
 * and no hash), for when many sessions are needed cheaply.
 */
export async function signUpUsers(
  stack: Pick<Stack, 'urls' | 'pool'>,
  count: number,
  options: { prefix?: string; concurrency?: number; via?: 'register' | 'quick-auth' } = {},
): Promise<SignedUpUser[]> {
  const prefix = options.prefix ?? 'load';
  const via = options.via ?? 'register';
  const run = randomBytes(3).toString('hex');
  const users: SignedUpUser[] = new Array<SignedUpUser>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const email = `${prefix}-${index}-${run}@example.com`;
      const password = via === 'register' ? `Load-test-password-${run}-${index}` : null;
      let response = await fetch(`${stack.urls.auth}/${via}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(password === null ? { email } : { email, password }),
      });
      if (response.ok && password !== null) {
        await stack.pool.query(
          'UPDATE public.portal_users SET is_verified_email = true WHERE email = $1',
          [email],
        );
        response = await fetch(`${stack.urls.auth}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
      }
      const body = (await response.json()) as { accessToken?: string; refreshToken?: string };
      if (!response.ok || !body.accessToken || !body.refreshToken) {
        throw new Error(`sign-up of ${email} failed: ${response.status} ${JSON.stringify(body)}`);
      }
      users[index] = {
        id: tokenSubject(body.accessToken),
        email,
        password,
        accessToken: body.accessToken,
        refreshToken: body.refreshToken,
      };
    }
  };
  const concurrency = options.concurrency ?? (via === 'register' ? 4 : 8);
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return users;
}

/**
 * A process's resident set size in bytes: VmRSS from /proc/<pid>/status on Linux, else
 * `ps -o rss=`. Sample the pids of `stack.services` (the services' own node processes).
 */
export async function rssBytes(pid: number): Promise<number> {
  if (process.platform === 'linux') {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    if (!match) throw new Error(`no VmRSS for process ${pid}`);
    return Number(match[1]) * 1024;
  }
  const { stdout } = await promisify(execFile)('ps', ['-o', 'rss=', '-p', String(pid)]);
  return Number(stdout.trim()) * 1024;
}

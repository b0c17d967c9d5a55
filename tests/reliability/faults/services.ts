import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import express from 'express';

import { BotApiEmulator } from '@app/bot/sandbox/emulator';

import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import type { Spawned } from '../../support/processes.ts';
import { serveLocally, type LocalServer } from '../support/local-server.ts';
import { quietPort } from '../support/ports.ts';
import { serviceEnvironment } from '../support/service-environment.ts';
import { hasExited, launchService, stopProcess } from '../support/service-process.ts';

export { quietPort, serveLocally as listen, type LocalServer as HttpServer };

/*
 * What the fault and instance checks run: the product's services (the bot too) as child
 * processes with the launcher's environment (scripts/start.ts), each on a port of its own, on
 * a database of their own (./databases.ts).
 *
 * Why not tests/reliability/support/stack.ts (the suite's shared starter, which appeared while
 * these were written): these checks restart and kill the database itself (its server is shared
 * or its PGlite in memory there), run the bot against a Bot API emulator, put slow or counting
 * proxies between the engine and its receivers, and run two of each service. What is the same
 * comes from the modules stack.ts is built on, which probe nothing at import (stack.ts itself
 * would probe the shared server): the port picker (../support/ports.ts), the launcher's
 * environment built from scratch (../support/service-environment.ts), and a service spawned,
 * waited for and stopped (../support/service-process.ts).
 *
 * RELIABILITY_LOGS=<folder> keeps every service's output there (one file per process).
 */

export const ACTIONS_SECRET = 'reliability-actions-secret-0123456789';
export const BOT_EVENTS_SECRET = 'reliability-bot-events-secret-0123456789';
export const BOT_TOKEN = '7000000002:AAreliability-bot-token-for-fault-checks';
export const STAFF_CHAT = -1009876543210;
export const ADMIN = { email: 'admin@reliability.test', password: 'reliability-admin-password' };
export const PUBLIC_WEB_URL = 'https://exchange.reliability.test';

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The product's services as child processes.

export type ServiceName = 'engine' | 'actions' | 'auth' | 'bot';

export interface ServiceProcess {
  name: ServiceName;
  port: number;
  url: string;
  /** The running (or last) process. */
  process(): Spawned;
  /** Everything every process of this service printed, for failure messages. */
  output(): string;
  /** Whether the process ended without being asked to (a crash). */
  crashed(): boolean;
  /** Starts it (again) on the same port; resolves when it answers its health check. */
  start(): Promise<void>;
  /** Sends `signal` and waits for the process to end (SIGKILL after 10 s). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StackEnvironment {
  databaseUrl: string;
  /** Where the engine reaches the actions service (ACTIONS_BASE_URL). */
  actionsUrl: string;
  /** Where the engine delivers the bot's triggers (BOT_EVENTS_URL). */
  botEventsUrl: string;
  /** The actions service's SMTP server (its event-trigger mails). */
  smtpUrl: string;
  /** Folder for the services' outboxes (none should be written with SMTP set). */
  scratchDir: string;
  /** The Bot API the bot talks to (TELEGRAM_API_ROOT). */
  telegramApiRoot?: string;
  /**
   * Staff chats for new orders (TELEGRAM_STAFF_CHAT_IDS). Default none: Telegram lets a bot
   * post 20 messages a minute in a group, far below the load these checks make.
   */
  staffChat?: boolean;
}

/** The environment the launcher gives every service (scripts/start.ts), for this stack. */
export function launcherEnvironment(stack: StackEnvironment): NodeJS.ProcessEnv {
  return {
    ...serviceEnvironment({
      databaseUrl: stack.databaseUrl,
      actionsUrl: stack.actionsUrl,
      actionsSecret: ACTIONS_SECRET,
      botEventsUrl: stack.botEventsUrl,
      botEventsSecret: BOT_EVENTS_SECRET,
      // The launcher's defaults: no browser is pointed at these services.
      publicGraphqlUrl: 'http://localhost:8080/v1/graphql',
      publicAuthUrl: 'http://localhost:4000',
      publicWebUrl: PUBLIC_WEB_URL,
    }),
    SMTP_URL: stack.smtpUrl,
    ACTIONS_OUTBOX_DIR: path.join(stack.scratchDir, 'actions-outbox'),
    AUTH_OUTBOX_DIR: path.join(stack.scratchDir, 'auth-outbox'),
    // Connections: every service of two stacks fits the test server's max_connections.
    HASURA_GRAPHQL_PG_CONNECTIONS: '10',
    ACTIONS_DB_POOL_SIZE: '8',
    AUTH_DB_POOL_SIZE: '8',
    BOT_DB_POOL_SIZE: '4',
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    ...(stack.telegramApiRoot ? { TELEGRAM_API_ROOT: stack.telegramApiRoot } : {}),
    BOT_UPDATES: 'polling',
    ...(stack.staffChat ? { TELEGRAM_STAFF_CHAT_IDS: String(STAFF_CHAT) } : {}),
  };
}

export async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reliability-stack-'));
  await mkdir(path.join(dir, 'actions-outbox'), { recursive: true });
  await mkdir(path.join(dir, 'auth-outbox'), { recursive: true });
  return dir;
}

/** A service of the product as the launcher runs it, on a port of its own. */
export async function startServiceProcess(
  name: ServiceName,
  env: NodeJS.ProcessEnv,
  port?: number,
): Promise<ServiceProcess> {
  const boundPort = port ?? (await quietPort());
  const outputs: string[] = [];
  let current: Spawned | undefined;
  let expectedExit = false;
  const service: ServiceProcess = {
    name,
    port: boundPort,
    url: `http://127.0.0.1:${boundPort}`,
    process: () => current!,
    output: () => [...outputs, current?.output() ?? ''].join('\n--- restarted ---\n'),
    crashed: () => !expectedExit && current !== undefined && hasExited(current),
    async start() {
      if (current) outputs.push(current.output());
      expectedExit = false;
      await launchService(name, boundPort, env, (spawned) => {
        current = spawned;
      });
    },
    async stop(signal = 'SIGTERM') {
      const spawned = current;
      if (!spawned || hasExited(spawned)) return;
      expectedExit = true;
      await stopProcess(spawned, signal, 10_000);
    },
  };
  await service.start();
  return service;
}

// ---------------------------------------------------------------------------------------------
// Receivers in the test process.

/** The Telegram Bot API the bot child process talks to (its TELEGRAM_API_ROOT). */
export async function startTelegram(): Promise<{ emulator: BotApiEmulator } & LocalServer> {
  const emulator = new BotApiEmulator(
    BOT_TOKEN,
    {
      id: Number(BOT_TOKEN.split(':')[0]),
      first_name: 'Exchange (reliability)',
      username: 'exchange_reliability_bot',
    },
    // The customers are made in the database, as people who started the bot long ago.
    { everyoneStartedBot: true },
  );
  emulator.addChat({ id: STAFF_CHAT, type: 'group', title: 'Staff' });
  const server = await serveLocally(express().use(emulator.router()));
  return { emulator, ...server };
}

/**
 * The bot's messages about orders, counted per order and kind of message (the first line, e.g.
 * `New order №12: ...` or `Order №12: canceled.`): the order id rides in the message's button
 * (the console link's `order=<id>`, the mini-app's `startapp=order_<id>`).
 */
export function orderMessages(emulator: BotApiEmulator): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of emulator.allMessages()) {
    if (!message.from.is_bot) continue;
    const match = /order(?:=|_)([0-9a-f-]{36})/.exec(JSON.stringify(message.reply_markup ?? null));
    if (!match) continue;
    const key = `${match[1]!} ${message.text.split('\n')[0]!}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

// ---------------------------------------------------------------------------------------------
// The whole stack on one database.

export interface Stack {
  engine: ServiceProcess;
  actions: ServiceProcess;
  auth: ServiceProcess;
  bot: ServiceProcess | undefined;
  services: ServiceProcess[];
  mailbox: Mailbox;
  telegram: Awaited<ReturnType<typeof startTelegram>>;
  env: NodeJS.ProcessEnv;
  /** The environment the engine runs with (its event targets may differ from the others'). */
  engineEnv: NodeJS.ProcessEnv;
  /** Output of every service, for a failure message. */
  outputs(): string;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Start the bot service (with the Telegram emulator as its Bot API). Default true. */
  bot?: boolean;
  /**
   * The engine's event targets, given the actions service's and the bot's addresses: e.g. a
   * slow proxy in front of them. Default: straight to them.
   */
  engineTargets?: (targets: { actionsUrl: string; botEventsUrl: string }) => Promise<{
    actionsUrl: string;
    botEventsUrl: string;
  }>;
}

/** actions, auth, the bot, then the engine (which delivers to them), on `databaseUrl`. */
export async function startStack(databaseUrl: string, options: StackOptions = {}): Promise<Stack> {
  const scratch = await scratchDir();
  const mailbox = await startMailbox();
  const telegram = await startTelegram();
  const [actionsPort, botPort] = [await quietPort(), await quietPort()];
  const targets = {
    actionsUrl: `http://127.0.0.1:${actionsPort}`,
    botEventsUrl: `http://127.0.0.1:${botPort}/events`,
  };
  const env = launcherEnvironment({
    databaseUrl,
    ...targets,
    smtpUrl: mailbox.url,
    scratchDir: scratch,
    telegramApiRoot: telegram.url,
  });
  const started: ServiceProcess[] = [];
  const close = async () => {
    await Promise.all(started.map((service) => service.stop('SIGTERM')));
    const logs = process.env['RELIABILITY_LOGS'];
    if (logs) {
      await mkdir(logs, { recursive: true });
      for (const service of started)
        await appendFile(path.join(logs, `${service.name}-${service.port}.log`), service.output());
    }
    await mailbox.close();
    await telegram.close();
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    const actions = await startServiceProcess('actions', env, actionsPort);
    started.push(actions);
    const auth = await startServiceProcess('auth', env);
    started.push(auth);
    let bot: ServiceProcess | undefined;
    if (options.bot ?? true) {
      bot = await startServiceProcess('bot', env, botPort);
      started.push(bot);
    }
    const engineTargets = (await options.engineTargets?.(targets)) ?? targets;
    const engineEnv = {
      ...env,
      ACTIONS_BASE_URL: engineTargets.actionsUrl,
      BOT_EVENTS_URL: engineTargets.botEventsUrl,
    };
    const engine = await startServiceProcess('engine', engineEnv);
    started.push(engine);
    return {
      engine,
      actions,
      auth,
      bot,
      services: started,
      mailbox,
      telegram,
      env,
      engineEnv,
      outputs: () =>
        started
          .map((service) => `=== ${service.name}\n${service.output().slice(-6000)}`)
          .join('\n'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface SlowProxy extends LocalServer {
  /** Requests forwarded to the receiver, by the `id` of their JSON body (an event's id). */
  forwarded: Map<string, number>;
  /** Total requests forwarded. */
  readonly count: number;
  /** Holds every matching request (unforwarded) until open(). */
  pause(): void;
  open(): void;
}

/**
 * A slow receiver: stands in front of `target` and, for requests whose path `matches`,
 * forwards each at once (the receiver acts on it) but answers the caller only `holdMs`
 * later, so a caller that dies meanwhile never learns the outcome. Other requests pass
 * through. Paused, it holds matching requests unforwarded.
 */
export async function startSlowProxy(
  target: string,
  options: { holdMs: number; matches: (path: string) => boolean },
): Promise<SlowProxy> {
  const forwarded = new Map<string, number>();
  let count = 0;
  let paused = false;
  const waiting = new Set<() => void>();
  const app = express();
  app.use(express.raw({ type: '*/*', limit: '2mb' }));
  app.use(async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const slow = options.matches(req.path);
    if (slow && paused) await new Promise<void>((resolve) => waiting.add(resolve));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name))
        headers[name] = value;
    }
    let status = 502;
    let text = '';
    let type = 'application/json';
    try {
      const response = await fetch(`${target}${req.originalUrl}`, {
        method: req.method,
        headers,
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      });
      status = response.status;
      text = await response.text();
      type = response.headers.get('content-type') ?? type;
    } catch {
      // The receiver is down: the caller sees a 502.
    }
    if (slow) {
      count += 1;
      try {
        const id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id;
        if (typeof id === 'string') forwarded.set(id, (forwarded.get(id) ?? 0) + 1);
      } catch {
        // Not JSON: counted, not keyed.
      }
      await delay(options.holdMs);
    }
    if (!res.writableEnded && !res.destroyed) res.status(status).type(type).send(text);
  });
  const server = await serveLocally(app);
  return {
    ...server,
    forwarded,
    get count() {
      return count;
    },
    pause: () => {
      paused = true;
    },
    open: () => {
      paused = false;
      for (const resume of waiting) resume();
      waiting.clear();
    },
  };
}

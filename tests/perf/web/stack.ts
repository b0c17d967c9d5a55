import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnTs, type Spawned } from '../../support/processes.ts';
import { runThenStop } from '../harness.ts';
import { serveStatic, type StaticServer } from './static-server.ts';

/*
 * The product stack for the benchmarks: the launcher (`npm start`'s script) on a fresh embedded
 * database in a temporary folder, every service on a port of its own, started with the port
 * variables only, as a person would (every address is the launcher's own derivation). What is
 * measured is what `npm start` serves: the launcher builds the portal and the mini-app for
 * production itself, into the benchmark's own folders (WEB_BUILD_DIR, MINIAPP_BUILD_DIR) so a
 * concurrent build elsewhere never replaces files under the running server.
 *
 * Ports sit below Linux's ephemeral range (32768-60999), where a health poll of a port nobody
 * listens on yet can connect to itself and then hold it; `--port-base` moves them.
 */

export interface StackPorts {
  web: number;
  engine: number;
  auth: number;
  actions: number;
  bot: number;
  watchers: number;
  database: number;
  floor: number;
}

export const DEFAULT_PORT_BASE = 25500;

/**
 * The folders the launcher builds into for a benchmark on `portBase` (two runs on other ports
 * never build under each other). Inside the workspaces, as web/build and miniapp/dist are, so
 * the server build resolves the workspace's own node_modules (ignored by git: `.bench-build-*`).
 */
export function benchBuildDirs(repoRoot: string, portBase: number) {
  return {
    web: path.join(repoRoot, 'web', `.bench-build-${portBase}`),
    miniapp: path.join(repoRoot, 'miniapp', `.bench-build-${portBase}`),
  };
}

export function stackPorts(base: number): StackPorts {
  return {
    web: base,
    auth: base + 40,
    engine: base + 80,
    actions: base + 100,
    bot: base + 200,
    watchers: base + 300,
    database: base + 320,
    floor: base + 400,
  };
}

/** Fails when a port is taken, before anything starts (a clearer message than a crash later). */
export async function assertPortsFree(ports: StackPorts): Promise<void> {
  for (const [name, port] of Object.entries(ports) as Array<[string, number]>) {
    await new Promise<void>((resolve, reject) => {
      const server = createServer();
      server.once('error', () =>
        reject(new Error(`port ${port} (${name}) is in use; pick other ports with --port-base`)),
      );
      server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
    });
  }
}

export interface RunningStack {
  webUrl: string;
  launcher: Spawned;
  stop(): Promise<void>;
}

export interface StackOptions {
  repoRoot: string;
  ports: StackPorts;
  /** Where the launcher builds (or finds current) the portal and the mini-app. */
  buildDirs: { web: string; miniapp: string };
  /** Added to (and overriding) the launcher's environment, e.g. MINIAPP_BUILD_DIR. */
  env?: Record<string, string>;
  /** Prefix of the temporary folders (database, outbox); default `web-bench`. */
  name?: string;
}

/** Starts the launcher with `--fresh` and waits until every service answers its health check. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const { ports } = options;
  const name = options.name ?? 'web-bench';
  const dataDir = await mkdtemp(path.join(tmpdir(), `${name}-pglite-`));
  const outbox = await mkdtemp(path.join(tmpdir(), `${name}-outbox-`));
  const webUrl = `http://localhost:${ports.web}`;
  const launcher = spawnTs('scripts/start.ts', ['--fresh'], {
    cwd: options.repoRoot,
    env: {
      ...process.env,
      // The services as a developer runs them (NODE_ENV=development: the mini-app's development
      // launch outside Telegram); the portal and the mini-app as `npm start` builds them.
      NODE_ENV: 'development',
      WEB_BUILD_DIR: options.buildDirs.web,
      MINIAPP_BUILD_DIR: options.buildDirs.miniapp,
      EMBEDDED_DB_DIR: dataDir,
      EMBEDDED_DB_PORT: String(ports.database),
      WEB_PORT: String(ports.web),
      HASURA_GRAPHQL_SERVER_PORT: String(ports.engine),
      AUTH_PORT: String(ports.auth),
      ACTIONS_PORT: String(ports.actions),
      BOT_PORT: String(ports.bot),
      WATCHERS_PORT: String(ports.watchers),
      AUTH_OUTBOX_DIR: outbox,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
  const cleanup = async () => {
    await rm(dataDir, { recursive: true, force: true });
    // The embedded database's lock file sits beside its folder.
    await rm(`${dataDir}.pid`, { force: true });
    await rm(outbox, { recursive: true, force: true });
  };
  const stop = async () => {
    if (launcher.child.exitCode === null && launcher.child.signalCode === null) {
      // Ctrl-C, as a person stops `npm start`: the launcher stops every service and the database.
      launcher.child.kill('SIGINT');
      const timeout = setTimeout(() => launcher.child.kill('SIGKILL'), 20_000);
      await launcher.exited;
      clearTimeout(timeout);
    }
    await cleanup();
  };
  try {
    // A first start builds the portal and the mini-app (some 15-60 s) before the services.
    await launcher.waitFor(/\[launcher\] ready/, 300_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { webUrl, launcher, stop };
}

/**
 * Starts the stack and, given `floorDir`, the floor page's server on its port; runs `body` with
 * them, then stops both, also when `body` throws or on SIGINT or SIGTERM (then exits 1).
 */
export async function withStack<T>(
  options: StackOptions,
  floorDir: string | null,
  body: (stack: RunningStack, floor: StaticServer | undefined) => Promise<T>,
): Promise<T> {
  let stack: RunningStack | undefined;
  let floor: StaticServer | undefined;
  const stopAll = async () => {
    await floor?.close();
    await stack?.stop();
  };
  return runThenStop(stopAll, async () => {
    stack = await startStack(options);
    if (floorDir) floor = await serveStatic(floorDir, options.ports.floor);
    return body(stack, floor);
  });
}

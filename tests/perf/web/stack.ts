import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnTs, type Spawned } from '../../support/processes.ts';
import { runThenStop } from '../harness.ts';
import { serveStatic, type StaticServer } from './static-server.ts';

/*
 * The product stack for the benchmark: the launcher (`npm start`'s script) on a fresh embedded
 * database in a temporary folder, every service on a port of its own, and the web portal serving
 * the benchmark's own production build (WEB_BUILD_DIR).
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
  database: number;
  floor: number;
}

export const DEFAULT_PORT_BASE = 25500;

export function stackPorts(base: number): StackPorts {
  return {
    web: base,
    auth: base + 40,
    engine: base + 80,
    actions: base + 100,
    bot: base + 200,
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
  buildDir: string;
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
      // The services as a developer runs them; the portal serves a production build.
      NODE_ENV: 'development',
      WEB_SERVE: 'build',
      WEB_BUILD_DIR: options.buildDir,
      EMBEDDED_DB_DIR: dataDir,
      EMBEDDED_DB_PORT: String(ports.database),
      WEB_PORT: String(ports.web),
      HASURA_GRAPHQL_SERVER_PORT: String(ports.engine),
      AUTH_PORT: String(ports.auth),
      ACTIONS_PORT: String(ports.actions),
      BOT_PORT: String(ports.bot),
      PUBLIC_SITE_URL: webUrl,
      PUBLIC_GRAPHQL_URL: `http://localhost:${ports.engine}/v1/graphql`,
      PUBLIC_AUTH_URL: `http://localhost:${ports.auth}`,
      AUTH_CORS_ORIGINS: webUrl,
      AUTH_WEB_ORIGIN: webUrl,
      AUTH_MINIAPP_ORIGIN: webUrl,
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
    await launcher.waitFor(/\[launcher\] ready/, 180_000);
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

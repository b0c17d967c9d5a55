import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launcherAddressEnv } from '../../../scripts/launcher/addresses.ts';
import { spawnTs, type Spawned } from '../../support/processes.ts';

/*
 * The whole product for the security checks (tests/reliability/security): the launcher
 * (`npm start`'s scripts/start.ts) on a fresh embedded database, every service on ports of its
 * own (an offset over the e2e ports, as E2E_PORT_OFFSET moves them), the portal and the
 * mini-app served from production builds of their own, as tests/e2e/playwright.config.ts runs
 * them. Every line every service prints is kept (`output()`).
 */

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The e2e stack's ports (tests/e2e/stack.ts); each security file adds an offset of its own. */
const BASE_PORTS = {
  web: 23000,
  engine: 23080,
  auth: 23040,
  actions: 23100,
  bot: 23200,
  watchers: 23300,
  database: 23320,
  smtp: 23025,
} as const;

export type Ports = Record<keyof typeof BASE_PORTS, number>;

export const portsAt = (offset: number): Ports =>
  Object.fromEntries(
    Object.entries(BASE_PORTS).map(([name, port]) => [name, port + offset]),
  ) as Ports;

/**
 * Where the launcher builds the portal and the mini-app for the security checks, as `npm start`
 * builds them (scripts/launcher/builds.ts; ignored by git as `.e2e-build-*`).
 */
export const WEB_BUILD_DIR = path.join(ROOT, 'web', '.e2e-build-security');
export const MINIAPP_BUILD_DIR = path.join(ROOT, 'miniapp', '.e2e-build-security');

export interface StackOptions {
  offset: number;
  /** Added to (and overriding) the stack's environment. */
  env?: Record<string, string>;
}

export interface Stack {
  ports: Ports;
  webUrl: string;
  graphqlUrl: string;
  authUrl: string;
  /** The sandbox bot's page and emulator (development without a token). */
  botUrl: string;
  databaseUrl: string;
  /** The environment the launcher ran with. */
  env: Record<string, string>;
  /** The environment every service got: `env` and the addresses the launcher derived. */
  serviceEnv: Record<string, string>;
  launcher: Spawned;
  /** Everything every service printed so far (the launcher prefixes each line with its name). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The launcher's environment: as tests/e2e/stack.ts gives it, on this file's ports: the port
 * variables and nothing a person would not set (every address is the launcher's derivation).
 */
export function stackEnvironment(ports: Ports, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'development',
    WEB_BUILD_DIR,
    MINIAPP_BUILD_DIR,
    EMBEDDED_DB_DIR: dataDir,
    EMBEDDED_DB_PORT: String(ports.database),
    WEB_PORT: String(ports.web),
    HASURA_GRAPHQL_SERVER_PORT: String(ports.engine),
    AUTH_PORT: String(ports.auth),
    ACTIONS_PORT: String(ports.actions),
    BOT_PORT: String(ports.bot),
    WATCHERS_PORT: String(ports.watchers),
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_FACTOR: '100',
  };
}

/** Starts the launcher with `--fresh` and waits until it says every service is ready. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const ports = portsAt(options.offset);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'security-pglite-'));
  const env = { ...stackEnvironment(ports, dataDir), ...options.env };
  const serviceEnv = { ...env, ...launcherAddressEnv(env) };
  // Not this process's NODE_ENV (vitest sets `test`), database or other settings: the stack's.
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const launcher = spawnTs('scripts/start.ts', ['--fresh'], {
    cwd: ROOT,
    env: { ...inherited, ...env },
  });
  const stop = async () => {
    if (launcher.child.exitCode === null && launcher.child.signalCode === null) {
      launcher.child.kill('SIGINT');
      const timer = setTimeout(() => launcher.child.kill('SIGKILL'), 20_000);
      await launcher.exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
    // The embedded database's lock file sits beside its folder.
    rmSync(`${dataDir}.pid`, { force: true });
  };
  try {
    // A first start builds the portal and the mini-app (some 15-60 s) before the services.
    await launcher.waitFor(/\[launcher\] ready/, 300_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ports,
    webUrl: `http://localhost:${ports.web}`,
    graphqlUrl: serviceEnv['PUBLIC_GRAPHQL_URL']!,
    authUrl: serviceEnv['PUBLIC_AUTH_URL']!,
    botUrl: `http://localhost:${ports.bot}`,
    databaseUrl:
      env['DATABASE_URL'] ??
      /Database\s+(postgres\S+)/.exec(launcher.output())?.[1] ??
      `postgres://postgres:postgres@127.0.0.1:${ports.database}/postgres?sslmode=disable`,
    env,
    serviceEnv,
    launcher,
    output: () => launcher.output(),
    stop,
  };
}

/** Waits until `url` answers 200, or fails when `process` exits or time runs out. */
export async function waitHealthy(
  url: string,
  process: Spawned,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null)
      throw new Error(`exited with ${process.child.exitCode}:\n${process.output()}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${process.output()}`);
}

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  database: 23320,
  smtp: 23025,
} as const;

export type Ports = Record<keyof typeof BASE_PORTS, number>;

export const portsAt = (offset: number): Ports =>
  Object.fromEntries(
    Object.entries(BASE_PORTS).map(([name, port]) => [name, port + offset]),
  ) as Ports;

/** Where the security checks' builds go (ignored by git as `.e2e-build-*`). */
export const WEB_BUILD_DIR = path.join(ROOT, 'web', '.e2e-build-security');
export const MINIAPP_BUILD_DIR = path.join(ROOT, 'miniapp', '.e2e-build-security');

/** What the builds are made of: a change to any of these files makes them stale. */
const BUILD_SOURCES = [
  'web/app',
  'web/vite.config.ts',
  'web/react-router.config.ts',
  'web/package.json',
  'miniapp/src',
  'miniapp/index.html',
  'miniapp/vite.config.ts',
  'miniapp/package.json',
  'shared/src',
  'package-lock.json',
];

function fingerprint(): string {
  const hash = createHash('sha256');
  const visit = (relative: string) => {
    const full = path.join(ROOT, relative);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(full).sort()) visit(path.join(relative, entry));
    } else {
      hash.update(`${relative}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  BUILD_SOURCES.forEach(visit);
  return hash.digest('hex');
}

/**
 * Builds the portal and the mini-app into the security checks' own folders with
 * `npm run build -w web` and `npm run build -w miniapp` (production builds, as the e2e config
 * makes them), unless the last build was made of the same sources.
 */
export function ensureBuilds(): { built: boolean; ms: number } {
  const started = Date.now();
  const marker = path.join(WEB_BUILD_DIR, '.sources');
  const sources = fingerprint();
  const current =
    existsSync(marker) &&
    existsSync(path.join(MINIAPP_BUILD_DIR, 'index.html')) &&
    readFileSync(marker, 'utf8') === sources;
  if (current) return { built: false, ms: Date.now() - started };
  const run = (workspace: string, env: Record<string, string>) => {
    const result = spawnSync('npm', ['run', 'build', '-w', workspace], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (result.status !== 0)
      throw new Error(`npm run build -w ${workspace} failed:\n${result.stdout}\n${result.stderr}`);
  };
  run('web', { NODE_ENV: 'production', WEB_BUILD_DIR });
  run('miniapp', { NODE_ENV: 'production', MINIAPP_BUILD_DIR });
  writeFileSync(marker, sources);
  return { built: true, ms: Date.now() - started };
}

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
  /** The environment the launcher (and through it every service) ran with. */
  env: Record<string, string>;
  launcher: Spawned;
  /** Everything every service printed so far (the launcher prefixes each line with its name). */
  output(): string;
  stop(): Promise<void>;
}

/** The launcher's environment: as tests/e2e/stack.ts gives it, on this file's ports. */
export function stackEnvironment(ports: Ports, dataDir: string): Record<string, string> {
  const webUrl = `http://localhost:${ports.web}`;
  return {
    NODE_ENV: 'development',
    WEB_SERVE: 'build',
    WEB_BUILD_DIR,
    MINIAPP_BUILD_DIR,
    EMBEDDED_DB_DIR: dataDir,
    EMBEDDED_DB_PORT: String(ports.database),
    WEB_PORT: String(ports.web),
    HASURA_GRAPHQL_SERVER_PORT: String(ports.engine),
    AUTH_PORT: String(ports.auth),
    ACTIONS_PORT: String(ports.actions),
    BOT_PORT: String(ports.bot),
    PUBLIC_SITE_URL: webUrl,
    PUBLIC_WEB_URL: webUrl,
    PUBLIC_GRAPHQL_URL: `http://localhost:${ports.engine}/v1/graphql`,
    PUBLIC_AUTH_URL: `http://localhost:${ports.auth}`,
    AUTH_CORS_ORIGINS: webUrl,
    AUTH_WEB_ORIGIN: webUrl,
    AUTH_MINIAPP_ORIGIN: webUrl,
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
    await launcher.waitFor(/\[launcher\] ready/, 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ports,
    webUrl: `http://localhost:${ports.web}`,
    graphqlUrl: env['PUBLIC_GRAPHQL_URL']!,
    authUrl: env['PUBLIC_AUTH_URL']!,
    botUrl: `http://localhost:${ports.bot}`,
    databaseUrl:
      env['DATABASE_URL'] ??
      /Database\s+(postgres\S+)/.exec(launcher.output())?.[1] ??
      `postgres://postgres:postgres@127.0.0.1:${ports.database}/postgres?sslmode=disable`,
    env,
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

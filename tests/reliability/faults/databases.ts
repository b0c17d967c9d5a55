import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';

import { provisionDatabase } from '../../../scripts/launcher/database.ts';
import { spawnTs, type Spawned } from '../../support/processes.ts';
import { quietPort } from '../support/ports.ts';
import { baseEnvironment } from '../support/service-environment.ts';
import { hasExited, REPO_ROOT } from '../support/service-process.ts';
import { ADMIN, delay } from './services.ts';

/*
 * The databases the fault and instance checks restart and kill: a PostgreSQL server of their
 * own (initdb into a temporary folder, pg_ctl on a free port), the embedded database in a
 * process of its own on a data folder, and the checks' own connections to them.
 */

const run = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// A PostgreSQL server of the test's own.

/** The newest Debian PostgreSQL bin folder with initdb and pg_ctl, if any. */
export function postgresBinaries(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(base, version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

export interface PostgresServer {
  port: number;
  url: string;
  /** `pg_ctl start -w`; resolves when it accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl stop -m <mode>`. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** The server's log, for failure messages. */
  log(): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * initdb into a temporary folder owned by `postgres` (the binaries refuse root) and start it
 * on a free port, trust authentication on 127.0.0.1 only.
 */
export async function startPostgresServer(bin: string): Promise<PostgresServer> {
  const root = await mkdtemp(path.join(tmpdir(), 'reliability-pg-'));
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(group.trim()));
  }
  const asPostgres = (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args])
      : run(path.join(bin, command), args);
  await asPostgres('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  const port = await quietPort();
  const conf = [
    `listen_addresses = '127.0.0.1'`,
    `port = ${port}`,
    `unix_socket_directories = '${root}'`,
    'max_connections = 300',
    'shared_buffers = 64MB',
    // Connection losses are what these checks are about; keep the server's log readable.
    `log_min_messages = warning`,
  ];
  await appendFile(path.join(dataDir, 'postgresql.conf'), `\n${conf.join('\n')}\n`);
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', root]);
  const server: PostgresServer = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await asPostgres('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
    },
    async stop(mode = 'fast') {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    },
    async log() {
      const { readFile } = await import('node:fs/promises');
      return readFile(logFile, 'utf8').catch(() => '');
    },
    async dispose() {
      await server.stop('immediate').catch(() => {});
      await rm(root, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

// ---------------------------------------------------------------------------------------------
// The embedded database in a process of its own.

export interface EmbeddedProcess {
  port: number;
  url: string;
  dataDir: string;
  process(): Spawned;
  /** Starts it (again) on the same data folder and port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Sends `signal` and waits for the process to end. */
  kill(signal: NodeJS.Signals): Promise<void>;
  dispose(): Promise<void>;
}

export async function startEmbeddedProcess(): Promise<EmbeddedProcess> {
  const root = await mkdtemp(path.join(tmpdir(), 'reliability-pglite-'));
  const dataDir = path.join(root, 'pglite');
  const port = await quietPort();
  let current: Spawned | undefined;
  const embedded: EmbeddedProcess = {
    port,
    dataDir,
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    process: () => current!,
    async start() {
      current = spawnTs('tests/reliability/faults/embedded-db.ts', [dataDir, String(port)], {
        cwd: REPO_ROOT,
        env: { ...baseEnvironment(), NODE_ENV: 'development' },
      });
      await current.waitFor(/embedded database ready/, 120_000);
    },
    async kill(signal) {
      const spawned = current;
      if (!spawned || hasExited(spawned)) return;
      spawned.child.kill(signal);
      await spawned.exited;
    },
    async dispose() {
      await embedded.kill('SIGTERM');
      await rm(root, { recursive: true, force: true });
    },
  };
  await embedded.start();
  return embedded;
}

/** Migrations, seeds and the admin account, as the launcher applies them. */
export async function provision(url: string): Promise<void> {
  await provisionDatabase(url, ADMIN);
}

/**
 * Polls the database with fresh connections until one answers `SELECT 1`; resolves with the
 * time (ms since the epoch) of that first answer: when it accepts connections again.
 */
export async function waitDatabaseReady(url: string, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return Date.now();
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      await client.end().catch(() => {});
    }
    await delay(25);
  }
}

/** A pool for the test's own reads, which never crashes on a dropped connection. */
export function testPool(url: string, max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** A database of the check's own: a PostgreSQL server when the binaries exist, else PGlite. */
export async function startOwnDatabase(): Promise<{
  kind: 'postgres' | 'pglite';
  url: string;
  dispose(): Promise<void>;
}> {
  const bin = postgresBinaries();
  if (bin) {
    const server = await startPostgresServer(bin);
    return { kind: 'postgres', url: server.url, dispose: () => server.dispose() };
  }
  const embedded = await startEmbeddedProcess();
  return { kind: 'pglite', url: embedded.url, dispose: () => embedded.dispose() };
}

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { REPO_ROOT, type BenchLog } from '../harness.ts';

import { ChildServer } from './children.ts';
import type { BenchConfig } from './config.ts';
import type { BenchDatabase } from './database.ts';
import { JWT_SECRET } from './metadata.ts';
import type { Candidate, QueryName } from './workload.ts';

/*
 * The candidate processes of `npm run bench:engine`: the engine, the hand-written pg+http
 * endpoint, PostGraphile 4 and PostGraphile 5 (each installed into its own folder on first
 * use). A candidate that fails to start is recorded with its reason; the bench reports it as
 * unavailable.
 */

export const POSTGRAPHILE_DIR = fileURLToPath(new URL('../postgraphile/', import.meta.url));
export const POSTGRAPHILE5_DIR = fileURLToPath(new URL('../postgraphile5/', import.meta.url));
export const CANDIDATES: Candidate[] = ['pg_http', 'engine', 'postgraphile', 'postgraphile5'];

/**
 * A PostGraphile lives in its own install (`dir`: its package.json and lockfile; version 4
 * needs graphql 15, version 5 its own Grafast tree); installs it from its lockfile when absent.
 */
async function ensurePostgraphile(
  dir: string,
  label: string,
  step: BenchLog['step'],
): Promise<string | undefined> {
  if (existsSync(path.join(dir, 'node_modules', 'postgraphile', 'package.json'))) return undefined;
  const folder = path.relative(REPO_ROOT, dir).replaceAll(path.sep, '/');
  step(`installing ${label} into ${folder} (npm ci, its own lockfile)`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      npm,
      ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(-1);
    });
  });
  return code === 0 ? undefined : `npm ci --prefix ${folder} failed (${code})`;
}

export interface Servers {
  pg_http?: ChildServer;
  engine?: ChildServer;
  postgraphile?: ChildServer;
  postgraphile5?: ChildServer;
  failures: Partial<Record<Candidate, string>>;
}

export async function startServers(
  db: BenchDatabase,
  config: BenchConfig,
  step: BenchLog['step'],
): Promise<Servers> {
  const env = {
    BENCH_DATABASE_URL: db.url,
    BENCH_POOL_SIZE: String(config.poolSize),
    BENCH_REFETCH_MS: String(config.refetchIntervalMs),
    BENCH_JWT_SECRET: JWT_SECRET,
  };
  const servers: Servers = { failures: {} };
  const firstLine = (error: unknown) =>
    (error instanceof Error ? error.message : String(error)).split('\n').slice(0, 6).join(' | ');
  const start = async (
    candidate: Candidate,
    name: string,
    script: URL,
    options: Parameters<typeof ChildServer.start>[2],
  ) => {
    try {
      servers[candidate] = await ChildServer.start(name, script, options);
    } catch (error) {
      servers.failures[candidate] = firstLine(error);
    }
  };
  await start('engine', 'engine', new URL('../servers/engine-server.ts', import.meta.url), {
    env,
    typescript: true,
  });
  await start('pg_http', 'pg+http', new URL('../servers/pg-http-server.ts', import.meta.url), {
    // Named statements as the engine's (off on PGlite, whose one session all connections share).
    env: { ...env, BENCH_PREPARED_STATEMENTS: db.kind === 'pglite' ? '0' : '1' },
    typescript: true,
  });
  // Each PostGraphile names its SELECTs as prepared statements by default; on PGlite (one
  // session shared by every connection) the names would collide, so a cache size of 0 turns
  // them off there.
  const postgraphiles = [
    {
      candidate: 'postgraphile',
      label: 'PostGraphile 4',
      dir: POSTGRAPHILE_DIR,
      noPreparedStatements: 'POSTGRAPHILE_PREPARED_STATEMENT_CACHE_SIZE',
    },
    {
      candidate: 'postgraphile5',
      label: 'PostGraphile 5',
      dir: POSTGRAPHILE5_DIR,
      noPreparedStatements: 'DATAPLAN_PG_PREPARED_STATEMENT_CACHE_SIZE',
    },
  ] as const;
  for (const { candidate, label, dir, noPreparedStatements } of postgraphiles) {
    const installFailure = await ensurePostgraphile(dir, label, step);
    if (installFailure) {
      servers.failures[candidate] = installFailure;
      continue;
    }
    await start(candidate, candidate, pathToFileURL(path.join(dir, 'server.js')), {
      env: db.kind === 'pglite' ? { ...env, [noPreparedStatements]: '0' } : env,
      typescript: false,
      cwd: dir,
    });
  }
  return servers;
}

export function targetUrl(servers: Servers, candidate: Candidate, query: QueryName): string {
  const server = servers[candidate]!;
  return candidate === 'pg_http' ? `${server.url}/${query}` : server.url;
}

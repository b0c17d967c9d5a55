import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPool } from '@app/engine/database';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@app/engine/embedded-postgres';

import { freePort } from '../../support/processes.ts';

import { buildState, snapshot } from './backup-world.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <script> -- <args>` in the repository, as a person types it. */
function npmRun(script: string, args: string[], databaseUrl: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run db:backup and db:restore against the embedded database', () => {
  let dir: string;
  const databases: EmbeddedPostgres[] = [];
  const pools: pg.Pool[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'backup-cli-'));
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(databases.map((db) => db.stop()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const embedded = async (name: string) => {
    const db = await startEmbeddedPostgres({
      dataDir: path.join(dir, name),
      port: await freePort(),
    });
    databases.push(db);
    const pool = createPool(db.url, 2);
    pools.push(pool);
    return { db, pool };
  };

  it('backs up one embedded database and restores it into another', async () => {
    const source = await embedded('source');
    await buildState(source.pool);
    const expected = await snapshot(source.pool);
    const out = path.join(dir, 'cli.jsonl.gz');

    const backup = await npmRun('db:backup', ['--out', out], source.db.url);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`backup written to ${out}`);
    expect(backup.stdout).toMatch(/public\.transactions\s+4\n/);
    expect(backup.stdout).toMatch(/public\.transaction_status_history\s+10\n/);

    const target = await embedded('target');
    const restore = await npmRun('db:restore', [out], target.db.url);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`restored ${out}`);
    expect(restore.stdout).toMatch(/public\.transactions\s+4\n/);
    expect(await snapshot(target.pool)).toEqual(expected);

    const again = await npmRun('db:restore', [out], target.db.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has product data.*--force/);
    expect(again.stderr).toContain('the database was not changed');

    const forced = await npmRun('db:restore', ['--force', out], target.db.url);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('replaced (--force)');
    expect(await snapshot(target.pool)).toEqual(expected);

    const usage = await npmRun('db:restore', [], target.db.url);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run db:restore -- [--force] FILE');
  });
});

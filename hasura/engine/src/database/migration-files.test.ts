import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { compareVersions, loadMigrationFiles } from './migration-files.ts';

describe('loadMigrationFiles', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const add = async (folder: string, files: Record<string, string>) => {
    await mkdir(path.join(dir, folder));
    for (const [name, body] of Object.entries(files))
      await writeFile(path.join(dir, folder, name), body);
  };

  it('orders by numeric version, not by text', async () => {
    await add('900_second', { 'up.sql': 'SELECT 2;' });
    await add('1000_third', { 'up.sql': 'SELECT 3;', 'down.sql': 'SELECT -3;' });
    await add('10_first', { 'up.sql': 'SELECT 1;' });
    const files = await loadMigrationFiles(dir);
    expect(files.map((f) => f.name)).toEqual(['first', 'second', 'third']);
    expect(files[2]).toMatchObject({ version: '1000', upSql: 'SELECT 3;', downSql: 'SELECT -3;' });
    expect(files[0]!.downSql).toBeUndefined();
  });

  it('refuses a folder without up.sql', async () => {
    await add('1_empty', { 'down.sql': 'SELECT 1;' });
    await expect(loadMigrationFiles(dir)).rejects.toThrow(/up.sql is missing/);
  });

  it('refuses a folder that is not <version>_<name>', async () => {
    await add('init', { 'up.sql': 'SELECT 1;' });
    await expect(loadMigrationFiles(dir)).rejects.toThrow(/not a <version>_<name>/);
  });

  it('refuses two folders with one version', async () => {
    await add('5_a', { 'up.sql': 'SELECT 1;' });
    await add('005_b', { 'up.sql': 'SELECT 1;' });
    await expect(loadMigrationFiles(dir)).rejects.toThrow(/share version/);
  });

  it('compares versions beyond the safe integer range exactly', () => {
    expect(compareVersions('9007199254740993', '9007199254740992')).toBe(1);
  });
});

import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { DEFAULT_MIGRATIONS_DIR, loadMigrationFiles } from '@app/engine/database';

import { backupDatabase, type BackupHeader } from '../../../scripts/database/backup.ts';
import { RestoreError } from '../../../scripts/database/restore-errors.ts';
import { restoreDatabase } from '../../../scripts/database/restore.ts';
import { databaseTargets } from '../../support/databases.ts';
import { ALL_PRODUCT_TABLES } from '../../support/schema.ts';

import {
  EXACT_AMOUNT,
  expectUntouchedFresh,
  gunzipLines,
  sectionIndex,
  useBackupWorld,
  writeVariant,
} from './backup-world.ts';

/*
 * Writing a backup, and refusing the files a restore must not load (another checkout's
 * migrations, truncated, corrupted) while the target database stays fresh. Restoring a good
 * file is in backup-restore.test.ts, the npm scripts in backup-cli.test.ts.
 */

describe.each(databaseTargets)('backup and restore on $name', (target) => {
  const world = useBackupWorld(target);

  it('writes one gzip file: a header, every table with its rows as the server wrote them', async () => {
    const result = await backupDatabase(world.source.pool, {
      dir: world.dir,
      now: new Date('2025-03-04T05:06:07.890Z'),
      fetchSize: 2, // several cursor batches even for the small tables
    });
    world.file = result.file;
    expect(path.basename(world.file)).toBe('backup-20250304T050607Z.jsonl.gz');
    expect((await stat(world.file)).size).toBe(result.bytes);
    const files = await loadMigrationFiles(DEFAULT_MIGRATIONS_DIR);
    expect(result.migrations).toEqual(files.map((m) => m.version));

    const names = result.tables.map((t) => `${t.schema}.${t.name}`);
    for (const table of ALL_PRODUCT_TABLES) expect(names).toContain(table);
    expect(names).toContain('hdb_catalog.event_log');
    expect(names).not.toContain('hdb_catalog.schema_migrations');
    for (const table of result.tables) {
      expect(table.rows, `${table.schema}.${table.name}`).toBe(
        world.before[`${table.schema}.${table.name}`]!.length,
      );
    }
    // Parents before children.
    expect(names.indexOf('public.portal_users')).toBeLessThan(names.indexOf('public.transactions'));
    expect(names.indexOf('public.transactions')).toBeLessThan(
      names.indexOf('public.transaction_status_history'),
    );

    const lines = gunzipLines(await readFile(world.file));
    const header = JSON.parse(lines[0]!) as BackupHeader;
    expect(header).toMatchObject({
      format: 'exchange-portal-backup',
      formatVersion: 1,
      createdAt: '2025-03-04T05:06:07.890Z',
      migrations: result.migrations,
      dirtyMigrations: [],
    });
    expect(header.serverVersion).toMatch(/^\d+/);
    // Exact digits in the file itself: no amount went through a JS number.
    const text = lines.join('\n');
    expect(text).toContain(`"send_amount": ${EXACT_AMOUNT}`);
    expect(text).toContain('"amount_usdt": 1500.000000000000000001');
    expect(lines.at(-1)).toBe('');
    expect(JSON.parse(lines.at(-2)!)).toEqual({
      type: 'end',
      tables: result.tables.length,
      rows: result.rows,
    });
    // A second backup at the same instant never overwrites the first.
    await expect(
      backupDatabase(world.source.pool, {
        dir: world.dir,
        now: new Date('2025-03-04T05:06:07.890Z'),
      }),
    ).rejects.toThrow(/already exists/);
  });

  it('refuses a backup made at a migration this checkout does not have, changing nothing', async () => {
    const newer = await writeVariant(
      world.file,
      path.join(world.dir, 'newer.jsonl.gz'),
      (lines) => {
        const header = JSON.parse(lines[0]!) as BackupHeader;
        header.migrations.push('99999999999999');
        return [JSON.stringify(header), ...lines.slice(1)];
      },
    );
    await expect(restoreDatabase(world.restored.pool, newer)).rejects.toThrow(
      /migration 99999999999999, which this checkout does not have/,
    );
    const dirty = await writeVariant(
      world.file,
      path.join(world.dir, 'dirty.jsonl.gz'),
      (lines) => {
        const header = JSON.parse(lines[0]!) as BackupHeader;
        header.dirtyMigrations = [header.migrations.at(-1)!];
        return [JSON.stringify(header), ...lines.slice(1)];
      },
    );
    await expect(restoreDatabase(world.restored.pool, dirty)).rejects.toThrow(/marked dirty/);
    await expectUntouchedFresh(world.restored.pool);
  });

  it('refuses a truncated file, rolling back what it had loaded', async () => {
    const cut = path.join(world.dir, 'truncated.jsonl.gz');
    await writeFile(cut, await readFile(world.file));
    await truncate(cut, Math.floor((await stat(cut)).size * 0.6));
    await expect(restoreDatabase(world.restored.pool, cut)).rejects.toThrow(
      /truncated\.jsonl\.gz is damaged or truncated/,
    );
    await expectUntouchedFresh(world.restored.pool);
  });

  it('refuses corrupted files with a clear error, changing nothing', async () => {
    const badRow = await writeVariant(
      world.file,
      path.join(world.dir, 'bad-row.jsonl.gz'),
      (lines) => {
        const at = sectionIndex(lines, 'transactions') + 1;
        lines[at] = lines[at]!.replace(/"send_amount": [^,}]+/, '"send_amount": "lots"');
        return lines;
      },
    );
    await expect(restoreDatabase(world.restored.pool, badRow)).rejects.toThrow(
      /bad-row\.jsonl\.gz lines \d+-\d+ \(public\.transactions\): invalid input syntax for type numeric/,
    );
    await expectUntouchedFresh(world.restored.pool);

    // Well-formed, but an order of a user who is not there: the foreign keys are checked.
    const orphan = await writeVariant(
      world.file,
      path.join(world.dir, 'orphan.jsonl.gz'),
      (lines) => {
        const at = sectionIndex(lines, 'transactions') + 1;
        lines[at] = lines[at]!.replace(
          /"user_id": "[^"]+"/,
          '"user_id": "0badbadb-adba-4dba-8dba-dbadbadbadba"',
        );
        return lines;
      },
    );
    await expect(restoreDatabase(world.restored.pool, orphan)).rejects.toThrow(
      /break foreign key transactions_user_id_fkey of transactions/,
    );
    await expectUntouchedFresh(world.restored.pool);

    const missingRow = await writeVariant(
      world.file,
      path.join(world.dir, 'missing.jsonl.gz'),
      (lines) => {
        lines.splice(sectionIndex(lines, 'support_requests') + 1, 1);
        return lines;
      },
    );
    await expect(restoreDatabase(world.restored.pool, missingRow)).rejects.toThrow(RestoreError);
    await expectUntouchedFresh(world.restored.pool);

    const flipped = path.join(world.dir, 'flipped.jsonl.gz');
    const bytes = await readFile(world.file);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    await writeFile(flipped, bytes);
    await expect(restoreDatabase(world.restored.pool, flipped)).rejects.toThrow(RestoreError);
    await expectUntouchedFresh(world.restored.pool);

    const notGzip = path.join(world.dir, 'plain.jsonl');
    await writeFile(notGzip, gunzipSync(await readFile(world.file)));
    await expect(restoreDatabase(world.restored.pool, notGzip)).rejects.toThrow(
      /not a gzip'd backup/,
    );
    await expect(
      restoreDatabase(world.restored.pool, path.join(world.dir, 'nope.gz')),
    ).rejects.toThrow(/cannot read .*nope\.gz/);
    await expectUntouchedFresh(world.restored.pool);
  });
});

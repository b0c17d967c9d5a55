import { randomBytes } from 'node:crypto';
import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';

import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';

import { createPool } from '@app/engine/database';

import { backupDatabase, type BackupHeader } from '../../../scripts/database/backup.ts';
import { RestoreRefusedError } from '../../../scripts/database/restore-errors.ts';
import { restoreDatabase } from '../../../scripts/database/restore.ts';
import { databaseTargets } from '../../support/databases.ts';
import { insertOrder } from '../../support/fixtures.ts';

import {
  AWKWARD_TEXT,
  EXACT_AMOUNT,
  schemaState,
  snapshot,
  useBackupWorld,
  writeVariant,
} from './backup-world.ts';

/*
 * Restoring a good backup: into a fresh database, then over data with --force, with either
 * trigger mode and as a database owner who is not a superuser. The tests run in order on one
 * restored database (each leaves it as the next expects).
 */

describe.each(databaseTargets)('backup and restore on $name', (target) => {
  const world = useBackupWorld(target);
  let nextNumber: string;

  // The file this suite restores; writing it is tested in backup.test.ts.
  beforeAll(async () => {
    world.file = (await backupDatabase(world.source.pool, { dir: world.dir })).file;
  });

  it('restores into a fresh database: every table row for row, the ledger from the migrations', async () => {
    const result = await restoreDatabase(world.restored.pool, world.file);
    expect(result.triggerMode).toBe('replica');
    expect(result.replaced).toBe(false);
    expect(result.skipped).toEqual([]);
    expect(await snapshot(world.restored.pool)).toEqual(world.before);
    expect(await schemaState(world.restored.pool)).toEqual(world.sourceSchema);
    const { rows } = await world.restored.pool.query<{ send_amount: string; reason: string }>(
      `SELECT send_amount::text, reason FROM transactions WHERE send_amount = $1`,
      [EXACT_AMOUNT],
    );
    expect(rows).toEqual([{ send_amount: EXACT_AMOUNT, reason: AWKWARD_TEXT }]);
  });

  it('did not fire the triggers during the load: no extra history, bonus or level change', async () => {
    const counts = async (pool: pg.Pool) =>
      (
        await pool.query(
          `SELECT (SELECT count(*)::int FROM transaction_status_history) AS history,
                  (SELECT count(*)::int FROM referral_bonuses) AS bonuses,
                  (SELECT count(*)::int FROM hdb_catalog.event_log WHERE NOT delivered) AS pending,
                  (SELECT string_agg(status, ',' ORDER BY id) FROM portal_users) AS levels`,
        )
      ).rows[0] as Record<string, unknown>;
    const expected = await counts(world.source.pool);
    expect(expected).toMatchObject({ history: 10, bonuses: 1, pending: 1 });
    expect(await counts(world.restored.pool)).toEqual(expected);
  });

  it('continues identities and keeps the guards: a new order gets the next number', async () => {
    const fresh = async (pool: pg.Pool) => {
      const { rows: users } = await pool.query<{ id: string }>(
        `SELECT id FROM portal_users WHERE email = 'referrer@example.com'`,
      );
      return insertOrder(pool, users[0]!.id);
    };
    nextNumber = (await fresh(world.source.pool)).number;
    const order = await fresh(world.restored.pool);
    expect(order.number).toBe(nextNumber);
    const { rows: history } = await world.restored.pool.query(
      'SELECT from_status, to_status FROM transaction_status_history WHERE transaction_id = $1',
      [order.id],
    );
    expect(history).toEqual([{ from_status: null, to_status: 'waiting_for_operator' }]);
    const { rows: referrer } = await world.restored.pool.query<{ id: string }>(
      `SELECT id FROM portal_users WHERE email = 'referrer@example.com'`,
    );
    await expect(
      insertOrder(world.restored.pool, referrer[0]!.id, {
        status: 'completed',
        payout_tx_id: 'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d',
      }),
    ).rejects.toThrow(/must start in waiting_for_operator/);
  });

  it('refuses a database that has data, without --force, changing nothing', async () => {
    const current = await snapshot(world.restored.pool);
    await expect(restoreDatabase(world.restored.pool, world.file)).rejects.toThrow(
      RestoreRefusedError,
    );
    await expect(restoreDatabase(world.restored.pool, world.file)).rejects.toThrow(
      /already has product data \(rows in .*\); restore into an empty database, or pass --force/,
    );
    expect(await snapshot(world.restored.pool)).toEqual(current);

    // A damaged file with --force: the schemas are dropped and rebuilt in the one transaction,
    // so the rollback leaves everything as it was.
    const cut = path.join(world.dir, 'truncated-force.jsonl.gz');
    await writeFile(cut, await readFile(world.file));
    await truncate(cut, Math.floor((await stat(cut)).size * 0.8));
    await expect(restoreDatabase(world.restored.pool, cut, { force: true })).rejects.toThrow(
      /damaged or truncated/,
    );
    expect(await snapshot(world.restored.pool)).toEqual(current);
  });

  it('--force replaces the data, also with ALTER TABLE … DISABLE TRIGGER instead of replica', async () => {
    const result = await restoreDatabase(world.restored.pool, world.file, {
      force: true,
      triggers: 'disable-triggers',
      batchRows: 1, // one row per INSERT: a referral before its referrer needs the deferred keys
    });
    expect(result.triggerMode).toBe('disable-triggers');
    expect(result.replaced).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(await snapshot(world.restored.pool)).toEqual(world.before);
    // Triggers enabled again as they were, foreign keys not deferrable again, public as it was.
    expect(await schemaState(world.restored.pool)).toEqual(world.sourceSchema);
    const { rows: users } = await world.restored.pool.query<{ id: string }>(
      `SELECT id FROM portal_users WHERE email = 'referrer@example.com'`,
    );
    expect((await insertOrder(world.restored.pool, users[0]!.id)).number).toBe(nextNumber);
  });
  it('skips hdb_catalog tables this engine does not create, refuses unknown product tables', async () => {
    const withTable = (schema: string, name: string) => (lines: string[]) => {
      const header = JSON.parse(lines[0]!) as BackupHeader;
      header.tables.push({ schema, name, rows: 1 });
      const end = JSON.parse(lines.at(-2)!) as { tables: number; rows: number };
      const section = {
        type: 'table',
        schema,
        name,
        columns: [{ name: 'id', type: 'integer', generated: false, identity: false }],
        primaryKey: ['id'],
        rows: 1,
      };
      return [
        JSON.stringify(header),
        ...lines.slice(1, -3),
        JSON.stringify(section),
        '{"id": 1}',
        lines.at(-3)!, // the sequences
        JSON.stringify({ ...end, tables: end.tables + 1, rows: end.rows + 1 }),
        '',
      ];
    };
    const hasura = await writeVariant(
      world.file,
      path.join(world.dir, 'hasura-metadata.jsonl.gz'),
      withTable('hdb_catalog', 'hdb_metadata'),
    );
    const result = await restoreDatabase(world.restored.pool, hasura, { force: true });
    expect(result.skipped).toEqual(['hdb_catalog.hdb_metadata']);
    expect(await snapshot(world.restored.pool)).toEqual(world.before);

    const unknown = await writeVariant(
      world.file,
      path.join(world.dir, 'unknown-table.jsonl.gz'),
      withTable('public', 'not_ours'),
    );
    await expect(restoreDatabase(world.restored.pool, unknown, { force: true })).rejects.toThrow(
      /the backup has a table public\.not_ours that its migrations do not create here/,
    );
    expect(await snapshot(world.restored.pool)).toEqual(world.before);
  });

  it.runIf(target.name === 'postgres')(
    'falls back to ALTER TABLE … DISABLE TRIGGER for a database owner who is not a superuser',
    async () => {
      const suffix = randomBytes(4).toString('hex');
      const role = `restorer_${suffix}`;
      const password = randomBytes(12).toString('hex');
      const database = `restore_owner_${suffix}`;
      const admin = new pg.Client({ connectionString: world.source.url });
      await admin.connect();
      let pool: pg.Pool | undefined;
      try {
        await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
        await admin.query(`CREATE DATABASE ${database} OWNER ${role}`);
        const url = new URL(world.source.url);
        url.username = role;
        url.password = password;
        url.pathname = `/${database}`;
        pool = createPool(url.toString(), 2);
        const result = await restoreDatabase(pool, world.file);
        expect(result.triggerMode).toBe('disable-triggers');
        expect(await snapshot(pool)).toEqual(world.before);
        expect(await schemaState(pool)).toEqual(world.sourceSchema);
        // --force as the owner: the public schema comes back with its owner and grants.
        await restoreDatabase(pool, world.file, { force: true });
        expect(await snapshot(pool)).toEqual(world.before);
        expect(await schemaState(pool)).toEqual(world.sourceSchema);
      } finally {
        await pool?.end();
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    },
  );
});

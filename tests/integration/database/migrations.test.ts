import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  applySeeds,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  loadMigrationFiles,
  migrateDown,
  migrateUp,
  migrationStatus,
} from '@app/engine/database';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { ALL_PRODUCT_TABLES, listTables } from '../../support/schema.ts';

async function ledger(db: TestDatabase): Promise<Array<{ version: string; dirty: boolean }>> {
  const { rows } = await db.pool.query<{ version: string; dirty: boolean }>(
    'SELECT version::text AS version, dirty FROM hdb_catalog.schema_migrations ORDER BY version',
  );
  return rows;
}

describe.each(databaseTargets)('migrations on $name', (target) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await target.create();
  });
  afterAll(async () => {
    await db.dispose();
  });

  it('applies every migration in order and records it as the Hasura CLI does', async () => {
    const files = await loadMigrationFiles(DEFAULT_MIGRATIONS_DIR);
    const applied = await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);

    expect(applied.map((m) => m.version)).toEqual(files.map((m) => m.version));
    expect(await listTables(db.pool)).toEqual(ALL_PRODUCT_TABLES);
    expect(await ledger(db)).toEqual(files.map((m) => ({ version: m.version, dirty: false })));
  });

  it('treats a second run as a no-op', async () => {
    expect(await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR)).toEqual([]);
    expect((await migrationStatus(db.pool, DEFAULT_MIGRATIONS_DIR)).every((m) => m.applied)).toBe(
      true,
    );
  });

  it('seeds reference data, and seeding again changes nothing', async () => {
    await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
    const count = async () =>
      (
        await db.pool.query<{
          currencies: string;
          directions: string;
          rates: string;
          levels: string;
        }>(
          `SELECT (SELECT count(*) FROM currencies) AS currencies,
                  (SELECT count(*) FROM exchange_directions) AS directions,
                  (SELECT count(*) FROM rates) AS rates,
                  (SELECT count(*) FROM user_levels) AS levels`,
        )
      ).rows[0];
    const first = await count();
    await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
    expect(await count()).toEqual(first);

    const { rows } = await db.pool.query<{ kind: string; n: number }>(
      'SELECT kind, count(*)::int AS n FROM currencies GROUP BY kind',
    );
    const byKind = Object.fromEntries(rows.map((row) => [row.kind, row.n]));
    expect(byKind['crypto']).toBeGreaterThanOrEqual(40);
    expect(byKind['fiat']).toBeGreaterThanOrEqual(2);
    expect(byKind['cash']).toBeGreaterThanOrEqual(1);
    const unpriced = await db.pool.query(
      `SELECT code FROM currencies c WHERE NOT EXISTS (SELECT 1 FROM rates r WHERE r.currency_code = c.code)`,
    );
    expect(unpriced.rows).toEqual([]);
    const fiat = await db.pool.query<{ code: string }>(
      `SELECT code FROM currencies WHERE code IN ('UAH', 'EUR') ORDER BY code`,
    );
    expect(fiat.rows.map((row) => row.code)).toEqual(['EUR', 'UAH']);
    const level = await db.pool.query(
      `SELECT 1 FROM user_levels WHERE status = 'new' AND min_orders = 0`,
    );
    expect(level.rowCount).toBe(1);
  });

  it('rolls back one step at a time, newest first, and applies it again', async () => {
    const files = await loadMigrationFiles(DEFAULT_MIGRATIONS_DIR);
    const before = await schemaFingerprint(db);
    const undone = await migrateDown(db.pool, DEFAULT_MIGRATIONS_DIR, { steps: 1 });
    expect(undone.map((m) => m.version)).toEqual([files.at(-1)!.version]);
    // The newest step's objects are gone and nothing older went with them: applying the step
    // again restores exactly the schema there was.
    expect(await schemaFingerprint(db)).not.toEqual(before);
    expect((await ledger(db)).map((row) => row.version)).toEqual(
      files.slice(0, -1).map((m) => m.version),
    );
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    expect(await schemaFingerprint(db)).toEqual(before);
    await migrateDown(db.pool, DEFAULT_MIGRATIONS_DIR, { steps: 1 });
  });

  it('rolls back everything, leaving no table, function or ledger row behind', async () => {
    await migrateDown(db.pool, DEFAULT_MIGRATIONS_DIR, { all: true });
    expect(await listTables(db.pool)).toEqual([]);
    expect(await ledger(db)).toEqual([]);
    const leftovers = await db.pool.query(
      `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname IN ('public', 'auth')`,
    );
    expect(leftovers.rows).toEqual([]);
  });

  it('applies everything again after a full rollback', async () => {
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
    expect(await listTables(db.pool)).toEqual(ALL_PRODUCT_TABLES);
  });

  it('refuses to run while a migration is marked dirty', async () => {
    await db.pool.query(
      'UPDATE hdb_catalog.schema_migrations SET dirty = true WHERE version = (SELECT max(version) FROM hdb_catalog.schema_migrations)',
    );
    await expect(migrateDown(db.pool, DEFAULT_MIGRATIONS_DIR)).rejects.toThrow(/dirty/);
    await db.pool.query('UPDATE hdb_catalog.schema_migrations SET dirty = false');
  });
});

/** The product schemas' columns, constraints, functions and triggers, one line each. */
async function schemaFingerprint(db: TestDatabase): Promise<string[]> {
  const { rows } = await db.pool.query<{ line: string }>(
    `SELECT table_schema || '.' || table_name || '.' || column_name || ' ' || data_type AS line
       FROM information_schema.columns WHERE table_schema IN ('public', 'auth', 'bot')
     UNION ALL
     SELECT n.nspname || ' constraint ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname IN ('public', 'auth', 'bot')
     UNION ALL
     SELECT n.nspname || ' function ' || p.proname || ' ' || md5(pg_get_functiondef(p.oid))
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname IN ('public', 'auth', 'bot') AND p.prokind = 'f'
     UNION ALL
     SELECT 'trigger ' || tgname || ' ' || pg_get_triggerdef(t.oid)
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ('public', 'auth', 'bot') AND NOT t.tgisinternal
     UNION ALL
     SELECT n.nspname || ' index ' || indexname || ' ' || indexdef
       FROM pg_indexes i JOIN pg_namespace n ON n.nspname = i.schemaname
      WHERE i.schemaname IN ('public', 'auth', 'bot')
     ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

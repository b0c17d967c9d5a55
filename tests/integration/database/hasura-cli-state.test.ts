/*
 * Migrations state shared with the official image (hasura/graphql-engine:*.cli-migrations-v3,
 * docker-compose.yml), decision 021. The image's writes are emulated as its source makes them
 * (hasura/graphql-engine, read for this change; see hasura/engine/src/database/cli-state.ts):
 *  - packaging/cli-migrations/v3/docker-entrypoint.sh: starts the server, then
 *    `hasura-cli migrate apply --all-databases` against it;
 *  - server/src-rsr/initialise.sql + migrations/47_to_48.sql: the server creates
 *    hdb_catalog.hdb_version (one row, cli_state jsonb NOT NULL DEFAULT '{}');
 *  - server/src-lib/Hasura/App.hs, setCatalogStateTx: set_catalog_state {type: "cli"} is
 *    `UPDATE hdb_catalog.hdb_version SET cli_state = $1`;
 *  - cli/internal/statestore/statestore.go and migrations/catalogstate.go: per applied migration
 *    the CLI sets cli_state.migrations.default["<version>"] = false, keeping
 *    {"migrations", "settings", "isStateCopyCompleted"};
 *  - cli/migrate/util.go, copyStateToCatalogStateAPIIfRequired: on its first run with no
 *    hdb_catalog.schema_migrations it only sets isStateCopyCompleted;
 *  - packaging/cli-migrations/v3/test/validation/catalog_cli_state.json: the state it leaves.
 * The migrations' SQL runs directly, as the image's run_sql would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  DEFAULT_MIGRATIONS_DIR,
  loadMigrationFiles,
  migrateDown,
  migrateUp,
  type MigrationFile,
} from '@app/engine/database';

import { backupDatabase } from '../../../scripts/database/backup.ts';
import { restoreDatabase } from '../../../scripts/database/restore.ts';

import { provisionDatabase } from '../../../scripts/launcher/database.ts';
import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

/** What the server runs on first boot (initialise.sql, then 47_to_48.sql), and its row. */
async function serverCreatesCatalogVersion(db: TestDatabase): Promise<void> {
  await db.pool.query(`
    CREATE SCHEMA IF NOT EXISTS hdb_catalog;
    CREATE TABLE hdb_catalog.hdb_version (
      hasura_uuid UUID PRIMARY KEY DEFAULT gen_random_uuid(),
      version TEXT NOT NULL,
      upgraded_on TIMESTAMPTZ NOT NULL,
      cli_state JSONB NOT NULL DEFAULT '{}'::jsonb,
      console_state JSONB NOT NULL DEFAULT '{}'::jsonb
    );
    CREATE UNIQUE INDEX hdb_version_one_row ON hdb_catalog.hdb_version((version IS NOT NULL));
    ALTER TABLE hdb_catalog.hdb_version
      ADD COLUMN IF NOT EXISTS ee_client_id TEXT,
      ADD COLUMN IF NOT EXISTS ee_client_secret TEXT;
    INSERT INTO hdb_catalog.hdb_version (version, upgraded_on) VALUES ('48', now());`);
}

/** get_catalog_state's cli_state, as the CLI reads it. */
async function cliState(db: TestDatabase): Promise<Record<string, unknown>> {
  const { rows } = await db.pool.query<{ cli_state: Record<string, unknown> }>(
    'SELECT cli_state::json AS cli_state FROM hdb_catalog.hdb_version',
  );
  return rows[0]!.cli_state;
}

async function setCliState(db: TestDatabase, state: unknown): Promise<void> {
  await db.pool.query('UPDATE hdb_catalog.hdb_version SET cli_state = $1', [JSON.stringify(state)]);
}

/** `hasura-cli migrate apply` of the image on a fresh database, for these migrations. */
async function imageApplies(db: TestDatabase, migrations: MigrationFile[]): Promise<void> {
  await serverCreatesCatalogVersion(db);
  // First run, no schema_migrations: the state copy is only marked done (Settings nil -> null).
  await setCliState(db, { settings: null, isStateCopyCompleted: true });
  const state = {
    migrations: {} as Record<string, Record<string, boolean>>,
    settings: { migration_mode: 'true' },
    isStateCopyCompleted: true,
  };
  await setCliState(db, state);
  for (const migration of migrations) {
    await db.pool.query(migration.upSql);
    state.migrations['default'] = { ...state.migrations['default'], [migration.version]: false };
    await setCliState(db, state);
  }
}

async function schemaMigrations(db: TestDatabase): Promise<string[]> {
  const { rows } = await db.pool.query<{ version: string }>(
    'SELECT version::text AS version FROM hdb_catalog.schema_migrations WHERE NOT dirty ORDER BY version',
  );
  return rows.map((row) => row.version);
}

/** The image's own expected state (catalog_cli_state.json), for these versions. */
function asTheImageLeavesIt(versions: string[]): unknown {
  return {
    isStateCopyCompleted: true,
    migrations: { default: Object.fromEntries(versions.map((v) => [v, false])) },
    settings: { migration_mode: 'true' },
  };
}

describe.each(databaseTargets)('Hasura CLI migration state on $name', (target) => {
  let db: TestDatabase;
  let files: MigrationFile[];
  let versions: string[];
  beforeAll(async () => {
    db = await target.create();
    files = await loadMigrationFiles(DEFAULT_MIGRATIONS_DIR);
    versions = files.map((file) => file.version);
  });
  afterAll(async () => {
    await db.dispose();
  });
  beforeEach(async () => {
    await db.pool.query(
      'DROP SCHEMA IF EXISTS auth, bot, hdb_catalog, public CASCADE; CREATE SCHEMA public;',
    );
  });

  it('a database the image migrated: migrate and provision apply nothing and succeed', async () => {
    await imageApplies(db, files);

    expect(await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR)).toEqual([]);
    const provisioned = await provisionDatabase(db.url, {
      email: 'admin@example.com',
      password: 'a long enough admin password',
    });
    expect(provisioned.appliedMigrations).toEqual([]);
    // Both ledgers now say the same; the image's state is as it left it.
    expect(await schemaMigrations(db)).toEqual(versions);
    expect(await cliState(db)).toEqual(asTheImageLeavesIt(versions));
  });

  it('a migration newer than the image applied is applied once and recorded for it', async () => {
    await imageApplies(db, files.slice(0, -1));

    const applied = await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    expect(applied.map((m) => m.version)).toEqual([versions.at(-1)]);
    expect(await cliState(db)).toEqual(asTheImageLeavesIt(versions));
    expect(await schemaMigrations(db)).toEqual(versions);
  });

  it('migrated by us while the server has its catalog: the CLI reads every migration applied, not dirty', async () => {
    await serverCreatesCatalogVersion(db);
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);

    expect(await cliState(db)).toEqual(asTheImageLeavesIt(versions));
    // Rolling back removes it from both ledgers, as `hasura migrate apply --down 1` would.
    await migrateDown(db.pool, DEFAULT_MIGRATIONS_DIR);
    expect(await cliState(db)).toEqual(asTheImageLeavesIt(versions.slice(0, -1)));
    expect(await schemaMigrations(db)).toEqual(versions.slice(0, -1));
  });

  it('migrated by us before the server existed: hdb_version is not made, the state is completed later', async () => {
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    const { rows } = await db.pool.query<{ present: boolean }>(
      `SELECT to_regclass('hdb_catalog.hdb_version') IS NOT NULL AS present`,
    );
    expect(rows[0]!.present).toBe(false);

    // The server boots (cli_state '{}', the CLI's state copy not done yet); the next run fills
    // the state in as the CLI's copy of schema_migrations would.
    await serverCreatesCatalogVersion(db);
    expect(await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR)).toEqual([]);
    expect(await cliState(db)).toEqual(asTheImageLeavesIt(versions));
  });

  it('refuses a migration the CLI marked dirty, naming the ledger', async () => {
    await imageApplies(db, files.slice(0, 2));
    const state = asTheImageLeavesIt(versions.slice(0, 2)) as {
      migrations: { default: Record<string, boolean> };
    };
    state.migrations.default[versions[1]!] = true;
    await setCliState(db, state);

    await expect(migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR)).rejects.toThrow(
      new RegExp(`${versions[1]} \\(hdb_version.cli_state\\) is marked dirty`),
    );
    expect(await cliState(db)).toEqual(state);
  });

  it('refuses ledgers that contradict each other instead of skipping a migration', async () => {
    await serverCreatesCatalogVersion(db);
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    // Rolled back with the CLI: its state no longer lists the newest; schema_migrations does.
    await setCliState(db, asTheImageLeavesIt(versions.slice(0, -1)));

    await expect(migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR)).rejects.toThrow(
      /applied according to hdb_catalog.schema_migrations but not according to the Hasura CLI's state/,
    );
  });

  it('backs up what the image applied and restores a state the image accepts', async () => {
    await imageApplies(db, files);
    const dir = await mkdtemp(path.join(tmpdir(), 'cli-state-'));
    try {
      const backup = await backupDatabase(db.pool, { dir });
      expect(backup.migrations).toEqual(versions);

      const restored = await restoreDatabase(db.pool, backup.file, { force: true });
      expect(restored.migrations).toEqual(versions);
      expect(await schemaMigrations(db)).toEqual(versions);
      // No hdb_version of ours: the server makes its catalog, the CLI copies schema_migrations.
      const { rows } = await db.pool.query<{ present: boolean }>(
        `SELECT to_regclass('hdb_catalog.hdb_version') IS NOT NULL AS present`,
      );
      expect(rows[0]!.present).toBe(false);
      expect(await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import type { Pool, PoolClient } from 'pg';

import { compareVersions, loadMigrationFiles, type MigrationFile } from './migration-files.ts';

/*
 * Applies hasura/migrations the way `hasura migrate apply` does and records them in the
 * same ledger, hdb_catalog.schema_migrations (version, dirty), so a real Hasura deployment
 * pointed at this database sees the same state. Each migration runs in one transaction
 * together with its ledger row, so a failure leaves neither half applied.
 */

/** The ledger Hasura's CLI and engine image use (restore.ts creates it too). */
export const LEDGER_DDL = `
  CREATE SCHEMA IF NOT EXISTS hdb_catalog;
  CREATE TABLE IF NOT EXISTS hdb_catalog.schema_migrations (
    version bigint NOT NULL PRIMARY KEY,
    dirty boolean NOT NULL
  );`;

/** Serialises migration runs (and restores) of several processes on one database. */
export const MIGRATION_LOCK_KEY = 7_301_990_214;

export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    message: string,
    readonly migration?: Pick<MigrationFile, 'version' | 'name'>,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface MigrationStatus {
  version: string;
  name: string | undefined;
  applied: boolean;
  /** False for a version recorded in the database with no folder on disk. */
  onDisk: boolean;
}

async function withMigrationLock<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(LEDGER_DDL);
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

async function appliedVersions(client: PoolClient): Promise<Map<string, boolean>> {
  const { rows } = await client.query<{ version: string; dirty: boolean }>(
    'SELECT version::text AS version, dirty FROM hdb_catalog.schema_migrations',
  );
  return new Map(rows.map((row) => [row.version, row.dirty]));
}

function refuseDirty(applied: Map<string, boolean>): void {
  const dirty = [...applied].filter(([, isDirty]) => isDirty).map(([version]) => version);
  if (dirty.length > 0) {
    throw new MigrationError(
      `migration ${dirty.join(', ')} is marked dirty in hdb_catalog.schema_migrations: ` +
        'fix the database by hand, then clear the flag',
    );
  }
}

async function runInTransaction(
  client: PoolClient,
  migration: MigrationFile,
  sql: string,
  ledgerSql: string,
): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(sql);
    await client.query(ledgerSql, [migration.version]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      `migration ${migration.version}_${migration.name} failed: ${reason}`,
      migration,
      {
        cause: error,
      },
    );
  }
}

/** Applies every pending migration in version order; returns the ones it applied. */
export async function migrateUp(pool: Pool, dir: string): Promise<MigrationFile[]> {
  const migrations = await loadMigrationFiles(dir);
  return withMigrationLock(pool, async (client) => {
    const applied = await appliedVersions(client);
    refuseDirty(applied);
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await runInTransaction(
        client,
        migration,
        migration.upSql,
        'INSERT INTO hdb_catalog.schema_migrations (version, dirty) VALUES ($1, false)',
      );
    }
    return pending;
  });
}

export interface MigrateDownOptions {
  /** How many of the newest applied migrations to roll back; default 1. */
  steps?: number;
  /** Roll back every applied migration. */
  all?: boolean;
}

/** Rolls back the newest applied migrations with their down.sql; returns the ones undone. */
export async function migrateDown(
  pool: Pool,
  dir: string,
  options: MigrateDownOptions = {},
): Promise<MigrationFile[]> {
  const migrations = await loadMigrationFiles(dir);
  return withMigrationLock(pool, async (client) => {
    const applied = await appliedVersions(client);
    refuseDirty(applied);
    const appliedNewestFirst = [...applied.keys()].sort((a, b) => compareVersions(b, a));
    const count = options.all ? appliedNewestFirst.length : (options.steps ?? 1);
    const undone: MigrationFile[] = [];
    for (const version of appliedNewestFirst.slice(0, count)) {
      const migration = migrations.find((candidate) => candidate.version === version);
      if (!migration)
        throw new MigrationError(`applied migration ${version} has no folder on disk`);
      if (migration.downSql === undefined) {
        throw new MigrationError(`${version}_${migration.name} has no down.sql`, migration);
      }
      await runInTransaction(
        client,
        migration,
        migration.downSql,
        'DELETE FROM hdb_catalog.schema_migrations WHERE version = $1',
      );
      undone.push(migration);
    }
    return undone;
  });
}

/** Every migration on disk or in the ledger, oldest first, with whether it is applied. */
export async function migrationStatus(pool: Pool, dir: string): Promise<MigrationStatus[]> {
  const migrations = await loadMigrationFiles(dir);
  return withMigrationLock(pool, async (client) => {
    const applied = await appliedVersions(client);
    const versions = new Set([...migrations.map((m) => m.version), ...applied.keys()]);
    return [...versions].sort(compareVersions).map((version) => ({
      version,
      name: migrations.find((m) => m.version === version)?.name,
      applied: applied.has(version),
      onDisk: migrations.some((m) => m.version === version),
    }));
  });
}

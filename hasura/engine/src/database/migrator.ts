import type { Pool, PoolClient } from 'pg';

import {
  CLI_DATABASE,
  effectiveLedger,
  MigrationLedgerError,
  readLedgers,
  writeLedgers,
  type Ledgers,
} from './cli-state.ts';
import { compareVersions, loadMigrationFiles, type MigrationFile } from './migration-files.ts';

/*
 * Applies hasura/migrations the way `hasura migrate apply` does and records them where a real
 * Hasura deployment looks: in hdb_catalog.schema_migrations (config v2) and, once the official
 * server has created hdb_catalog.hdb_version, in its cli_state (config v3, what the
 * cli-migrations-v3 image reads and writes). A migration is applied if either ledger says so;
 * the two are brought in line whenever this runs (see cli-state.ts and decision 021). Each
 * migration runs in one transaction together with both ledgers' records, so a failure leaves
 * neither half applied.
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

/** Both ledgers (the hdb_version row locked) and what they say is applied; refuses unclear. */
async function readApplied(client: PoolClient): Promise<Ledgers & { applied: Set<string> }> {
  const ledgers = await readLedgers(client, { lock: true });
  try {
    const { applied, inSync } = effectiveLedger(ledgers);
    if (!inSync) {
      // e.g. migrations the image applied: recorded in schema_migrations too, and the catalog
      // state completed as the CLI's own state copy would.
      await writeLedgers(client, ledgers, applied);
    }
    return { ...ledgers, applied };
  } catch (error) {
    if (error instanceof MigrationLedgerError) throw new MigrationError(error.message);
    throw error;
  }
}

/**
 * Runs one migration's SQL and records `applied` (the applied set after it) in both ledgers,
 * in one transaction; the ledgers are read again inside it.
 */
async function runInTransaction(
  client: PoolClient,
  migration: MigrationFile,
  sql: string,
  applied: (before: Set<string>) => Set<string>,
): Promise<void> {
  await client.query('BEGIN');
  try {
    const ledgers = await readApplied(client);
    await client.query(sql);
    await writeLedgers(client, ledgers, applied(ledgers.applied));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    if (error instanceof MigrationError) throw error;
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

/** Reads (and, if they differ, reconciles) the ledgers in a transaction of its own. */
async function appliedVersions(client: PoolClient): Promise<Set<string>> {
  await client.query('BEGIN');
  try {
    const { applied } = await readApplied(client);
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** Applies every pending migration in version order; returns the ones it applied. */
export async function migrateUp(pool: Pool, dir: string): Promise<MigrationFile[]> {
  const migrations = await loadMigrationFiles(dir);
  return withMigrationLock(pool, async (client) => {
    const applied = await appliedVersions(client);
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await runInTransaction(
        client,
        migration,
        migration.upSql,
        (before) => new Set([...before, migration.version]),
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
    const appliedNewestFirst = [...applied].sort((a, b) => compareVersions(b, a));
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
        (before) => new Set([...before].filter((version) => version !== migration.version)),
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
    // Read only: a status never writes, and shows what either ledger records.
    const ledgers = await readLedgers(client);
    const applied = new Set([
      ...ledgers.v2.keys(),
      ...Object.keys(ledgers.cli?.migrations[CLI_DATABASE] ?? {}),
    ]);
    const versions = new Set([...migrations.map((m) => m.version), ...applied]);
    return [...versions].sort(compareVersions).map((version) => ({
      version,
      name: migrations.find((m) => m.version === version)?.name,
      applied: applied.has(version),
      onDisk: migrations.some((m) => m.version === version),
    }));
  });
}

export { DEFAULT_MIGRATIONS_DIR, DEFAULT_SEEDS_DIR, HASURA_PROJECT_DIR } from './project-paths.ts';
export { loadMigrationFiles, type MigrationFile } from './migration-files.ts';
export {
  migrateDown,
  migrateUp,
  migrationStatus,
  MigrationError,
  type MigrateDownOptions,
  type MigrationStatus,
} from './migrator.ts';
export { applySeeds } from './seeds.ts';
export { createPool } from './pool.ts';
export {
  createPreparedStatements,
  isSharedSessionDatabase,
  type PreparedStatements,
} from './prepared-statements.ts';
export {
  CLI_DATABASE,
  effectiveLedger,
  MigrationLedgerError,
  readLedgers,
  writeLedgers,
} from './cli-state.ts';
export { compareVersions } from './migration-files.ts';
export { LEDGER_DDL, MIGRATION_LOCK_KEY } from './migrator.ts';
// The engine's event catalog, which a restore recreates before loading hdb_catalog's rows.
export { CATALOG_DDL as EVENT_CATALOG_DDL } from '../events/catalog.ts';

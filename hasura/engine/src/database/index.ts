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
  backupDatabase,
  BackupError,
  BACKUP_SCHEMAS,
  DEFAULT_BACKUP_DIR,
  type BackupHeader,
} from './backup.ts';
export { restoreDatabase, RestoreError, RestoreRefusedError } from './restore.ts';

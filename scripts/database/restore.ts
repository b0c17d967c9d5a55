import type pg from 'pg';

import {
  DEFAULT_MIGRATIONS_DIR,
  EVENT_CATALOG_DDL,
  loadMigrationFiles,
  MIGRATION_LOCK_KEY,
} from '@app/engine/database';

import {
  BACKUP_SCHEMAS,
  ident,
  LEDGER_TABLE,
  listTables,
  NO_TIMEOUTS,
  qualified,
  tableKey,
  type BackupColumn,
  type SequenceState,
  type TableCount,
  type TableInfo,
} from './backup.ts';
import {
  occupied,
  hasRows,
  dropSchemas,
  applyMigrations,
  resetSequences,
} from './restore-database.ts';
import { RestoreError, RestoreRefusedError } from './restore-errors.ts';
import { BackupReader, readHeader, migrationsToApply } from './restore-file.ts';
import {
  chooseTriggerMode,
  disableTriggers,
  enableTriggers,
  deferForeignKeys,
  checkForeignKeys,
  verifyForeignKeys,
  type TriggerMode,
} from './restore-triggers.ts';

/*
 * Restores a file written by backupDatabase (see backup.ts for the format and the procedure).
 * Everything happens in one transaction on one connection: the checks, dropping the schemas
 * (--force), the migrations, the load and the sequences. An error anywhere rolls it all back.
 */

export interface RestoreOptions {
  /** Drop the schemas public, auth, bot and hdb_catalog first, whatever they hold. */
  force?: boolean;
  /** Where the migrations are; default hasura/migrations/default. */
  migrationsDir?: string;
  triggers?: 'auto' | TriggerMode;
  /** Rows per INSERT; default 1000. */
  batchRows?: number;
  /** Characters of JSON per INSERT; default 4 MiB. */
  batchChars?: number;
}

export interface RestoreResult {
  file: string;
  /** When the backup was made. */
  createdAt: string;
  /** The migrations applied (the backup's), oldest first. */
  migrations: string[];
  tables: TableCount[];
  rows: number;
  /** hdb_catalog tables in the backup that neither the migrations nor the engine create. */
  skipped: string[];
  triggerMode: TriggerMode;
  /** Whether --force dropped the schemas. */
  replaced: boolean;
  /** Things that did not stop the restore but deserve a look. */
  warnings: string[];
}

function sameColumns(backup: BackupColumn[], target: BackupColumn[]): string | undefined {
  const describe = (columns: BackupColumn[]) =>
    new Set(columns.filter((c) => !c.generated).map((c) => `${c.name} ${c.type}`));
  const wanted = describe(backup);
  const have = describe(target);
  const missing = [...wanted].filter((column) => !have.has(column));
  const extra = [...have].filter((column) => !wanted.has(column));
  if (missing.length === 0 && extra.length === 0) return undefined;
  return [
    missing.length ? `the backup has ${missing.join(', ')}` : '',
    extra.length ? `the database has ${extra.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** Loads one table section's rows (already past its header line) in batches. */
async function loadRows(
  client: pg.ClientBase,
  reader: BackupReader,
  count: number,
  target: TableInfo | undefined,
  options: { batchRows: number; batchChars: number },
): Promise<void> {
  const columns = target?.columns.filter((column) => !column.generated) ?? [];
  const list = columns.map((column) => ident(column.name)).join(', ');
  const overriding = target?.columns.some((column) => column.identity)
    ? ' OVERRIDING SYSTEM VALUE'
    : '';
  const insert = target
    ? `INSERT INTO ${qualified(target)} (${list})${overriding}
       SELECT ${list} FROM json_populate_recordset(NULL::${qualified(target)}, $1::json)`
    : '';
  let batch: string[] = [];
  let chars = 0;
  let firstLine = reader.line + 1;
  const flush = async () => {
    if (batch.length === 0) return;
    if (target) {
      try {
        // Each row is the server's own JSON text, sent back as is.
        await client.query(insert, [`[${batch.join(',')}]`]);
      } catch (error) {
        throw new RestoreError(
          `${reader.file} lines ${firstLine}-${reader.line} (${tableKey(target)}): ` +
            (error as Error).message,
        );
      }
    }
    batch = [];
    chars = 0;
    firstLine = reader.line + 1;
  };
  for (let i = 0; i < count; i++) {
    const line = await reader.expect(`row ${i + 1} of ${count}`);
    if (!line.startsWith('{') || !line.endsWith('}')) {
      throw reader.invalid(`expected a row (a JSON object)`);
    }
    batch.push(line);
    chars += line.length;
    if (batch.length >= options.batchRows || chars >= options.batchChars) await flush();
  }
  await flush();
}

/**
 * Restores a backup into the database (see backup.ts). Refuses a database that already has the
 * product's tables, migrations or data unless `force`; refuses a backup this checkout cannot
 * reproduce. Nothing is changed unless everything succeeds.
 */
export async function restoreDatabase(
  pool: pg.Pool,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const batchOptions = {
    batchRows: options.batchRows ?? 1000,
    batchChars: options.batchChars ?? 4 * 1024 * 1024,
  };
  const reader = new BackupReader(file);
  let client: pg.PoolClient | undefined;
  let inTransaction = false;
  let broken = false;
  try {
    const header = await readHeader(reader);
    const migrations = migrationsToApply(
      header,
      await loadMigrationFiles(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR),
    );
    const warnings: string[] = [];

    client = await pool.connect();
    await client.query('BEGIN');
    inTransaction = true;
    await client.query(NO_TIMEOUTS);
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);

    const reason = await occupied(client);
    if (reason !== undefined && !options.force) {
      throw new RestoreRefusedError(
        `the database already has ${reason}; restore into an empty database, or pass --force ` +
          'to drop the schemas public, auth, bot and hdb_catalog and replace them with the backup',
      );
    }
    if (options.force) await dropSchemas(client, warnings);
    await applyMigrations(client, migrations);
    // The engine's event log and cron tables, as the engine creates them on start.
    await client.query(EVENT_CATALOG_DDL);

    const targets = new Map(
      (await listTables(client, BACKUP_SCHEMAS)).map((table) => [tableKey(table), table]),
    );
    const skipped: string[] = [];
    const loaded: TableInfo[] = [];
    for (const entry of header.tables) {
      const key = tableKey(entry);
      const target = targets.get(key);
      if (key === LEDGER_TABLE) {
        skipped.push(key);
      } else if (target) {
        loaded.push(target);
      } else if (entry.schema === 'hdb_catalog') {
        skipped.push(key);
      } else {
        throw new RestoreError(
          `the backup has a table ${key} that its migrations do not create here; ` +
            'the migrations of this checkout differ from those the backup was made with',
        );
      }
    }

    const triggerMode = await chooseTriggerMode(client, options.triggers ?? 'auto');
    const disabled = await disableTriggers(client, loaded, triggerMode);
    const deferred = triggerMode === 'replica' ? [] : await deferForeignKeys(client, loaded);
    // Rows the migrations or the catalog put there (e.g. affiliate_settings' one row) give way
    // to the backup's; children first.
    for (const table of [...loaded].reverse()) {
      if (await hasRows(client, table)) await client.query(`DELETE FROM ${qualified(table)}`);
    }

    let total = 0;
    for (const entry of header.tables) {
      const section = await reader.expectObject(`the section of table ${tableKey(entry)}`);
      if (
        section['type'] !== 'table' ||
        section['schema'] !== entry.schema ||
        section['name'] !== entry.name ||
        section['rows'] !== entry.rows ||
        !Array.isArray(section['columns'])
      ) {
        throw reader.invalid(`expected the section of table ${tableKey(entry)}`);
      }
      const target = skipped.includes(tableKey(entry)) ? undefined : targets.get(tableKey(entry));
      if (target) {
        const difference = sameColumns(section['columns'] as BackupColumn[], target.columns);
        if (difference !== undefined) {
          throw new RestoreError(
            `table ${tableKey(entry)} differs between the backup and the database (${difference})`,
          );
        }
      }
      await loadRows(client, reader, entry.rows, target, batchOptions);
      if (target) total += entry.rows;
    }

    const sequences = await reader.expectObject('the sequences');
    if (sequences['type'] !== 'sequences' || !Array.isArray(sequences['sequences'])) {
      throw reader.invalid('expected the sequences');
    }
    const end = await reader.expectObject('the end of the backup');
    const expectedRows = header.tables.reduce((sum, table) => sum + table.rows, 0);
    if (
      end['type'] !== 'end' ||
      end['tables'] !== header.tables.length ||
      end['rows'] !== expectedRows
    ) {
      throw reader.invalid('expected the end of the backup, with matching counts');
    }
    // Reading to the end also has gzip check the file's checksum.
    if ((await reader.next()) !== undefined) throw reader.invalid('unexpected lines after the end');

    await resetSequences(client, sequences['sequences'] as SequenceState[], warnings);
    // Deferred foreign-key checks run first: ALTER TABLE refuses a table with pending ones.
    if (triggerMode === 'replica') await verifyForeignKeys(client, loaded);
    else await checkForeignKeys(client, deferred);
    await enableTriggers(client, disabled);
    await client.query('COMMIT');
    inTransaction = false;

    return {
      file,
      createdAt: header.createdAt,
      migrations: migrations.map((migration) => migration.version),
      tables: header.tables.filter((table) => !skipped.includes(tableKey(table))),
      rows: total,
      skipped,
      triggerMode,
      replaced: options.force === true,
      warnings,
    };
  } catch (error) {
    if (inTransaction) {
      await client?.query('ROLLBACK').catch(() => {
        broken = true;
      });
    }
    if (error instanceof RestoreError) throw error;
    throw new RestoreError((error as Error).message, { cause: error });
  } finally {
    await reader.dispose();
    client?.release(broken);
  }
}

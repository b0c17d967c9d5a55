import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

import type pg from 'pg';

import {
  compareVersions,
  DEFAULT_MIGRATIONS_DIR,
  EVENT_CATALOG_DDL,
  LEDGER_DDL,
  loadMigrationFiles,
  MIGRATION_LOCK_KEY,
  MigrationLedgerError,
  readLedgers,
  writeLedgers,
  type MigrationFile,
} from '@app/engine/database';

import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BACKUP_SCHEMAS,
  ident,
  LEDGER_TABLE,
  listTables,
  NO_TIMEOUTS,
  qualified,
  readLedger,
  tableKey,
  type BackupColumn,
  type BackupHeader,
  type SequenceState,
  type TableCount,
  type TableInfo,
} from './backup.ts';

/*
 * Restores a file written by backupDatabase (see backup.ts for the format and the procedure).
 * Everything happens in one transaction on one connection: the checks, dropping the schemas
 * (--force), the migrations, the load and the sequences. An error anywhere rolls it all back.
 */

/** hdb_catalog tables that hold no data of their own: the ledger and the catalog version. */
const BOOKKEEPING_TABLES = new Set([LEDGER_TABLE, 'hdb_catalog.hdb_source_catalog_version']);

/** A line longer than this is not a backup line: the file is damaged. */
const MAX_LINE_CHARS = 256 * 1024 * 1024;

export class RestoreError extends Error {
  override name = 'RestoreError';
}

/** The target database already has the product's tables or data, and --force was not given. */
export class RestoreRefusedError extends RestoreError {
  override name = 'RestoreRefusedError';
}

/**
 * How user triggers are kept from firing during the load:
 *  - `replica`: `SET LOCAL session_replication_role = replica` (needs superuser, or on
 *    PostgreSQL 15+ the SET privilege on that parameter); ENABLE ALWAYS/REPLICA triggers of
 *    the loaded tables are disabled by name as well. Foreign keys are not checked.
 *  - `disable-triggers`: `ALTER TABLE … DISABLE TRIGGER` for each user trigger of the loaded
 *    tables (needs table ownership), re-enabled as they were before COMMIT; foreign keys are
 *    deferred to the end of the load and checked there.
 * `auto` (the default) tries `replica` and falls back to `disable-triggers`.
 */
export type TriggerMode = 'replica' | 'disable-triggers';

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

// ---------------------------------------------------------------------------------------------
// Reading the file

/** The lines of a gzip'd file, one at a time, with the line number of the last one read. */
class BackupReader {
  line = 0;
  private readonly lines: AsyncGenerator<string, void, undefined>;
  private close: () => void = () => {};

  constructor(readonly file: string) {
    this.lines = this.read();
  }

  private async *read(): AsyncGenerator<string, void, undefined> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch (error) {
      throw new RestoreError(`cannot read ${this.file}: ${(error as Error).message}`);
    }
    const source = handle.createReadStream();
    const gunzip = createGunzip();
    source.on('error', (error) => gunzip.destroy(error));
    this.close = () => {
      source.destroy();
      gunzip.destroy();
    };
    source.pipe(gunzip);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        // Only the new text can hold a line end: a long line is not scanned again and again.
        const scanned = rest.length;
        rest += decoder.write(chunk);
        let start = 0;
        for (let end = rest.indexOf('\n', scanned); end !== -1; end = rest.indexOf('\n', start)) {
          yield rest.slice(start, end);
          start = end + 1;
        }
        rest = rest.slice(start);
        if (rest.length > MAX_LINE_CHARS) throw new RestoreError('a line is implausibly long');
      }
    } catch (error) {
      if (error instanceof RestoreError) throw this.damaged(error.message);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'Z_DATA_ERROR' && this.line === 0) {
        throw new RestoreError(
          `${this.file} is not a gzip'd backup file (${(error as Error).message})`,
        );
      }
      throw this.damaged((error as Error).message);
    } finally {
      this.close();
    }
    rest += decoder.end();
    if (rest.length > 0) throw this.damaged('it ends in the middle of a line');
  }

  damaged(reason: string): RestoreError {
    return new RestoreError(
      `${this.file} is damaged or truncated (after line ${this.line}: ${reason})`,
    );
  }

  /** The next line, or undefined at the end of the file. */
  async next(): Promise<string | undefined> {
    const result = await this.lines.next();
    if (result.done) return undefined;
    this.line += 1;
    return result.value;
  }

  /** The next line, which must exist. */
  async expect(what: string): Promise<string> {
    const line = await this.next();
    if (line === undefined) throw this.damaged(`the file ends where ${what} was expected`);
    return line;
  }

  /** The next line as a JSON object (control lines only: their numbers are small counts). */
  async expectObject(what: string): Promise<Record<string, unknown>> {
    const line = await this.expect(what);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw this.invalid(`${what} is not valid JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.invalid(`${what} is not a JSON object`);
    }
    return value as Record<string, unknown>;
  }

  invalid(reason: string): RestoreError {
    return new RestoreError(`${this.file} line ${this.line}: ${reason}; not a valid backup`);
  }

  async dispose(): Promise<void> {
    this.close();
    await this.lines.return(undefined).catch(() => {});
  }
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const isVersion = (value: string) => /^\d{1,18}$/.test(value);

async function readHeader(reader: BackupReader): Promise<BackupHeader> {
  const header = await reader.expectObject('the header');
  if (header['format'] !== BACKUP_FORMAT) {
    throw reader.invalid(`the header does not name the format ${JSON.stringify(BACKUP_FORMAT)}`);
  }
  const formatVersion = header['formatVersion'];
  if (!isCount(formatVersion) || formatVersion < 1) throw reader.invalid('no formatVersion');
  if (formatVersion > BACKUP_FORMAT_VERSION) {
    throw new RestoreError(
      `the backup uses format version ${formatVersion}, newer than this checkout reads ` +
        `(${BACKUP_FORMAT_VERSION}); update the checkout`,
    );
  }
  const { migrations, dirtyMigrations, tables, createdAt, serverVersion } = header;
  if (!isStringArray(migrations) || !migrations.every(isVersion)) {
    throw reader.invalid('the header has no valid list of migrations');
  }
  if (!isStringArray(dirtyMigrations)) throw reader.invalid('the header has no dirtyMigrations');
  if (
    !Array.isArray(tables) ||
    !tables.every(
      (table: unknown) =>
        typeof table === 'object' &&
        table !== null &&
        typeof (table as TableCount).schema === 'string' &&
        typeof (table as TableCount).name === 'string' &&
        isCount((table as TableCount).rows),
    )
  ) {
    throw reader.invalid('the header has no valid list of tables');
  }
  if (typeof createdAt !== 'string' || typeof serverVersion !== 'string') {
    throw reader.invalid('the header has no createdAt or serverVersion');
  }
  return {
    format: BACKUP_FORMAT,
    formatVersion,
    createdAt,
    serverVersion,
    migrations: migrations.map((version) => BigInt(version).toString()),
    dirtyMigrations,
    schemas: isStringArray(header['schemas']) ? header['schemas'] : [...BACKUP_SCHEMAS],
    tables: (tables as TableCount[]).map(({ schema, name, rows }) => ({ schema, name, rows })),
  };
}

/** The backup's migrations as this checkout has them, oldest first; refuses unknown ones. */
function migrationsToApply(header: BackupHeader, local: MigrationFile[]): MigrationFile[] {
  if (header.dirtyMigrations.length > 0) {
    throw new RestoreError(
      `the backup was made while migration ${header.dirtyMigrations.join(', ')} was marked dirty ` +
        '(half applied); its schema cannot be reproduced',
    );
  }
  const byVersion = new Map(local.map((migration) => [migration.version, migration]));
  const unknown = header.migrations.filter((version) => !byVersion.has(version));
  if (unknown.length > 0) {
    throw new RestoreError(
      `the backup was made at migration ${unknown.join(', ')}, which this checkout does not ` +
        'have; restore it with a checkout that has every migration of the backup',
    );
  }
  return [...new Set(header.migrations)]
    .sort(compareVersions)
    .map((version) => byVersion.get(version)!);
}

// ---------------------------------------------------------------------------------------------
// The target database

async function hasRows(client: pg.ClientBase, table: TableInfo): Promise<boolean> {
  const { rows } = await client.query<{ present: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${qualified(table)}) AS present`,
  );
  return rows[0]!.present;
}

/** Why the database is not empty enough for a restore without --force, or undefined. */
async function occupied(client: pg.ClientBase): Promise<string | undefined> {
  const product = await listTables(client, ['public', 'auth', 'bot']);
  const engine = (await listTables(client, ['hdb_catalog'])).filter(
    (table) => !BOOKKEEPING_TABLES.has(tableKey(table)),
  );
  const withRows: string[] = [];
  for (const table of [...product, ...engine]) {
    if (await hasRows(client, table)) withRows.push(tableKey(table));
  }
  if (withRows.length > 0) {
    const shown = withRows.slice(0, 5).join(', ');
    const more = withRows.length > 5 ? ` and ${withRows.length - 5} more tables` : '';
    return `product data (rows in ${shown}${more})`;
  }
  if (product.length > 0) return `the product's tables (${product.length}, all empty)`;
  const { migrations } = await readLedger(client);
  if (migrations.length > 0) return `applied migrations (${migrations.length})`;
  return undefined;
}

/**
 * --force: drops the product's schemas. `public` is made again with the owner and the grants
 * it had (PostgreSQL 15+ gives it to pg_database_owner with USAGE for everyone).
 */
async function dropSchemas(client: pg.ClientBase, warnings: string[]): Promise<void> {
  const { rows: owner } = await client.query<{ owner: string }>(
    `SELECT nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = 'public'`,
  );
  const { rows: grants } = await client.query<{
    grantee: string;
    privilege: string;
    grantable: boolean;
  }>(
    `SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END AS grantee,
            a.privilege_type AS privilege, a.is_grantable AS grantable
       FROM pg_namespace n CROSS JOIN LATERAL aclexplode(n.nspacl) AS a
      WHERE n.nspname = 'public' AND a.grantee <> n.nspowner`,
  );
  await client.query('DROP SCHEMA IF EXISTS auth, bot, hdb_catalog, public CASCADE');
  await client.query('CREATE SCHEMA public');
  const owned = owner[0]?.owner;
  const settle = async (sql: string) => {
    await client.query('SAVEPOINT restore_public_schema');
    try {
      await client.query(sql);
      await client.query('RELEASE SAVEPOINT restore_public_schema');
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT restore_public_schema');
      warnings.push(`schema public: ${sql} failed (${(error as Error).message})`);
    }
  };
  if (owned) await settle(`ALTER SCHEMA public OWNER TO ${owned}`);
  for (const grant of grants) {
    await settle(
      `GRANT ${grant.privilege} ON SCHEMA public TO ${grant.grantee}` +
        (grant.grantable ? ' WITH GRANT OPTION' : ''),
    );
  }
}

async function applyMigrations(client: pg.ClientBase, migrations: MigrationFile[]): Promise<void> {
  await client.query(LEDGER_DDL);
  for (const migration of migrations) {
    try {
      await client.query(migration.upSql);
    } catch (error) {
      throw new RestoreError(
        `migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
      );
    }
  }
  // Both ledgers, as db:migrate records them: schema_migrations, and the Hasura CLI's catalog
  // state if the official server's hdb_version is there (it is not after --force, which drops
  // hdb_catalog: the image's CLI then copies schema_migrations on its first run).
  let ledgers;
  try {
    ledgers = await readLedgers(client, { lock: true });
  } catch (error) {
    if (error instanceof MigrationLedgerError) throw new RestoreError(error.message);
    throw error;
  }
  await writeLedgers(client, ledgers, new Set(migrations.map((migration) => migration.version)));
}

async function chooseTriggerMode(
  client: pg.ClientBase,
  wanted: RestoreOptions['triggers'],
): Promise<TriggerMode> {
  if (wanted === 'disable-triggers') return wanted;
  await client.query('SAVEPOINT restore_replication_role');
  try {
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query('RELEASE SAVEPOINT restore_replication_role');
    return 'replica';
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT restore_replication_role');
    if (wanted === 'replica') {
      throw new RestoreError(
        `cannot SET session_replication_role = replica: ${(error as Error).message}`,
      );
    }
    return 'disable-triggers';
  }
}

interface TriggerState {
  table: TableInfo;
  name: string;
  /** pg_trigger.tgenabled: O (origin), A (always), R (replica), D (disabled). */
  enabled: string;
}

/** Disables the user triggers that would fire during the load; returns them for re-enabling. */
async function disableTriggers(
  client: pg.ClientBase,
  tables: TableInfo[],
  mode: TriggerMode,
): Promise<TriggerState[]> {
  const byOid = new Map(tables.map((table) => [table.oid, table]));
  const { rows } = await client.query<{ oid: string; name: string; enabled: string }>(
    `SELECT tgrelid::text AS oid, tgname AS name, tgenabled::text AS enabled
       FROM pg_trigger WHERE tgrelid = ANY($1::oid[]) AND NOT tgisinternal
      ORDER BY tgrelid, tgname`,
    [[...byOid.keys()]],
  );
  // Under replica, only ALWAYS and REPLICA triggers would still fire.
  const firing = mode === 'replica' ? ['A', 'R'] : ['O', 'A', 'R'];
  const disabled: TriggerState[] = [];
  for (const row of rows) {
    if (!firing.includes(row.enabled)) continue;
    const table = byOid.get(row.oid)!;
    await client.query(`ALTER TABLE ${qualified(table)} DISABLE TRIGGER ${ident(row.name)}`);
    disabled.push({ table, name: row.name, enabled: row.enabled });
  }
  return disabled;
}

async function enableTriggers(client: pg.ClientBase, triggers: TriggerState[]): Promise<void> {
  for (const trigger of triggers) {
    const how =
      trigger.enabled === 'A'
        ? 'ENABLE ALWAYS'
        : trigger.enabled === 'R'
          ? 'ENABLE REPLICA'
          : 'ENABLE';
    await client.query(
      `ALTER TABLE ${qualified(trigger.table)} ${how} TRIGGER ${ident(trigger.name)}`,
    );
  }
}

interface DeferredKey {
  table: { schema: string; name: string };
  name: string;
}

/**
 * Without replica mode the foreign keys are checked: they are all deferred to the end of the
 * load (so self-references and row order do not matter), the non-deferrable ones made
 * deferrable for the while. Returns those, to be put back.
 */
async function deferForeignKeys(
  client: pg.ClientBase,
  tables: TableInfo[],
): Promise<DeferredKey[]> {
  const { rows } = await client.query<{ schema: string; table: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS table, con.conname AS name
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE con.contype = 'f' AND NOT con.condeferrable
        AND (con.conrelid = ANY($1::oid[]) OR con.confrelid = ANY($1::oid[]))
      ORDER BY 1, 2, 3`,
    [tables.map((table) => table.oid)],
  );
  const altered: DeferredKey[] = [];
  for (const row of rows) {
    const key = { table: { schema: row.schema, name: row.table }, name: row.name };
    await client.query(
      `ALTER TABLE ${qualified(key.table)} ALTER CONSTRAINT ${ident(key.name)} DEFERRABLE INITIALLY DEFERRED`,
    );
    altered.push(key);
  }
  await client.query('SET CONSTRAINTS ALL DEFERRED');
  return altered;
}

async function checkForeignKeys(client: pg.ClientBase, altered: DeferredKey[]): Promise<void> {
  try {
    await client.query('SET CONSTRAINTS ALL IMMEDIATE');
  } catch (error) {
    throw new RestoreError(`the restored rows break a foreign key: ${(error as Error).message}`);
  }
  for (const key of altered) {
    await client.query(
      `ALTER TABLE ${qualified(key.table)} ALTER CONSTRAINT ${ident(key.name)} NOT DEFERRABLE INITIALLY IMMEDIATE`,
    );
  }
}

/**
 * Under replica the foreign keys were not checked during the load: checks every one of the
 * loaded tables now (MATCH SIMPLE: a row with a NULL in the key references nothing).
 */
async function verifyForeignKeys(client: pg.ClientBase, tables: TableInfo[]): Promise<void> {
  const { rows } = await client.query<{
    name: string;
    child: string;
    parent: string;
    child_columns: string[];
    parent_columns: string[];
  }>(
    `SELECT con.conname AS name, con.conrelid::regclass::text AS child,
            con.confrelid::regclass::text AS parent,
            (SELECT array_agg(a.attname::text ORDER BY k.position)
               FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, position)
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum)
              AS child_columns,
            (SELECT array_agg(a.attname::text ORDER BY k.position)
               FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, position)
               JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum)
              AS parent_columns
       FROM pg_constraint con
      WHERE con.contype = 'f' AND con.conrelid = ANY($1::oid[])
      ORDER BY 2, 1`,
    [tables.map((table) => table.oid)],
  );
  for (const key of rows) {
    const present = key.child_columns.map((column) => `c.${ident(column)} IS NOT NULL`);
    const matches = key.child_columns.map(
      (column, i) => `p.${ident(key.parent_columns[i]!)} = c.${ident(column)}`,
    );
    const { rowCount } = await client.query(
      `SELECT 1 FROM ${key.child} AS c
        WHERE ${present.join(' AND ')}
          AND NOT EXISTS (SELECT 1 FROM ${key.parent} AS p WHERE ${matches.join(' AND ')})
        LIMIT 1`,
    );
    if (rowCount) {
      throw new RestoreError(
        `the backup's rows break foreign key ${key.name} of ${key.child}: ` +
          `a row references a ${key.parent} row that is not there`,
      );
    }
  }
}

/**
 * Sets every sequence as the backup recorded it, then moves any sequence that a column owns
 * (identity, serial) past the largest restored value, so new rows never collide.
 */
async function resetSequences(
  client: pg.ClientBase,
  recorded: SequenceState[],
  warnings: string[],
): Promise<void> {
  const { rows: present } = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind = 'S'`,
    [BACKUP_SCHEMAS],
  );
  const exists = new Set(present.map(tableKey));
  for (const sequence of recorded) {
    if (!exists.has(tableKey(sequence))) {
      warnings.push(`sequence ${tableKey(sequence)} of the backup does not exist; skipped`);
      continue;
    }
    await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
      qualified(sequence),
      sequence.lastValue,
      sequence.isCalled,
    ]);
  }
  const { rows: owned } = await client.query<{
    seq_schema: string;
    seq_name: string;
    schema: string;
    table: string;
    column: string;
    increment: string;
  }>(
    `SELECT sn.nspname AS seq_schema, s.relname AS seq_name, tn.nspname AS schema,
            t.relname AS table, a.attname AS column, ps.seqincrement::text AS increment
       FROM pg_depend d
       JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_namespace sn ON sn.oid = s.relnamespace
       JOIN pg_sequence ps ON ps.seqrelid = s.oid
       JOIN pg_class t ON t.oid = d.refobjid
       JOIN pg_namespace tn ON tn.oid = t.relnamespace
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
        AND d.deptype IN ('a', 'i') AND tn.nspname = ANY($1::text[])
      ORDER BY 1, 2`,
    [BACKUP_SCHEMAS],
  );
  for (const row of owned) {
    if (BigInt(row.increment) < 0n) continue; // descending sequences: left as recorded
    const sequence = qualified({ schema: row.seq_schema, name: row.seq_name });
    const { rows: top } = await client.query<{ max: string | null }>(
      `SELECT max(${ident(row.column)})::text AS max FROM ${qualified({ schema: row.schema, name: row.table })}`,
    );
    const max = top[0]?.max;
    if (max === null || max === undefined || !/^-?\d+$/.test(max)) continue;
    const { rows: state } = await client.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM ${sequence}`,
    );
    const last = BigInt(state[0]!.last_value);
    const next = state[0]!.is_called ? last + BigInt(row.increment) : last;
    if (next <= BigInt(max)) {
      await client.query('SELECT setval($1::regclass, $2::bigint, true)', [sequence, max]);
    }
  }
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

// ---------------------------------------------------------------------------------------------
// The restore

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

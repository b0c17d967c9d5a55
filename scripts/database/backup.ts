/*
 * Backup and restore
 * ------------------
 * `npm run db:backup [-- --out FILE]` writes a logical backup of the database at DATABASE_URL
 * (a server, or the embedded database's URL that `npm start` prints) over the ordinary `pg`
 * protocol, so no PostgreSQL client tools (pg_dump) are needed. It reads one consistent snapshot
 * (a single REPEATABLE READ READ ONLY transaction) of every table of the schemas public, auth,
 * bot and hdb_catalog (views excluded) and writes gzip'd JSON lines, by default to
 * `.data/backups/backup-<UTC timestamp>.jsonl.gz`, printing the path and each table's row count.
 *
 * `npm run db:restore -- [--force] FILE` loads such a file into the database at DATABASE_URL in
 * ONE transaction: it applies exactly the migrations the backup was made at (refusing a backup
 * with a migration this checkout does not have), creates the engine's event catalog, loads every
 * table with user triggers disabled (so guards, status history and bonus accrual do not fire
 * again; `session_replication_role = replica` where permitted, else ALTER TABLE … DISABLE
 * TRIGGER), checks every foreign key of the loaded rows, and sets every sequence to continue
 * after the restored rows (identity numbers go on where the original's would). It refuses a
 * database that already has the product's tables or data unless `--force`, which drops the
 * schemas public, auth, bot and hdb_catalog first. Any error (a damaged or truncated file, a
 * refused check) rolls everything back, leaving the database as it was. Stop the services
 * before a restore and start them again after (`npm start` re-applies newer migrations and
 * seeds, and the engine reinstalls its event triggers); undelivered events in the backup are
 * delivered then.
 *
 * File format (formatVersion 1), one JSON value per line:
 *   1. header: {format, formatVersion, createdAt, serverVersion, migrations (the ledger's
 *      versions), dirtyMigrations, schemas, tables: [{schema, name, rows}] in load order};
 *   2. per table, in foreign-key-safe order: {type: "table", schema, name, columns, primaryKey,
 *      rows: N}, then exactly N lines, each a row as PostgreSQL's `to_jsonb(row)::text`, written
 *      as the server sent it (numeric keeps its exact digits; nothing passes through a JS float);
 *   3. {type: "sequences", sequences: [{schema, name, lastValue, isCalled}]};
 *   4. {type: "end", tables, rows}.
 * The ledger hdb_catalog.schema_migrations is recorded in the header, not as a table: a restore
 * rebuilds it by applying the migrations. The header's migrations are those either ledger
 * records, schema_migrations or the Hasura CLI's catalog state (hdb_version.cli_state, where the
 * official cli-migrations image records what it applied; cli-state.ts, decision 021); a backup
 * refuses ledgers that contradict each other. hdb_version itself is saved like any table, but a
 * restore skips it (our engine does not create the official metadata catalog), so the restored
 * database has the v2 ledger only, which the image's CLI copies into its state on first boot.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

import type pg from 'pg';

import {
  CLI_DATABASE,
  effectiveLedger,
  MigrationLedgerError,
  readLedgers,
} from '@app/engine/database';

export const BACKUP_FORMAT = 'exchange-portal-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** The schemas a backup covers: the product's, the auth service's, the bot's, the engine's. */
export const BACKUP_SCHEMAS = ['public', 'auth', 'bot', 'hdb_catalog'] as const;

/** Where backups go by default, relative to the working directory (like .data/pglite). */
export const DEFAULT_BACKUP_DIR = path.join('.data', 'backups');

/** The migrations ledger: kept in the header, rebuilt on restore by applying the migrations. */
export const LEDGER_TABLE = 'hdb_catalog.schema_migrations';

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupColumn {
  name: string;
  /** format_type() of the column, e.g. `numeric(8,6)`. */
  type: string;
  /** A generated column (STORED): never loaded, the database computes it again. */
  generated: boolean;
  /** An identity column (GENERATED ALWAYS / BY DEFAULT AS IDENTITY). */
  identity: boolean;
}

export interface TableCount {
  schema: string;
  name: string;
  rows: number;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  serverVersion: string;
  /** Applied versions (either ledger), oldest first, as strings (they are bigints). */
  migrations: string[];
  /** Versions the ledger marks dirty; a restore refuses such a backup. */
  dirtyMigrations: string[];
  schemas: string[];
  /** Every table section of the file, in file (load) order. */
  tables: TableCount[];
}

export interface TableSection {
  type: 'table';
  schema: string;
  name: string;
  columns: BackupColumn[];
  primaryKey: string[];
  rows: number;
}

export interface SequenceState {
  schema: string;
  name: string;
  lastValue: string;
  isCalled: boolean;
}

export interface SequencesSection {
  type: 'sequences';
  sequences: SequenceState[];
}

export interface EndSection {
  type: 'end';
  tables: number;
  rows: number;
}

/** A table as the catalog describes it. */
export interface TableInfo {
  oid: string;
  schema: string;
  name: string;
  columns: BackupColumn[];
  primaryKey: string[];
}

/** Double-quotes an identifier for SQL. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function qualified(table: { schema: string; name: string }): string {
  return `${ident(table.schema)}.${ident(table.name)}`;
}

export function tableKey(table: { schema: string; name: string }): string {
  return `${table.schema}.${table.name}`;
}

/**
 * Transaction-local settings (the embedded database shares one session between its clients):
 * lift the timeouts a server may impose on long statements and idle transactions.
 */
export const NO_TIMEOUTS = `
  SET LOCAL statement_timeout = 0;
  SET LOCAL idle_in_transaction_session_timeout = 0;`;

/**
 * For a backup, also pin every text form that could vary with the server's configuration: UTC
 * offsets, shortest-exact floats, ISO intervals, hex bytea. (A restore needs none of them: each
 * form is read back whatever the settings.)
 */
const BACKUP_SETTINGS = `${NO_TIMEOUTS}
  SET LOCAL TIME ZONE 'UTC';
  SET LOCAL extra_float_digits = 3;
  SET LOCAL DateStyle = 'ISO, YMD';
  SET LOCAL IntervalStyle = 'iso_8601';
  SET LOCAL bytea_output = 'hex';`;

/**
 * Base and partitioned tables of the given schemas (not partitions, not views, not tables an
 * extension owns), with their columns and primary keys.
 */
export async function listTables(
  client: pg.ClientBase,
  schemas: readonly string[],
): Promise<TableInfo[]> {
  const { rows: tables } = await client.query<{ oid: string; schema: string; name: string }>(
    `SELECT c.oid::text AS oid, n.nspname AS schema, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                         WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
      ORDER BY n.nspname, c.relname`,
    [schemas],
  );
  if (tables.length === 0) return [];
  const oids = tables.map((table) => table.oid);
  const { rows: columns } = await client.query<{
    oid: string;
    name: string;
    type: string;
    generated: boolean;
    identity: boolean;
  }>(
    `SELECT a.attrelid::text AS oid, a.attname AS name,
            format_type(a.atttypid, a.atttypmod) AS type,
            a.attgenerated <> '' AS generated, a.attidentity <> '' AS identity
       FROM pg_attribute a
      WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attrelid, a.attnum`,
    [oids],
  );
  const { rows: keys } = await client.query<{ oid: string; name: string }>(
    `SELECT con.conrelid::text AS oid, a.attname AS name
       FROM pg_constraint con
       CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, position)
       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
      WHERE con.conrelid = ANY($1::oid[]) AND con.contype = 'p'
      ORDER BY con.conrelid, k.position`,
    [oids],
  );
  return tables.map((table) => ({
    ...table,
    columns: columns
      .filter((column) => column.oid === table.oid)
      .map(({ name, type, generated, identity }) => ({ name, type, generated, identity })),
    primaryKey: keys.filter((key) => key.oid === table.oid).map((key) => key.name),
  }));
}

/**
 * Orders tables so that every table comes after the tables its foreign keys reference (parents
 * first); self-references are ignored and tables in a cycle keep their name order at the end.
 */
export async function foreignKeyOrder(
  client: pg.ClientBase,
  tables: TableInfo[],
): Promise<TableInfo[]> {
  const { rows: edges } = await client.query<{ child: string; parent: string }>(
    `SELECT conrelid::text AS child, confrelid::text AS parent
       FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY($1::oid[])`,
    [tables.map((table) => table.oid)],
  );
  const byOid = new Map(tables.map((table) => [table.oid, table]));
  const parents = new Map(tables.map((table) => [table.oid, new Set<string>()]));
  for (const { child, parent } of edges) {
    if (child !== parent && byOid.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  let progress = true;
  while (progress) {
    progress = false;
    for (const table of tables) {
      if (placed.has(table.oid)) continue;
      if ([...parents.get(table.oid)!].every((parent) => placed.has(parent))) {
        ordered.push(table);
        placed.add(table.oid);
        progress = true;
      }
    }
  }
  return [...ordered, ...tables.filter((table) => !placed.has(table.oid))];
}

/**
 * The applied migrations, oldest first, and the dirty ones: what either ledger records
 * (hdb_catalog.schema_migrations, or the Hasura CLI's catalog state in hdb_version.cli_state;
 * cli-state.ts). Empty when there is no ledger. `strict` refuses ledgers that contradict each
 * other (a backup must name the migrations a restore can reproduce).
 */
export async function readLedger(
  client: pg.ClientBase,
  options: { strict?: boolean } = {},
): Promise<{ migrations: string[]; dirty: string[] }> {
  const ledgers = await readLedgers(client);
  const cli = Object.entries(ledgers.cli?.migrations[CLI_DATABASE] ?? {});
  const dirty = new Set([
    ...[...ledgers.v2].filter(([, isDirty]) => isDirty).map(([version]) => version),
    ...cli.filter(([, isDirty]) => isDirty).map(([version]) => version),
  ]);
  if (options.strict && dirty.size === 0) {
    try {
      effectiveLedger(ledgers);
    } catch (error) {
      if (error instanceof MigrationLedgerError) throw new BackupError(error.message);
      throw error;
    }
  }
  const byVersion = (a: string, b: string) =>
    BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
  return {
    migrations: [...new Set([...ledgers.v2.keys(), ...cli.map(([version]) => version)])].sort(
      byVersion,
    ),
    dirty: [...dirty].sort(byVersion),
  };
}

/** Every sequence of the schemas (not an extension's), with its current state. */
export async function readSequences(
  client: pg.ClientBase,
  schemas: readonly string[],
): Promise<SequenceState[]> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind = 'S'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                         WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
      ORDER BY n.nspname, c.relname`,
    [schemas],
  );
  const states: SequenceState[] = [];
  for (const sequence of rows) {
    const { rows: state } = await client.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM ${qualified(sequence)}`,
    );
    states.push({
      ...sequence,
      lastValue: state[0]!.last_value,
      isCalled: state[0]!.is_called,
    });
  }
  return states;
}

/** `backup-20250102T030405Z.jsonl.gz` for that instant. */
export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `backup-${stamp}.jsonl.gz`;
}

/** A gzip'd file written line by line, with backpressure; complete only once finished. */
class GzipLineWriter {
  private readonly gzip = createGzip({ level: 6 });
  private readonly done: Promise<void>;

  constructor(file: string) {
    this.done = pipeline(this.gzip, createWriteStream(file, { flags: 'wx' }));
    // Observed by write() and finish(); a rejection before then must not go unhandled.
    this.done.catch(() => {});
  }

  async write(text: string): Promise<void> {
    if (!this.gzip.write(text)) {
      await Promise.race([new Promise((resolve) => this.gzip.once('drain', resolve)), this.done]);
    }
  }

  async finish(): Promise<void> {
    this.gzip.end();
    await this.done;
  }

  abort(): void {
    this.gzip.destroy();
  }
}

export interface BackupOptions {
  /** The file to write; default `<dir>/backup-<UTC timestamp>.jsonl.gz`. Never overwritten. */
  out?: string;
  /** Folder for the default file name; default `.data/backups`. */
  dir?: string;
  /** The backup's timestamp (for tests); default now. */
  now?: Date;
  /** Rows fetched from the cursor at a time; default 1000. */
  fetchSize?: number;
}

export interface BackupResult {
  file: string;
  createdAt: string;
  migrations: string[];
  dirtyMigrations: string[];
  tables: TableCount[];
  rows: number;
  bytes: number;
}

/**
 * Writes a backup of the database (see the top of this file) and returns where and what.
 * The file appears only when complete: it is written beside its final name and linked into
 * place at the end, so an interrupted backup never leaves a file that looks whole.
 */
export async function backupDatabase(
  pool: pg.Pool,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const at = options.now ?? new Date();
  const file = path.resolve(
    options.out ?? path.join(options.dir ?? DEFAULT_BACKUP_DIR, backupFileName(at)),
  );
  const fetchSize = options.fetchSize ?? 1000;
  if (await stat(file).catch(() => undefined)) {
    throw new BackupError(`${file} already exists; a backup never overwrites a file`);
  }
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;

  const client = await pool.connect();
  let writer: GzipLineWriter | undefined;
  let broken = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(BACKUP_SETTINGS);
    const { rows: version } = await client.query<{ version: string }>(
      `SELECT current_setting('server_version') AS version`,
    );
    const ledger = await readLedger(client, { strict: true });
    const tables = (await foreignKeyOrder(client, await listTables(client, BACKUP_SCHEMAS))).filter(
      (table) => tableKey(table) !== LEDGER_TABLE,
    );
    const counts: TableCount[] = [];
    for (const table of tables) {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${qualified(table)}`,
      );
      counts.push({ schema: table.schema, name: table.name, rows: Number(rows[0]!.n) });
    }

    writer = new GzipLineWriter(partial);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: at.toISOString(),
      serverVersion: version[0]!.version,
      migrations: ledger.migrations,
      dirtyMigrations: ledger.dirty,
      schemas: [...BACKUP_SCHEMAS],
      tables: counts,
    };
    await writer.write(`${JSON.stringify(header)}\n`);

    let total = 0;
    for (const [index, table] of tables.entries()) {
      const expected = counts[index]!.rows;
      const section: TableSection = {
        type: 'table',
        schema: table.schema,
        name: table.name,
        columns: table.columns,
        primaryKey: table.primaryKey,
        rows: expected,
      };
      await writer.write(`${JSON.stringify(section)}\n`);
      const order = table.primaryKey.length
        ? ` ORDER BY ${table.primaryKey.map((column) => `r.${ident(column)}`).join(', ')}`
        : '';
      await client.query(
        `DECLARE backup_rows NO SCROLL CURSOR FOR
           SELECT to_jsonb(r.*)::text FROM ${qualified(table)} AS r${order}`,
      );
      let written = 0;
      for (;;) {
        const batch = await client.query<[string]>({
          text: `FETCH FORWARD ${fetchSize} FROM backup_rows`,
          rowMode: 'array',
        });
        if (batch.rows.length === 0) break;
        // The server's JSON text as is: never parsed, so no number becomes a JS float.
        await writer.write(`${batch.rows.map((row) => row[0]).join('\n')}\n`);
        written += batch.rows.length;
      }
      await client.query('CLOSE backup_rows');
      if (written !== expected) {
        throw new BackupError(`${tableKey(table)}: counted ${expected} rows but read ${written}`);
      }
      total += written;
    }

    const sequences: SequencesSection = {
      type: 'sequences',
      sequences: await readSequences(client, BACKUP_SCHEMAS),
    };
    await writer.write(`${JSON.stringify(sequences)}\n`);
    const end: EndSection = { type: 'end', tables: tables.length, rows: total };
    await writer.write(`${JSON.stringify(end)}\n`);
    await client.query('COMMIT');

    await writer.finish();
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    // link() fails if the name was taken meanwhile, where rename() would overwrite it.
    await link(partial, file);
    await rm(partial, { force: true });
    return {
      file,
      createdAt: header.createdAt,
      migrations: ledger.migrations,
      dirtyMigrations: ledger.dirty,
      tables: counts,
      rows: total,
      bytes: (await stat(file)).size,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    writer?.abort();
    await rm(partial, { force: true });
    throw error;
  } finally {
    client.release(broken);
  }
}

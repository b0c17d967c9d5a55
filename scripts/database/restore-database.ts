import type pg from 'pg';

import {
  LEDGER_DDL,
  MigrationLedgerError,
  readLedgers,
  writeLedgers,
  type MigrationFile,
} from '@app/engine/database';

import {
  BACKUP_SCHEMAS,
  ident,
  LEDGER_TABLE,
  listTables,
  qualified,
  readLedger,
  tableKey,
  type SequenceState,
  type TableInfo,
} from './backup.ts';
import { RestoreError } from './restore-errors.ts';

/* The target database of a restore: is it empty, its schemas dropped, its migrations, sequences. */

/** hdb_catalog tables that hold no data of their own: the ledger and the catalog version. */
const BOOKKEEPING_TABLES = new Set([LEDGER_TABLE, 'hdb_catalog.hdb_source_catalog_version']);

export async function hasRows(client: pg.ClientBase, table: TableInfo): Promise<boolean> {
  const { rows } = await client.query<{ present: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${qualified(table)}) AS present`,
  );
  return rows[0]!.present;
}

/** Why the database is not empty enough for a restore without --force, or undefined. */
export async function occupied(client: pg.ClientBase): Promise<string | undefined> {
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
export async function dropSchemas(client: pg.ClientBase, warnings: string[]): Promise<void> {
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

export async function applyMigrations(
  client: pg.ClientBase,
  migrations: MigrationFile[],
): Promise<void> {
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

/**
 * Sets every sequence as the backup recorded it, then moves any sequence that a column owns
 * (identity, serial) past the largest restored value, so new rows never collide.
 */
export async function resetSequences(
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

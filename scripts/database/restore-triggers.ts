import type pg from 'pg';

import { ident, qualified, type TableInfo } from './backup.ts';
import { RestoreError } from './restore-errors.ts';

/* Keeping user triggers from firing while a restore loads rows, and foreign keys checked. */

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

export async function chooseTriggerMode(
  client: pg.ClientBase,
  wanted: 'auto' | TriggerMode,
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
export async function disableTriggers(
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

export async function enableTriggers(
  client: pg.ClientBase,
  triggers: TriggerState[],
): Promise<void> {
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
export async function deferForeignKeys(
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

export async function checkForeignKeys(
  client: pg.ClientBase,
  altered: DeferredKey[],
): Promise<void> {
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
export async function verifyForeignKeys(client: pg.ClientBase, tables: TableInfo[]): Promise<void> {
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

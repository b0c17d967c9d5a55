import type pg from 'pg';

import type { ColumnInfo } from '../catalog/model.ts';
import { qualifiedKey } from '../catalog/model.ts';
import { MetadataError } from '../metadata/load.ts';
import type { EventTriggerMetadata } from '../metadata/model.ts';
import type { SchemaModel } from '../schema/model.ts';
import { isStringifiedNumeric } from '../schema/scalars.ts';

import { NOTIFY_CHANNEL } from './catalog.ts';
import type { TableEventTrigger } from './config.ts';
import { run } from './sql.ts';

/*
 * One Postgres trigger per event trigger and operation, named as Hasura names them:
 * function `hdb_catalog."notify_hasura_<name>_<OP>"()` and trigger `"notify_hasura_<name>_<OP>"`
 * (AFTER <OP> ... FOR EACH ROW) on the table. The function writes the event row through
 * `hdb_catalog.insert_event_log` in the writing transaction itself, so an event exists iff
 * the change committed.
 *
 * - `data.old` / `data.new` are `row_to_json` of the `payload` columns (all by default),
 *   with bigint/numeric/float8/money as strings when numeric types are stringified, as the
 *   engine's query results are.
 * - An UPDATE only fires when one of the listened `columns` changed. Like Hasura, the old and
 *   new values are compared as records; the comparison is by binary image (`*<>`), which
 *   every column type supports (json has no `=`) and which treats NULLs as equal to each
 *   other, so NULL -> value is a change.
 */

export type Op = 'INSERT' | 'UPDATE' | 'DELETE';
export const OPS: Op[] = ['INSERT', 'UPDATE', 'DELETE'];

export const SQL_TRIGGER_PREFIX = 'notify_hasura_';

export const sqlTriggerName = (trigger: string, op: Op) => `${SQL_TRIGGER_PREFIX}${trigger}_${op}`;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

interface OpSpec {
  columns: '*' | string[];
  payload?: '*' | string[] | undefined;
}

function opSpec(trigger: EventTriggerMetadata, op: Op): OpSpec | undefined {
  const spec = trigger.definition[op.toLowerCase() as 'insert' | 'update' | 'delete'];
  return spec ?? undefined;
}

function pickColumns(
  all: ColumnInfo[],
  wanted: '*' | string[] | undefined,
  what: string,
): ColumnInfo[] {
  if (wanted === undefined || wanted === '*') return all;
  const byName = new Map(all.map((column) => [column.name, column]));
  for (const name of wanted) {
    if (!byName.has(name)) throw new MetadataError(`${what}: no column ${JSON.stringify(name)}`);
  }
  // Table order, as Hasura sends them.
  return all.filter((column) => wanted.includes(column.name));
}

function rowJson(
  variable: 'OLD' | 'NEW',
  columns: ColumnInfo[],
  stringifyNumericTypes: boolean,
): string {
  if (columns.length === 0) return `'{}'::json`;
  const fields = columns.map((column) => {
    const value = `${variable}.${ident(column.name)}`;
    const expression =
      stringifyNumericTypes && isStringifiedNumeric(column.typeName) && !column.isArray
        ? `(${value})::text`
        : value;
    return `${expression} AS ${ident(column.name)}`;
  });
  return `row_to_json((SELECT r FROM (SELECT ${fields.join(', ')}) AS r))`;
}

export interface SqlTriggerPlan {
  /** The metadata trigger name. */
  trigger: string;
  op: Op;
  schema: string;
  table: string;
  name: string;
  functionSql: string;
  enableAlways: boolean;
}

function functionSql(
  entry: TableEventTrigger,
  op: Op,
  spec: OpSpec,
  allColumns: ColumnInfo[],
  stringifyNumericTypes: boolean,
): string {
  const what = `event trigger ${JSON.stringify(entry.trigger.name)} (${op.toLowerCase()})`;
  const payloadColumns = pickColumns(allColumns, spec.payload, `${what} payload`);
  const listenColumns = pickColumns(allColumns, spec.columns, `${what} columns`);
  const oldJson = op === 'INSERT' ? 'NULL' : rowJson('OLD', payloadColumns, stringifyNumericTypes);
  const newJson = op === 'DELETE' ? 'NULL' : rowJson('NEW', payloadColumns, stringifyNumericTypes);
  const unchanged =
    op === 'UPDATE'
      ? listenColumns.length === 0
        ? '  RETURN NULL;\n'
        : [
            `  _old := ROW(${listenColumns.map((column) => `OLD.${ident(column.name)}`).join(', ')});`,
            `  _new := ROW(${listenColumns.map((column) => `NEW.${ident(column.name)}`).join(', ')});`,
            '  IF _old *= _new THEN',
            '    RETURN NULL;',
            '  END IF;',
            '',
          ].join('\n')
      : '';
  return `CREATE OR REPLACE FUNCTION hdb_catalog.${ident(sqlTriggerName(entry.trigger.name, op))}() RETURNS trigger
LANGUAGE plpgsql AS $hdb_event$
DECLARE
  _old record;
  _new record;
BEGIN
${unchanged}  PERFORM hdb_catalog.insert_event_log(
    CAST(TG_TABLE_SCHEMA AS text), CAST(TG_TABLE_NAME AS text), ${literal(entry.trigger.name)}, TG_OP,
    json_build_object('old', ${oldJson}, 'new', ${newJson})
  );
  PERFORM pg_notify(${literal(NOTIFY_CHANNEL)}, '');
  RETURN NULL;
END;
$hdb_event$;`;
}

/** The SQL triggers the metadata asks for. Throws on triggers that name unknown tables or columns. */
export function planSqlTriggers(
  triggers: TableEventTrigger[],
  model: SchemaModel,
  stringifyNumericTypes: boolean,
): SqlTriggerPlan[] {
  const plans: SqlTriggerPlan[] = [];
  for (const entry of triggers) {
    const table = model.tables.get(qualifiedKey(entry.schema, entry.table));
    if (!table) {
      throw new MetadataError(
        `event trigger ${JSON.stringify(entry.trigger.name)}: table ${entry.schema}.${entry.table} is not tracked`,
      );
    }
    const enableAlways =
      (entry.trigger as Record<string, unknown>)['trigger_on_replication'] === true;
    for (const op of OPS) {
      const spec = opSpec(entry.trigger, op);
      if (!spec) continue;
      plans.push({
        trigger: entry.trigger.name,
        op,
        schema: entry.schema,
        table: entry.table,
        name: sqlTriggerName(entry.trigger.name, op),
        functionSql: functionSql(entry, op, spec, table.info.columns, stringifyNumericTypes),
        enableAlways,
      });
    }
  }
  return plans;
}

export interface SyncResult {
  created: string[];
  dropped: string[];
  /** Metadata trigger names whose every SQL trigger went away (their events are archived). */
  removedTriggers: string[];
}

const LIKE_PREFIX = `${SQL_TRIGGER_PREFIX.replace(/_/g, '\\_')}%`;

/**
 * Makes the database's triggers match the plan: replaces the functions, creates missing
 * triggers, drops triggers and functions of ours (by name prefix, in hdb_catalog) that the
 * metadata no longer has, and archives the events of metadata triggers that are gone.
 * Runs on the caller's client, inside the caller's transaction.
 */
export async function syncSqlTriggers(
  client: pg.ClientBase,
  plans: SqlTriggerPlan[],
): Promise<SyncResult> {
  const result: SyncResult = { created: [], dropped: [], removedTriggers: [] };
  const wanted = new Map(
    plans.map((plan) => [`${plan.schema}\u0000${plan.table}\u0000${plan.name}`, plan]),
  );

  const existing = await run<{ name: string; schema: string; table: string; enabled: string }>(
    client,
    `SELECT t.tgname AS name, tn.nspname AS schema, c.relname AS table, t.tgenabled AS enabled
       FROM pg_trigger t
       JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace tn ON tn.oid = c.relnamespace
       JOIN pg_proc p ON p.oid = t.tgfoid
       JOIN pg_namespace pn ON pn.oid = p.pronamespace
      WHERE NOT t.tgisinternal AND pn.nspname = 'hdb_catalog' AND t.tgname LIKE $1`,
    [LIKE_PREFIX],
  );
  const present = new Set<string>();
  for (const row of existing.rows) {
    const key = `${row.schema}\u0000${row.table}\u0000${row.name}`;
    if (wanted.has(key)) {
      present.add(key);
      continue;
    }
    await client.query(
      `DROP TRIGGER IF EXISTS ${ident(row.name)} ON ${ident(row.schema)}.${ident(row.table)}`,
    );
    result.dropped.push(`${row.schema}.${row.table}.${row.name}`);
  }

  const functions = await run<{ name: string }>(
    client,
    `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'hdb_catalog' AND p.proname LIKE $1`,
    [LIKE_PREFIX],
  );
  const wantedFunctions = new Set(plans.map((plan) => plan.name));
  const wantedTriggers = new Set(plans.map((plan) => plan.trigger));
  const gone = new Set<string>();
  for (const { name } of functions.rows) {
    if (wantedFunctions.has(name)) continue;
    await client.query(`DROP FUNCTION IF EXISTS hdb_catalog.${ident(name)}() CASCADE`);
    const match = /^notify_hasura_(.+)_(INSERT|UPDATE|DELETE)$/.exec(name);
    if (match && !wantedTriggers.has(match[1]!)) gone.add(match[1]!);
  }
  for (const trigger of gone) {
    await run(
      client,
      `UPDATE hdb_catalog.event_log SET archived = true WHERE trigger_name = $1 AND NOT archived`,
      [trigger],
    );
    result.removedTriggers.push(trigger);
  }

  for (const [key, plan] of wanted) {
    await client.query(plan.functionSql);
    const table = `${ident(plan.schema)}.${ident(plan.table)}`;
    if (!present.has(key)) {
      await client.query(
        `CREATE TRIGGER ${ident(plan.name)} AFTER ${plan.op} ON ${table} FOR EACH ROW EXECUTE FUNCTION hdb_catalog.${ident(plan.name)}()`,
      );
      result.created.push(`${plan.schema}.${plan.table}.${plan.name}`);
    }
    const enabled = existing.rows.find(
      (row) => `${row.schema}\u0000${row.table}\u0000${row.name}` === key,
    )?.enabled;
    const wantEnabled = plan.enableAlways ? 'A' : 'O';
    if (enabled !== undefined ? enabled !== wantEnabled : plan.enableAlways) {
      await client.query(
        `ALTER TABLE ${table} ${plan.enableAlways ? 'ENABLE ALWAYS' : 'ENABLE'} TRIGGER ${ident(plan.name)}`,
      );
    }
  }
  return result;
}

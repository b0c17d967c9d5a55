import type { MutationOutput, MutationPlan } from '../plan/ir.ts';
import type { TableSchema, ValueRef } from '../schema/model.ts';

import { andSql, compileBoolExp, tableRef } from './bool-exp.ts';
import { ident, literalParam, stringLiteral, type SqlBuilder } from './builder.ts';
import { jsonObject, rowJson } from './select.ts';

/** SQLSTATE our engine raises when a row fails an insert/update permission check. */
export const PERMISSION_CHECK_SQLSTATE = 'HCV01';
export const PERMISSION_CHECK_MESSAGE =
  'check constraint of an insert/update permission has failed';

/** Created at start-up; raising from a function lets one statement refuse a row it wrote. */
export const PERMISSION_CHECK_FUNCTION_DDL = `
CREATE SCHEMA IF NOT EXISTS hdb_catalog;
CREATE OR REPLACE FUNCTION hdb_catalog.check_violation(msg text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = '${PERMISSION_CHECK_SQLSTATE}', MESSAGE = msg;
END;
$$;`;

function value(ref: ValueRef, table: TableSchema, column: string, b: SqlBuilder): string {
  const info = table.columnsBySql.get(column)!.column;
  switch (ref.kind) {
    case 'literal':
      return b.param(literalParam(ref.value, info), info.sqlType);
    case 'session':
      return b.sessionParam(ref.name, info.sqlType);
    case 'column':
      return ident(ref.column.name);
  }
}

/** The JSON a mutation field answers with, over the written rows in the CTE `rows`. */
function outputJson(output: MutationOutput, rows: string, b: SqlBuilder): string {
  if (output.kind === 'one') {
    const alias = b.alias();
    return `(SELECT ${rowJson(output.fields, `(${alias}."__r")`, b)} FROM ${rows} AS ${alias} LIMIT 1)`;
  }
  return jsonObject(
    output.fields.map((field): [string, string] => {
      switch (field.kind) {
        case 'typename':
          return [field.alias, stringLiteral(field.value)];
        case 'affected_rows':
          return [field.alias, `(SELECT count(*) FROM ${rows})::int`];
        case 'returning': {
          const alias = b.alias();
          return [
            field.alias,
            `(SELECT coalesce(json_agg(${rowJson(field.fields, `(${alias}."__r")`, b)}), '[]'::json) FROM ${rows} AS ${alias})`,
          ];
        }
      }
    }),
  );
}

/** The statement for one mutation field; it returns one row with `data` (json text). */
export function compileMutation(plan: MutationPlan, b: SqlBuilder): string {
  const { table } = plan.table;
  const target = '"_t"';
  const rows = '"_rows"';
  let write: string;
  let check = 'true';
  switch (plan.kind) {
    case 'insert': {
      const columns = plan.columns.map((column) => ident(column.name));
      const tuples = plan.rows.map(
        (row) =>
          `(${plan.columns.map((column) => (row.has(column.name) ? value(row.get(column.name)!, table, column.name, b) : 'DEFAULT')).join(', ')})`,
      );
      const into =
        columns.length > 0
          ? `(${columns.join(', ')}) VALUES ${tuples.join(', ')}`
          : 'DEFAULT VALUES';
      let conflict = '';
      if (plan.onConflict) {
        const { constraint, updateColumns, where, presets } = plan.onConflict;
        const assignments = [
          ...updateColumns
            .filter((column) => !presets.has(column.name))
            .map((column) => `${ident(column.name)} = EXCLUDED.${ident(column.name)}`),
          ...[...presets].map(
            ([column, ref]) => `${ident(column)} = ${value(ref, table, column, b)}`,
          ),
        ];
        conflict =
          updateColumns.length === 0
            ? ` ON CONFLICT ON CONSTRAINT ${ident(constraint)} DO NOTHING`
            : ` ON CONFLICT ON CONSTRAINT ${ident(constraint)} DO UPDATE SET ${assignments.join(', ')} WHERE ${compileBoolExp(where, b, target)}`;
      }
      check = compileBoolExp(plan.check, b, target);
      write = `INSERT INTO ${tableRef(table)} AS ${target} ${into}${conflict} RETURNING ${target} AS "__r", ${check} AS "__check"`;
      break;
    }
    case 'update': {
      const assignments = [
        ...[...plan.set].map(
          ([column, ref]) => `${ident(column)} = ${value(ref, table, column, b)}`,
        ),
        ...[...plan.inc].map(
          ([column, ref]) =>
            `${ident(column)} = ${target}.${ident(column)} + ${value(ref, table, column, b)}`,
        ),
        ...plan.jsonOps.map(({ column, op, value: ref }) => {
          const current = `${target}.${ident(column.name)}`;
          const operand = ref.kind === 'literal' ? ref.value : null;
          switch (op) {
            case '_append':
              return `${ident(column.name)} = ${current} || ${b.param(operand, 'jsonb')}`;
            case '_prepend':
              return `${ident(column.name)} = ${b.param(operand, 'jsonb')} || ${current}`;
            case '_delete_key':
              return `${ident(column.name)} = ${current} - ${b.param(String(operand), 'text')}`;
            case '_delete_elem':
              return `${ident(column.name)} = ${current} - ${b.param(String(operand), 'int')}`;
            case '_delete_at_path':
              return `${ident(column.name)} = ${current} #- ${b.param(operand, 'text[]')}`;
          }
        }),
      ];
      check = plan.check ? compileBoolExp(plan.check, b, target) : 'true';
      write = `UPDATE ${tableRef(table)} AS ${target} SET ${assignments.join(', ')} WHERE ${compileBoolExp(plan.where, b, target)} RETURNING ${target} AS "__r", ${check} AS "__check"`;
      break;
    }
    case 'delete':
      write = `DELETE FROM ${tableRef(table)} AS ${target} WHERE ${compileBoolExp(plan.where, b, target)} RETURNING ${target} AS "__r", true AS "__check"`;
      break;
  }
  const enforce =
    check === 'true'
      ? 'true'
      : `(SELECT bool_and(CASE WHEN "__check" THEN true ELSE hdb_catalog.check_violation(${stringLiteral(PERMISSION_CHECK_MESSAGE)}) END) FROM ${rows})`;
  return `WITH ${rows} AS (${write}) SELECT ${outputJson(plan.output, rows, b)}::text AS "data", ${andSql(enforce)} AS "checked"`;
}

/** Whether a mutation writes nothing at all (no objects, or an update with no operator): answered without SQL. */
export function isNoOp(plan: MutationPlan): boolean {
  if (plan.kind === 'insert') return plan.rows.length === 0;
  return (
    plan.kind === 'update' &&
    plan.set.size === 0 &&
    plan.inc.size === 0 &&
    plan.jsonOps.length === 0
  );
}

/** The JSON of a no-op mutation: no rows affected, nothing returned. */
export function noOpJson(plan: MutationPlan): unknown {
  if (plan.output.kind === 'one') return null;
  return Object.fromEntries(
    plan.output.fields.map((field) => [
      field.alias,
      field.kind === 'affected_rows' ? 0 : field.kind === 'returning' ? [] : field.value,
    ]),
  );
}

import type { ColumnInfo } from '../catalog/model.ts';
import type {
  AggregateField,
  AggregatePlan,
  FieldPlan,
  OrderByItem,
  RelationshipHop,
  SelectArgs,
} from '../plan/ir.ts';
import type { BoolExp, TableSchema } from '../schema/model.ts';
import { isStringifiedNumeric } from '../schema/scalars.ts';

import { andSql, compileBoolExp, computedCall, joinCondition, tableRef } from './bool-exp.ts';
import { ident, stringLiteral, type SqlBuilder } from './builder.ts';

/*
 * Compiles selections to SQL expressions that build the response JSON inside Postgres. Each
 * field is an expression over the current row, relationships are correlated subqueries, so a
 * whole GraphQL operation becomes one statement, however deep.
 */

/**
 * `fn(value)`, an aggregate over a column. PostgreSQL has no max or min of uuid, which the
 * schema offers as Hasura's does (where the call fails): a uuid's text sorts as the uuid does
 * (bytes in order, lower-case hex, dashes in fixed places), so the extreme is taken over the
 * text, byte-wise, and cast back (issue 11: it was a 500).
 */
function aggregateCall(fn: string, value: string, column: ColumnInfo | undefined): string {
  if ((fn === 'max' || fn === 'min') && column?.typeName === 'uuid')
    return `${fn}((${value})::text COLLATE "C")::uuid`;
  return `${fn}(${value})`;
}

/** A column's value as it goes into the JSON: numeric types as text when stringified. */
export function columnJson(column: ColumnInfo, alias: string, b: SqlBuilder): string {
  const value = `${alias}.${ident(column.name)}`;
  return b.stringifyNumericTypes && isStringifiedNumeric(column.typeName) && !column.isArray
    ? `(${value})::text`
    : value;
}

/** A JSON object of named expressions, keys in the given order (row_to_json keeps it). */
export function jsonObject(entries: Array<[string, string]>): string {
  if (entries.length === 0) return `'{}'::json`;
  return `(SELECT row_to_json("_e") FROM (SELECT ${entries.map(([key, sql]) => `${sql} AS ${ident(key)}`).join(', ')}) AS "_e")`;
}

/** The JSON of one row (`alias`) with the requested fields. */
export function rowJson(fields: FieldPlan[], alias: string, b: SqlBuilder): string {
  return jsonObject(fields.map((field) => [field.alias, fieldJson(field, alias, b)]));
}

function fieldJson(field: FieldPlan, alias: string, b: SqlBuilder): string {
  switch (field.kind) {
    case 'column':
      if (field.jsonPath && field.jsonPath.length > 0) {
        return `${alias}.${ident(field.column.name)} #> ${b.param(field.jsonPath.map(String), 'text[]')}`;
      }
      return columnJson(field.column, alias, b);
    case 'typename':
      return stringLiteral(field.value);
    case 'object': {
      const target = b.alias();
      const where = andSql(
        joinCondition(field.hop.relationship, alias, target),
        permissionSql(field.hop, b, target),
      );
      return `(SELECT ${rowJson(field.fields, target, b)} FROM ${tableRef(field.hop.target)} AS ${target} WHERE ${where} LIMIT 1)`;
    }
    case 'array':
      return listJson(field.hop.target, field.args, field.fields, b, (target) =>
        andSql(
          joinCondition(field.hop.relationship, alias, target),
          permissionSql(field.hop, b, target),
        ),
      );
    case 'array_aggregate':
      return aggregateJson(field.hop.target, field.args, field.aggregate, b, (target) =>
        andSql(
          joinCondition(field.hop.relationship, alias, target),
          permissionSql(field.hop, b, target),
        ),
      );
    case 'computed': {
      const call = computedCall(field.field, alias, b, field.functionArgs);
      if (!field.fields || !field.args) {
        const typeName = 'typeName' in field.field.returns ? field.field.returns.typeName : '';
        return b.stringifyNumericTypes && isStringifiedNumeric(typeName) ? `(${call})::text` : call;
      }
      const target = b.alias();
      // The returned rows' permission filter applies as for any select of that table.
      const permission = field.permission ? compileBoolExp(field.permission, b, target) : 'true';
      return listFromRows(`${call} AS ${target}`, target, field.args, field.fields, b, permission);
    }
  }
}

function permissionSql(hop: RelationshipHop, b: SqlBuilder, alias: string): string {
  return hop.permission ? compileBoolExp(hop.permission, b, alias) : 'true';
}

/** The value an order_by item sorts on, for the row `alias`. */
function orderValue(item: OrderByItem, alias: string, b: SqlBuilder): string {
  const [hop, ...rest] = item.path;
  if (hop) {
    const target = b.alias();
    const where = andSql(
      joinCondition(hop.relationship, alias, target),
      permissionSql(hop, b, target),
    );
    return `(SELECT ${orderValue({ ...item, path: rest }, target, b)} FROM ${tableRef(hop.target)} AS ${target} WHERE ${where} LIMIT 1)`;
  }
  if (item.target.kind === 'column') return `${alias}.${ident(item.target.column.name)}`;
  if (item.target.kind === 'computed') return computedCall(item.target.field, alias, b);
  if (item.target.kind === 'computed_aggregate') {
    const rows = b.alias();
    const { fn, column } = item.target;
    const value =
      fn === 'count' ? 'count(*)' : aggregateCall(fn, `${rows}.${ident(column!.name)}`, column);
    const visible =
      item.target.permission.kind === 'true'
        ? ''
        : ` WHERE ${compileBoolExp(item.target.permission, b, rows)}`;
    return `(SELECT ${value} FROM ${computedCall(item.target.field, alias, b)} AS ${rows}${visible})`;
  }
  const { hop: aggregateHop, fn, column } = item.target;
  const target = b.alias();
  const where = andSql(
    joinCondition(aggregateHop.relationship, alias, target),
    permissionSql(aggregateHop, b, target),
  );
  const value =
    fn === 'count' ? 'count(*)' : aggregateCall(fn, `${target}.${ident(column!.name)}`, column);
  return `(SELECT ${value} FROM ${tableRef(aggregateHop.target)} AS ${target} WHERE ${where})`;
}

const direction = (item: Pick<OrderByItem, 'direction' | 'nulls'>) =>
  `${item.direction === 'asc' ? 'ASC' : 'DESC'} NULLS ${item.nulls === 'first' ? 'FIRST' : 'LAST'}`;

/**
 * The filtered, ordered and paginated rows of a table as a subquery: each row whole as
 * `__r` (so functions of the row type, like computed fields, take it as it is), and the sort
 * keys as columns `__o0`, `__o1`, ... so the aggregate over it can keep order.
 */
function rowsSubquery(
  from: string,
  inner: string,
  args: SelectArgs,
  b: SqlBuilder,
  condition: string,
): { sql: string; orderBy: string } {
  const where = andSql(condition, compileBoolExp(args.where, b, inner));
  const orderItems = args.orderBy.map((item, i) => ({
    sql: orderValue(item, inner, b),
    key: `"__o${i}"`,
    item,
  }));
  const distinct = args.distinctOn?.map((column) => `${inner}.${ident(column.name)}`);
  const innerOrder = [
    ...(distinct && orderItems.length === 0 ? distinct.map((sql) => `${sql} ASC`) : []),
    ...orderItems.map(({ sql, item }) => `${sql} ${direction(item)}`),
  ];
  // Numbers the rows in their final order, for limits that apply to part of the answer only.
  const rowNumber =
    args.nodesLimit !== undefined
      ? `, row_number() OVER (${innerOrder.length > 0 ? `ORDER BY ${innerOrder.join(', ')}` : ''}) AS "__rn"`
      : '';
  const parts = [
    `SELECT ${distinct ? `DISTINCT ON (${distinct.join(', ')}) ` : ''}${inner} AS "__r"${orderItems.map(({ sql, key }) => `, ${sql} AS ${key}`).join('')}${rowNumber}`,
    `FROM ${from}`,
    `WHERE ${where}`,
  ];
  if (innerOrder.length > 0) parts.push(`ORDER BY ${innerOrder.join(', ')}`);
  // Parameters, not constants: live-query subscribers that differ only in paging share a statement.
  if (args.limit !== undefined) parts.push(`LIMIT ${b.param(String(args.limit), 'int')}`);
  if (args.offset !== undefined) parts.push(`OFFSET ${b.param(String(args.offset), 'int')}`);
  const orderBy = orderItems.map(({ key, item }) => `${key} ${direction(item)}`).join(', ');
  return { sql: parts.join(' '), orderBy };
}

/** The whole row carried by a rows subquery, usable wherever a table alias is. */
const wholeRow = (outer: string) => `(${outer}."__r")`;

function listFromRows(
  from: string,
  inner: string,
  args: SelectArgs,
  fields: FieldPlan[],
  b: SqlBuilder,
  condition: string,
): string {
  const outer = b.alias();
  const rows = rowsSubquery(from, inner, args, b, condition);
  const order = rows.orderBy ? ` ORDER BY ${rows.orderBy}` : '';
  return `(SELECT coalesce(json_agg(${rowJson(fields, wholeRow(outer), b)}${order}), '[]'::json) FROM (${rows.sql}) AS ${outer})`;
}

/** A JSON array of the rows of `table` matching `condition(alias)` and the select arguments. */
export function listJson(
  table: TableSchema,
  args: SelectArgs,
  fields: FieldPlan[],
  b: SqlBuilder,
  condition: (alias: string) => string,
): string {
  const inner = b.alias();
  return listFromRows(`${tableRef(table)} AS ${inner}`, inner, args, fields, b, condition(inner));
}

function aggregateFieldJson(field: AggregateField, alias: string, b: SqlBuilder): string {
  switch (field.kind) {
    case 'typename':
      return stringLiteral(field.value);
    case 'count': {
      if (!field.columns || field.columns.length === 0)
        return field.distinct ? `count(DISTINCT ${alias})` : 'count(*)';
      const columns = field.columns.map((column) => `${alias}.${ident(column.name)}`);
      // count(a, b) is not SQL: count rows whose listed columns are all non-null.
      const value = columns.length === 1 ? columns[0]! : `ROW(${columns.join(', ')})`;
      const nonNull = columns.map((column) => `${column} IS NOT NULL`).join(' AND ');
      return columns.length === 1
        ? `count(${field.distinct ? 'DISTINCT ' : ''}${value})`
        : `count(${field.distinct ? 'DISTINCT ' : ''}CASE WHEN ${nonNull} THEN ${value} END)`;
    }
    case 'function': {
      const entries = field.columns.map((entry): [string, string] => {
        if ('typename' in entry) return [entry.alias, stringLiteral(entry.typename)];
        const value = `${alias}.${ident(entry.column.name)}`;
        if (field.fn === 'max' || field.fn === 'min' || field.fn === 'sum') {
          const typed = `${aggregateCall(field.fn, value, entry.column)}::${entry.column.sqlType}`;
          return [
            entry.alias,
            b.stringifyNumericTypes && isStringifiedNumeric(entry.column.typeName)
              ? `(${typed})::text`
              : typed,
          ];
        }
        // avg and the statistics keep Postgres' numeric result; stringified like the column's type.
        const result = `${field.fn}(${value})`;
        return [
          entry.alias,
          b.stringifyNumericTypes && isStringifiedNumeric(entry.column.typeName)
            ? `(${result})::text`
            : result,
        ];
      });
      return `json_build_object(${entries.map(([key, sql]) => `${stringLiteral(key)}, ${sql}`).join(', ')})`;
    }
  }
}

/** `{ aggregate: {...}, nodes: [...] }` over the rows of `table` matching `condition(alias)`. */
export function aggregateJson(
  table: TableSchema,
  args: SelectArgs,
  plan: AggregatePlan,
  b: SqlBuilder,
  condition: (alias: string) => string,
): string {
  const inner = b.alias();
  const outer = b.alias();
  const rows = rowsSubquery(`${tableRef(table)} AS ${inner}`, inner, args, b, condition(inner));
  const order = rows.orderBy ? ` ORDER BY ${rows.orderBy}` : '';
  const entries = plan.fields.map((field): [string, string] => {
    switch (field.kind) {
      case 'typename':
        return [field.alias, stringLiteral(field.value)];
      case 'nodes': {
        const capped =
          args.nodesLimit !== undefined ? ` FILTER (WHERE "__rn" <= ${args.nodesLimit})` : '';
        return [
          field.alias,
          `coalesce(json_agg(${rowJson(field.fields, wholeRow(outer), b)}${order})${capped}, '[]'::json)`,
        ];
      }
      case 'aggregate':
        return [
          field.alias,
          `json_build_object(${field.fields.map((sub) => `${stringLiteral(sub.alias)}, ${aggregateFieldJson(sub, wholeRow(outer), b)}`).join(', ')})`,
        ];
    }
  });
  const body =
    entries.length === 0
      ? `'{}'::json`
      : `json_build_object(${entries.map(([key, sql]) => `${stringLiteral(key)}, ${sql}`).join(', ')})`;
  // GROUP BY (): one row however many match, even when nothing selected aggregates (only
  // `__typename`): without it, that selection ran per row and failed with "more than one row
  // returned by a subquery" (issue 11), or answered null for an empty table.
  return `(SELECT ${body} FROM (${rows.sql}) AS ${outer} GROUP BY ())`;
}

/** The row of `table` matching `where` (a primary key), as JSON or null. */
export function singleRowJson(
  table: TableSchema,
  where: BoolExp,
  permission: BoolExp,
  fields: FieldPlan[],
  b: SqlBuilder,
): string {
  const alias = b.alias();
  const condition = andSql(compileBoolExp(where, b, alias), compileBoolExp(permission, b, alias));
  return `(SELECT ${rowJson(fields, alias, b)} FROM ${tableRef(table)} AS ${alias} WHERE ${condition} LIMIT 1)`;
}

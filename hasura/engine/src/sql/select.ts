import type { ColumnInfo } from '../catalog/model.ts';
import type { AggregateField, AggregatePlan, BoolExp, FieldPlan, OrderByItem, RelationshipHop, SelectArgs } from '../plan/ir.ts';
import type { TableSchema } from '../schema/model.ts';
import { isStringifiedNumeric } from '../schema/scalars.ts';

import { andSql, compileBoolExp, joinCondition, tableRef } from './bool-exp.ts';
import { ident, stringLiteral, type SqlBuilder } from './builder.ts';

/*
 * Compiles selections to SQL expressions that build the response JSON inside Postgres. Each
 * field is an expression over the current row, relationships are correlated subqueries, so a
 * whole GraphQL operation becomes one statement, however deep.
 */

/** A column's value as it goes into the JSON: numeric types as text when stringified. */
export function columnJson(column: ColumnInfo, alias: string, b: SqlBuilder): string {
  const value = `${alias}.${ident(column.name)}`;
  return b.stringifyNumericTypes && isStringifiedNumeric(column.typeName) && !column.isArray ? `(${value})::text` : value;
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
      return columnJson(field.column, alias, b);
    case 'typename':
      return stringLiteral(field.value);
    case 'object': {
      const target = b.alias();
      const where = andSql(joinCondition(field.hop.relationship, alias, target), permissionSql(field.hop, b, target));
      return `(SELECT ${rowJson(field.fields, target, b)} FROM ${tableRef(field.hop.target)} AS ${target} WHERE ${where} LIMIT 1)`;
    }
    case 'array':
      return listJson(field.hop.target, field.args, field.fields, b, (target) =>
        andSql(joinCondition(field.hop.relationship, alias, target), permissionSql(field.hop, b, target)),
      );
    case 'array_aggregate':
      return aggregateJson(field.hop.target, field.args, field.aggregate, b, (target) =>
        andSql(joinCondition(field.hop.relationship, alias, target), permissionSql(field.hop, b, target)),
      );
    case 'computed': {
      const call = computedCall(field.field.fn.schema, field.field.fn.name, alias, field.field.sessionArgument !== undefined, b);
      if (!field.fields || !field.args) {
        const typeName = 'typeName' in field.field.returns ? field.field.returns.typeName : '';
        return b.stringifyNumericTypes && isStringifiedNumeric(typeName) ? `(${call})::text` : call;
      }
      const target = b.alias();
      const rows = `(SELECT * FROM ${call}) AS ${target}`;
      return listFromRows(rows, target, field.args, field.fields, b, 'true');
    }
  }
}

function computedCall(schema: string, name: string, alias: string, withSession: boolean, b: SqlBuilder): string {
  const args = [alias];
  if (withSession) args.push(b.param(JSON.stringify(b.session.variables), 'json'));
  return `${ident(schema)}.${ident(name)}(${args.join(', ')})`;
}

function permissionSql(hop: RelationshipHop, b: SqlBuilder, alias: string): string {
  return hop.permission ? compileBoolExp(hop.permission, b, alias) : 'true';
}

/** The value an order_by item sorts on, for the row `alias`. */
function orderValue(item: OrderByItem, alias: string, b: SqlBuilder): string {
  const [hop, ...rest] = item.path;
  if (hop) {
    const target = b.alias();
    const where = andSql(joinCondition(hop.relationship, alias, target), permissionSql(hop, b, target));
    return `(SELECT ${orderValue({ ...item, path: rest }, target, b)} FROM ${tableRef(hop.target)} AS ${target} WHERE ${where} LIMIT 1)`;
  }
  if (item.target.kind === 'column') return `${alias}.${ident(item.target.column.name)}`;
  const { hop: aggregateHop, fn, column } = item.target;
  const target = b.alias();
  const where = andSql(joinCondition(aggregateHop.relationship, alias, target), permissionSql(aggregateHop, b, target));
  const value = fn === 'count' ? 'count(*)' : `${fn}(${target}.${ident(column!.name)})`;
  return `(SELECT ${value} FROM ${tableRef(aggregateHop.target)} AS ${target} WHERE ${where})`;
}

const direction = (item: Pick<OrderByItem, 'direction' | 'nulls'>) =>
  `${item.direction === 'asc' ? 'ASC' : 'DESC'} NULLS ${item.nulls === 'first' ? 'FIRST' : 'LAST'}`;

/**
 * The filtered, ordered and paginated rows of a table as a subquery aliased `outer`, with
 * the sort keys as extra columns `__o0`, `__o1`, ... so the aggregate over it can keep order.
 */
function rowsSubquery(
  from: string,
  inner: string,
  args: SelectArgs,
  b: SqlBuilder,
  condition: string,
): { sql: string; orderBy: string } {
  const where = andSql(condition, compileBoolExp(args.where, b, inner));
  const orderItems = args.orderBy.map((item, i) => ({ sql: orderValue(item, inner, b), key: `"__o${i}"`, item }));
  const distinct = args.distinctOn?.map((column) => `${inner}.${ident(column.name)}`);
  const innerOrder = [
    ...(distinct && orderItems.length === 0 ? distinct.map((sql) => `${sql} ASC`) : []),
    ...orderItems.map(({ sql, item }) => `${sql} ${direction(item)}`),
  ];
  const parts = [
    `SELECT ${distinct ? `DISTINCT ON (${distinct.join(', ')}) ` : ''}${inner}.*${orderItems.map(({ sql, key }) => `, ${sql} AS ${key}`).join('')}`,
    `FROM ${from}`,
    `WHERE ${where}`,
  ];
  if (innerOrder.length > 0) parts.push(`ORDER BY ${innerOrder.join(', ')}`);
  if (args.limit !== undefined) parts.push(`LIMIT ${args.limit}`);
  if (args.offset !== undefined) parts.push(`OFFSET ${args.offset}`);
  const orderBy = orderItems.map(({ key, item }) => `${key} ${direction(item)}`).join(', ');
  return { sql: parts.join(' '), orderBy };
}

function listFromRows(from: string, inner: string, args: SelectArgs, fields: FieldPlan[], b: SqlBuilder, condition: string): string {
  const outer = b.alias();
  const rows = rowsSubquery(from, inner, args, b, condition);
  const order = rows.orderBy ? ` ORDER BY ${rows.orderBy}` : '';
  return `(SELECT coalesce(json_agg(${rowJson(fields, outer, b)}${order}), '[]'::json) FROM (${rows.sql}) AS ${outer})`;
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
      if (!field.columns || field.columns.length === 0) return field.distinct ? `count(DISTINCT ${alias}.*)` : 'count(*)';
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
          const typed = `${field.fn}(${value})::${entry.column.sqlType}`;
          return [entry.alias, b.stringifyNumericTypes && isStringifiedNumeric(entry.column.typeName) ? `(${typed})::text` : typed];
        }
        return [entry.alias, `${field.fn}(${value})::float8`];
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
      case 'nodes':
        return [field.alias, `coalesce(json_agg(${rowJson(field.fields, outer, b)}${order}), '[]'::json)`];
      case 'aggregate':
        return [field.alias, `json_build_object(${field.fields.map((sub) => `${stringLiteral(sub.alias)}, ${aggregateFieldJson(sub, outer, b)}`).join(', ')})`];
    }
  });
  const body = entries.length === 0 ? `'{}'::json` : `json_build_object(${entries.map(([key, sql]) => `${stringLiteral(key)}, ${sql}`).join(', ')})`;
  return `(SELECT ${body} FROM (${rows.sql}) AS ${outer})`;
}

/** The row of `table` matching `where` (a primary key), as JSON or null. */
export function singleRowJson(table: TableSchema, where: BoolExp, permission: BoolExp, fields: FieldPlan[], b: SqlBuilder): string {
  const alias = b.alias();
  const condition = andSql(compileBoolExp(where, b, alias), compileBoolExp(permission, b, alias));
  return `(SELECT ${rowJson(fields, alias, b)} FROM ${tableRef(table)} AS ${alias} WHERE ${condition} LIMIT 1)`;
}

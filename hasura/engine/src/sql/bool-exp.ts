import type { ColumnInfo } from '../catalog/model.ts';
import { isJsonOperand } from '../plan/bool-exp.ts';
import type { BoolExp, ComparisonOp, ValueRef } from '../schema/model.ts';
import type { ComputedField, RelationshipField, TableSchema } from '../schema/model.ts';

import { ident, literalParam, qualified, type SqlBuilder } from './builder.ts';

const BINARY: Partial<Record<ComparisonOp, string>> = {
  _eq: '=',
  _neq: '<>',
  _gt: '>',
  _gte: '>=',
  _lt: '<',
  _lte: '<=',
  _like: 'LIKE',
  _nlike: 'NOT LIKE',
  _ilike: 'ILIKE',
  _nilike: 'NOT ILIKE',
  _similar: 'SIMILAR TO',
  _nsimilar: 'NOT SIMILAR TO',
  _regex: '~',
  _nregex: '!~',
  _iregex: '~*',
  _niregex: '!~*',
  _contains: '@>',
  _contained_in: '<@',
  _ceq: '=',
  _cne: '<>',
  _cgt: '>',
  _cgte: '>=',
  _clt: '<',
  _clte: '<=',
};

/** The join condition between a row (`from`) and the rows a relationship leads to (`to`). */
export function joinCondition(relationship: RelationshipField, from: string, to: string): string {
  return relationship.mapping
    .map(([local, remote]) => `${from}.${ident(local)} = ${to}.${ident(remote)}`)
    .join(' AND ');
}

function operand(
  value: ValueRef,
  column: ColumnInfo,
  op: ComparisonOp,
  b: SqlBuilder,
  alias: string,
  rootAlias: string,
): string {
  const list = op === '_in' || op === '_nin' || op === '_has_keys_any' || op === '_has_keys_all';
  const cast =
    op === '_has_key'
      ? 'text'
      : op === '_has_keys_any' || op === '_has_keys_all'
        ? 'text[]'
        : isJsonOperand(column, op) && !list
          ? column.sqlType
          : list
            ? `${column.sqlType}[]`
            : column.sqlType;
  switch (value.kind) {
    case 'column':
      return `${value.fromRoot ? rootAlias : alias}.${ident(value.column.name)}`;
    case 'session':
      return b.sessionParam(value.name, cast);
    case 'literal': {
      const toParam =
        list && Array.isArray(value.value)
          ? // A json column's list ([jsonb!]) binds as jsonb[], each item JSON text as the
            // scalar's input arrives (not the whole list cast to one jsonb).
            (literal: unknown) => (literal as unknown[]).map((item) => literalParam(item, column))
          : op === '_has_key'
            ? (literal: unknown) => String(literal)
            : (literal: unknown) => literalParam(literal, column);
      return b.param(
        toParam(value.value),
        cast,
        value.slot === undefined ? undefined : { kind: 'slot', slot: value.slot, toParam },
      );
    }
  }
}

/**
 * A computed field's value for the row `alias`: the function called in named notation, so
 * the row, the session (`hasura_session`-style argument) and any extra arguments can come in
 * whatever order the function declares them.
 */
export function computedCall(
  field: ComputedField,
  alias: string,
  b: SqlBuilder,
  extra: Record<string, unknown> = {},
): string {
  const { fn } = field;
  const named =
    fn.argNames.length === fn.argTypes.length && fn.argNames.every((name) => name !== '');
  const sessionArg = field.sessionArgument;
  const tableArg =
    field.tableArgument ?? fn.argNames.find((name) => name !== sessionArg) ?? fn.argNames[0];
  const session = () => b.sessionJsonParam();
  const callee = `${ident(fn.schema)}.${ident(fn.name)}`;
  if (!named)
    return `${callee}(${[alias, ...(sessionArg !== undefined ? [session()] : [])].join(', ')})`;
  const args = fn.argNames.flatMap((name, i) => {
    if (name === tableArg) return [`${ident(name)} => ${alias}`];
    if (name === sessionArg) return [`${ident(name)} => ${session()}`];
    if (name in extra) {
      const argument = extra[name];
      const text =
        argument === null || argument === undefined
          ? null
          : typeof argument === 'string'
            ? argument
            : JSON.stringify(argument);
      return [`${ident(name)} => ${b.param(text, fn.argTypes[i])}`];
    }
    return [];
  });
  return `${callee}(${args.join(', ')})`;
}

function compare(
  exp: Extract<BoolExp, { kind: 'compare' }>,
  b: SqlBuilder,
  alias: string,
  rootAlias: string,
): string {
  const column = exp.computed
    ? computedCall(exp.computed, alias, b)
    : `${alias}.${ident(exp.column.name)}`;
  const { op, value } = exp;
  if (op === '_is_null') {
    const isNull =
      value.kind === 'literal'
        ? value.value === true
        : b.sessionValue(value.kind === 'session' ? value.name : '') === 'true';
    return `${column} IS ${isNull ? '' : 'NOT '}NULL`;
  }
  if (value.kind === 'literal' && value.value === null) return 'true';
  if (op === '_in')
    return `${column} = ANY(${operand(value, exp.column, op, b, alias, rootAlias)})`;
  if (op === '_nin')
    return `NOT (${column} = ANY(${operand(value, exp.column, op, b, alias, rootAlias)}))`;
  if (op === '_has_key')
    return `${column} ? ${operand(value, exp.column, op, b, alias, rootAlias)}`;
  if (op === '_has_keys_any')
    return `${column} ?| ${operand(value, exp.column, op, b, alias, rootAlias)}`;
  if (op === '_has_keys_all')
    return `${column} ?& ${operand(value, exp.column, op, b, alias, rootAlias)}`;
  return `${column} ${BINARY[op]!} ${operand(value, exp.column, op, b, alias, rootAlias)}`;
}

/**
 * A boolean expression as a SQL predicate on the row aliased `alias`. `rootAlias` is the row
 * that `["$", column]` comparisons in permissions refer to.
 */
export function compileBoolExp(
  exp: BoolExp,
  b: SqlBuilder,
  alias: string,
  rootAlias = alias,
): string {
  switch (exp.kind) {
    case 'true':
      return 'true';
    case 'and':
      return exp.items.length === 0
        ? 'true'
        : `(${exp.items.map((item) => compileBoolExp(item, b, alias, rootAlias)).join(' AND ')})`;
    case 'or':
      return exp.items.length === 0
        ? 'false'
        : `(${exp.items.map((item) => compileBoolExp(item, b, alias, rootAlias)).join(' OR ')})`;
    case 'not':
      return `(NOT ${compileBoolExp(exp.item, b, alias, rootAlias)})`;
    case 'compare':
      return compare(exp, b, alias, rootAlias);
    case 'relationship': {
      const target = b.alias();
      const conditions = [
        joinCondition(exp.relationship, alias, target),
        compileBoolExp(exp.where, b, target, rootAlias),
      ];
      if (exp.permission && exp.permission.kind !== 'true')
        conditions.push(compileBoolExp(exp.permission, b, target));
      return `EXISTS (SELECT 1 FROM ${tableRef(exp.target)} AS ${target} WHERE ${conditions.join(' AND ')})`;
    }
    case 'computed_exists': {
      const target = b.alias();
      const conditions = [compileBoolExp(exp.where, b, target, rootAlias)];
      if (exp.permission && exp.permission.kind !== 'true')
        conditions.push(compileBoolExp(exp.permission, b, target));
      return `EXISTS (SELECT 1 FROM ${computedCall(exp.field, alias, b)} AS ${target} WHERE ${conditions.join(' AND ')})`;
    }
    case 'exists': {
      const target = b.alias();
      return `EXISTS (SELECT 1 FROM ${tableRef(exp.table)} AS ${target} WHERE ${compileBoolExp(exp.where, b, target, rootAlias)})`;
    }
  }
}

export const tableRef = (table: TableSchema) => qualified(table.info.schema, table.info.name);

/** Both predicates, dropping the trivially true ones. */
export function andSql(...predicates: string[]): string {
  const kept = predicates.filter((predicate) => predicate !== 'true');
  return kept.length === 0 ? 'true' : kept.join(' AND ');
}

import type { ColumnInfo } from '../catalog/model.ts';
import { HasuraError } from '../errors.ts';
import { isJsonType, isTextType } from '../schema/scalars.ts';
import type {
  BoolExp,
  ComparisonOp,
  ComputedField,
  TableSchema,
  ValueRef,
} from '../schema/model.ts';

import { coerceColumnValue } from './values.ts';
import { literalFrom, type Coerce, type VariableBindings } from './variable-bindings.ts';

/*
 * One parser for both kinds of boolean expression:
 * - metadata permission filters and checks (`mode: 'metadata'`): columns by database name,
 *   strings like "X-Hasura-User-Id" are session variables, and `$`-prefixed operator aliases
 *   are accepted, as Hasura accepts them;
 * - a request's `where` argument (`mode: 'request'`): columns by GraphQL name, only what the
 *   role may see, values checked against the column's type, relationships filtered by the
 *   target's select permission.
 */

export interface BoolExpContext {
  mode: 'metadata' | 'request';
  tables: Map<string, TableSchema>;
  /** Request mode: whether the role can see a column of a table. */
  canSeeColumn?: (table: TableSchema, column: string) => boolean;
  /** Request mode: the role's select filter on a table, undefined when it cannot select it. */
  selectFilter?: (table: TableSchema) => BoolExp | undefined;
  /** Request mode: whether the role can use a computed field of a table. */
  canSeeComputedField?: (table: TableSchema, field: ComputedField) => boolean;
  /** Request mode: the longest `_regex` / `_similar` pattern accepted (plan/limits.ts). */
  maxPatternLength?: number;
  /** Request mode: records literals made from variables (plan/variable-bindings.ts). */
  bindings?: VariableBindings | undefined;
}

/** A column-like description of a scalar computed field's result, for comparisons. */
export function computedFieldColumn(field: ComputedField): ColumnInfo {
  const { fn } = field;
  const sqlType =
    fn.returnTypeSchema === 'pg_catalog'
      ? fn.returnTypeName
      : `${fn.returnTypeSchema}.${fn.returnTypeName}`;
  return {
    name: field.name,
    typeName: fn.returnTypeName,
    typeSchema: fn.returnTypeSchema,
    sqlType: sqlType === 'bpchar' ? 'bpchar' : sqlType,
    typeKind: 'b',
    isArray: fn.returnTypeName.startsWith('_'),
    enumValues: undefined,
    nullable: true,
    hasDefault: false,
    isGenerated: false,
    description: undefined,
  };
}

const COLUMN_OPS = new Set<string>([
  '_eq',
  '_neq',
  '_gt',
  '_gte',
  '_lt',
  '_lte',
  '_in',
  '_nin',
  '_is_null',
]);
/** Operators whose pattern PostgreSQL compiles to a regular expression. */
const REGEX_OPS = new Set<string>([
  '_similar',
  '_nsimilar',
  '_regex',
  '_nregex',
  '_iregex',
  '_niregex',
]);
const TEXT_OPS = new Set<string>(['_like', '_nlike', '_ilike', '_nilike', ...REGEX_OPS]);
const JSON_OPS = new Set<string>([
  '_contains',
  '_contained_in',
  '_has_key',
  '_has_keys_any',
  '_has_keys_all',
]);
const COLUMN_COMPARE_OPS = new Set<string>(['_ceq', '_cne', '_cgt', '_cgte', '_clt', '_clte']);

/** Other spellings Hasura accepts for an operator. */
const OPERATOR_ALIASES: Record<string, string> = { _ne: '_neq', _cneq: '_cne' };

/** Metadata (only) may write operators as `$eq` instead of `_eq`, and `_ne` for `_neq`. */
const normaliseOperator = (key: string) => {
  const underscored = key.startsWith('$') ? `_${key.slice(1)}` : key;
  return OPERATOR_ALIASES[underscored] ?? underscored;
};

export const isSessionVariable = (value: unknown): value is string =>
  typeof value === 'string' && value.toLowerCase().startsWith('x-hasura-');

function typeLabel(table: TableSchema, suffix: string) {
  return `'${table.typeName}_${suffix}'`;
}

function fail(ctx: BoolExpContext, message: string, path: string): never {
  if (ctx.mode === 'metadata') throw new Error(`${message} (at ${path})`);
  throw new HasuraError('validation-failed', message, path);
}

function findColumn(table: TableSchema, key: string, ctx: BoolExpContext): ColumnInfo | undefined {
  if (ctx.mode === 'metadata') return table.columnsBySql.get(key)?.column;
  const field = table.columns.get(key);
  if (!field || !(ctx.canSeeColumn?.(table, field.column.name) ?? true)) return undefined;
  return field.column;
}

function parseValue(
  value: unknown,
  column: ColumnInfo,
  ctx: BoolExpContext,
  path: string,
  options: { list?: boolean; check?: (value: unknown) => void } = {},
): ValueRef {
  if (ctx.mode === 'metadata' && isSessionVariable(value))
    return { kind: 'session', name: value.toLowerCase() };
  if (ctx.mode !== 'request') return { kind: 'literal', value };
  // Everything a request's value goes through before it is a literal, so that a cached plan
  // re-bound to another value runs the same checks (plan/variable-bindings.ts).
  const coerce: Coerce = (raw) => {
    options.check?.(raw);
    if (!options.list) return coerceColumnValue(raw, column, path);
    if (!Array.isArray(raw)) return [coerceColumnValue(raw, column, path)];
    return raw.map((item, i) => coerceColumnValue(item, column, `${path}[${i}]`));
  };
  return literalFrom(ctx.bindings, value, path, coerce);
}

function parseColumnComparison(
  table: TableSchema,
  column: ColumnInfo,
  spec: unknown,
  ctx: BoolExpContext,
  path: string,
  root: TableSchema,
): BoolExp {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    // Hasura's shorthand `column: value` means `_eq`.
    if (ctx.mode === 'metadata')
      return { kind: 'compare', column, op: '_eq', value: parseValue(spec, column, ctx, path) };
    fail(
      ctx,
      `expected an object for type '${column.typeName}_comparison_exp', but found ${describe(spec)}`,
      path,
    );
  }
  const items: BoolExp[] = [];
  for (const [rawKey, operand] of Object.entries(spec)) {
    const op = ctx.mode === 'metadata' ? normaliseOperator(rawKey) : rawKey;
    const opPath = `${path}.${rawKey}`;
    if (operand === undefined) continue;
    if (COLUMN_OPS.has(op)) {
      if (op === '_is_null') {
        if (
          typeof operand !== 'boolean' &&
          !(ctx.mode === 'metadata' && isSessionVariable(operand))
        ) {
          fail(
            ctx,
            `expected a boolean for type 'Boolean', but found ${describe(operand)}`,
            opPath,
          );
        }
        items.push({
          kind: 'compare',
          column,
          op: '_is_null',
          value: { kind: 'literal', value: operand },
        });
      } else {
        const list = op === '_in' || op === '_nin';
        items.push({
          kind: 'compare',
          column,
          op: op as ComparisonOp,
          value: parseValue(operand, column, ctx, opPath, { list }),
        });
      }
    } else if (TEXT_OPS.has(op) && isTextType(column.typeName)) {
      const maxPattern = ctx.maxPatternLength;
      // Kept with a cached plan, so it holds on to nothing of this request (no ctx).
      const check = (pattern: unknown) => {
        if (
          maxPattern !== undefined &&
          REGEX_OPS.has(op) &&
          typeof pattern === 'string' &&
          pattern.length > maxPattern
        ) {
          // Matching cost grows steeply with the pattern: 2,000 characters kept a backend busy
          // for a minute on one long row (issue 11).
          throw new HasuraError(
            'validation-failed',
            `a ${op} pattern may be at most ${maxPattern} characters long`,
            opPath,
          );
        }
      };
      items.push({
        kind: 'compare',
        column,
        op: op as ComparisonOp,
        value: parseValue(operand, column, ctx, opPath, { check }),
      });
    } else if (JSON_OPS.has(op) && column.typeName === 'jsonb') {
      const value: ValueRef =
        ctx.mode === 'metadata' && isSessionVariable(operand)
          ? { kind: 'session', name: operand.toLowerCase() }
          : { kind: 'literal', value: operand };
      items.push({ kind: 'compare', column, op: op as ComparisonOp, value });
    } else if (COLUMN_COMPARE_OPS.has(op) && ctx.mode === 'metadata') {
      // ["$", "col"] names a column of the row the permission is on, not of this nested table.
      const fromRoot = Array.isArray(operand) && operand[0] === '$';
      const name = Array.isArray(operand) ? String(operand.at(-1)) : String(operand);
      const other = (fromRoot ? root : table).columnsBySql.get(name)?.column;
      if (!other) fail(ctx, `no column ${name} for ${op}`, opPath);
      items.push({
        kind: 'compare',
        column,
        op: op as ComparisonOp,
        value: { kind: 'column', column: other, fromRoot },
      });
    } else {
      fail(ctx, `field '${rawKey}' not found in type: '${comparisonTypeName(column)}'`, opPath);
    }
  }
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

export function comparisonTypeName(column: ColumnInfo): string {
  const builtIn: Record<string, string> = {
    int4: 'Int',
    bool: 'Boolean',
    float4: 'Float',
    text: 'String',
    varchar: 'String',
  };
  const renamed: Record<string, string> = { int2: 'smallint', int8: 'bigint' };
  return `${builtIn[column.typeName] ?? renamed[column.typeName] ?? column.typeName}_comparison_exp`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  return `a ${typeof value}`;
}

function parseList(
  table: TableSchema,
  value: unknown,
  ctx: BoolExpContext,
  path: string,
  root: TableSchema,
): BoolExp[] {
  // Hasura accepts a single object where a list is expected (input coercion).
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, i) =>
    parseBoolExp(table, item, ctx, Array.isArray(value) ? `${path}[${i}]` : path, root),
  );
}

/**
 * Parses one boolean expression object on `table`. An empty object is TRUE. `root` is the
 * table the whole expression is on, which `["$", column]` comparisons refer to.
 */
export function parseBoolExp(
  table: TableSchema,
  json: unknown,
  ctx: BoolExpContext,
  path = '$',
  root = table,
): BoolExp {
  if (json === null || json === undefined) return { kind: 'true' };
  if (typeof json !== 'object' || Array.isArray(json)) {
    fail(
      ctx,
      `expected an object for type ${typeLabel(table, 'bool_exp')}, but found ${describe(json)}`,
      path,
    );
  }
  const items: BoolExp[] = [];
  for (const [rawKey, value] of Object.entries(json)) {
    if (value === undefined) continue;
    const key = ctx.mode === 'metadata' ? normaliseOperator(rawKey) : rawKey;
    const keyPath = `${path}.${rawKey}`;
    switch (key) {
      case '_and':
        if (value === null) break;
        items.push({ kind: 'and', items: parseList(table, value, ctx, keyPath, root) });
        continue;
      case '_or':
        if (value === null) break;
        items.push({ kind: 'or', items: parseList(table, value, ctx, keyPath, root) });
        continue;
      case '_not':
        if (value === null) break;
        items.push({ kind: 'not', item: parseBoolExp(table, value, ctx, keyPath, root) });
        continue;
      case '_exists': {
        // Hasura accepts `_exists` only in permission rules: a role's `<table>_bool_exp` does
        // not list it, so a request's `where` falls through to "not found" below (issue 19:
        // taken from a user, it read every row of any table with no row filter).
        if (ctx.mode === 'request') break;
        const spec = value as {
          _table?: { schema?: string; name?: string } | string;
          _where?: unknown;
        };
        const ref =
          typeof spec._table === 'string' ? { schema: 'public', name: spec._table } : spec._table;
        const target = ctx.tables.get(`${ref?.schema ?? 'public'}.${ref?.name ?? ''}`);
        if (!target)
          fail(ctx, `_exists refers to an untracked table ${JSON.stringify(spec._table)}`, keyPath);
        items.push({
          kind: 'exists',
          table: target,
          where: parseBoolExp(target, spec._where ?? {}, ctx, `${keyPath}._where`, root),
        });
        continue;
      }
      default:
        break;
    }
    if (value === null && (key === '_and' || key === '_or' || key === '_not')) continue;
    const column = findColumn(table, rawKey, ctx);
    if (column) {
      if (value === null) continue;
      items.push(parseColumnComparison(table, column, value, ctx, keyPath, root));
      continue;
    }
    const relationship = table.relationships.get(rawKey);
    const target = relationship && ctx.tables.get(relationship.target);
    const permission = target && ctx.mode === 'request' ? ctx.selectFilter?.(target) : undefined;
    if (relationship && target && (ctx.mode === 'metadata' || permission)) {
      if (value === null) continue;
      items.push({
        kind: 'relationship',
        relationship,
        target,
        where: parseBoolExp(target, value, ctx, keyPath, root),
        permission: ctx.mode === 'request' ? permission : undefined,
      });
      continue;
    }
    const computed = table.computedFields.get(rawKey);
    if (
      computed &&
      (ctx.mode === 'metadata' || (ctx.canSeeComputedField?.(table, computed) ?? false))
    ) {
      if (value === null) continue;
      if ('scalar' in computed.returns) {
        const comparison = parseColumnComparison(
          table,
          computedFieldColumn(computed),
          value,
          ctx,
          keyPath,
          root,
        );
        items.push(withComputed(comparison, computed));
      } else {
        const computedTarget = ctx.tables.get(computed.returns.table);
        if (!computedTarget)
          fail(ctx, `computed field ${rawKey} returns an untracked table`, keyPath);
        // As with relationships, a request's filter over returned rows sees only the rows
        // the role may select (canSeeComputedField has checked it may select some).
        const permission = ctx.mode === 'request' ? ctx.selectFilter?.(computedTarget) : undefined;
        if (ctx.mode === 'request' && !permission)
          fail(
            ctx,
            `field '${rawKey}' not found in type: ${typeLabel(table, 'bool_exp')}`,
            keyPath,
          );
        items.push({
          kind: 'computed_exists',
          field: computed,
          target: computedTarget,
          where: parseBoolExp(computedTarget, value, ctx, keyPath, root),
          permission,
        });
      }
      continue;
    }
    fail(ctx, `field '${rawKey}' not found in type: ${typeLabel(table, 'bool_exp')}`, keyPath);
  }
  if (items.length === 0) return { kind: 'true' };
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

/** Marks the comparisons of a scalar computed field's value as reading the function, not a column. */
function withComputed(exp: BoolExp, field: ComputedField): BoolExp {
  if (exp.kind === 'compare') return { ...exp, computed: field };
  if (exp.kind === 'and')
    return { kind: 'and', items: exp.items.map((item) => withComputed(item, field)) };
  return exp;
}

/** Whether a comparison's operator applies to JSON documents (their values travel as JSON). */
export const isJsonOperand = (column: ColumnInfo, op: ComparisonOp) =>
  isJsonType(column.typeName) &&
  (op === '_eq' ||
    op === '_neq' ||
    op === '_contains' ||
    op === '_contained_in' ||
    op === '_in' ||
    op === '_nin');

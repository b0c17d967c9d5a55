import { parseJsonPath } from '../auth/json-path.ts';
import type { ColumnInfo } from '../catalog/model.ts';
import { HasuraError } from '../errors.ts';
import {
  computedFieldInputNames,
  type BoolExp,
  type ComputedField,
  type RoleTable,
} from '../schema/model.ts';
import { isComparableType, isNumericType } from '../schema/scalars.ts';

import { parseBoolExp } from './bool-exp.ts';
import {
  canUseComputedField,
  hopTo,
  requestBoolExpContext,
  roleTableOf,
  selectableColumn,
  type PlanContext,
} from './context.ts';
import {
  AGGREGATE_FUNCTIONS,
  type AggregateField,
  type AggregateFunction,
  type AggregatePlan,
  type FieldPlan,
  type OrderByItem,
  type SelectArgs,
} from './ir.ts';
import { parseOrderByObject } from './order-by.ts';
import {
  collectFields,
  expectLeaf,
  expectSelectionSet,
  fieldArguments,
  type CollectedField,
} from './selection.ts';
import { coerceBoolean, coerceNonNegativeInt } from './values.ts';

/** `args` where the computed field's function takes arguments of its own, else nothing. */
const argsOf = (computed: ComputedField): string[] =>
  computedFieldInputNames(computed).length > 0 ? ['args'] : [];

export const SELECT_ARGUMENTS = ['where', 'order_by', 'limit', 'offset', 'distinct_on'] as const;

/**
 * Parses where / order_by / limit / offset / distinct_on of a select on `entry`. The role's
 * row limit caps plain selects; aggregates count every permitted row, as in Hasura.
 */
export function parseSelectArgs(
  ctx: PlanContext,
  entry: RoleTable,
  args: Record<string, unknown>,
  path: string,
  options: { aggregate?: boolean } = {},
): SelectArgs {
  const where: BoolExp = parseBoolExp(
    entry.table,
    args['where'],
    requestBoolExpContext(ctx),
    `${path}.args.where`,
  );
  const orderBy: OrderByItem[] = [];
  const orderByValue = args['order_by'];
  if (orderByValue !== undefined && orderByValue !== null) {
    const items = Array.isArray(orderByValue) ? orderByValue : [orderByValue];
    items.forEach((item, i) =>
      parseOrderByObject(
        ctx,
        entry,
        item,
        [],
        Array.isArray(orderByValue) ? `${path}.args.order_by[${i}]` : `${path}.args.order_by`,
        orderBy,
      ),
    );
  }
  let distinctOn: ColumnInfo[] | undefined;
  const distinctValue = args['distinct_on'];
  // An empty list distincts on nothing: as if absent (it was `DISTINCT ON ()`, a syntax error).
  const noDistinct = Array.isArray(distinctValue) && distinctValue.length === 0;
  if (distinctValue !== undefined && distinctValue !== null && !noDistinct) {
    const names = Array.isArray(distinctValue) ? distinctValue : [distinctValue];
    distinctOn = names.map((name, i) => {
      const column = typeof name === 'string' ? selectableColumn(entry, name) : undefined;
      if (!column)
        throw new HasuraError(
          'validation-failed',
          `expected one of the values ${[...entry.table.columns.keys()].filter((key) => selectableColumn(entry, key)).join(', ')} for type '${entry.table.typeName}_select_column', but found ${JSON.stringify(name)}`,
          `${path}.args.distinct_on[${i}]`,
        );
      return column;
    });
    const leading = orderBy.slice(0, distinctOn.length);
    const matches =
      orderBy.length === 0 ||
      (leading.length === distinctOn.length &&
        leading.every(
          (item) =>
            item.path.length === 0 &&
            item.target.kind === 'column' &&
            distinctOn!.includes(item.target.column),
        ));
    if (!matches)
      throw new HasuraError(
        'validation-failed',
        '"distinct_on" columns must match initial "order_by" columns',
        `${path}.args`,
      );
  }
  const requested = coerceNonNegativeInt(args['limit'], `${path}.args.limit`);
  const permissionLimit = options.aggregate ? undefined : entry.select?.limit;
  const limit =
    permissionLimit === undefined
      ? requested
      : Math.min(requested ?? permissionLimit, permissionLimit);
  // Hasura takes an offset written as a string of digits too.
  const offsetValue =
    typeof args['offset'] === 'string' && /^\d+$/.test(args['offset'])
      ? Number(args['offset'])
      : args['offset'];
  return {
    where,
    orderBy,
    limit,
    offset: coerceNonNegativeInt(offsetValue, `${path}.args.offset`),
    distinctOn,
    nodesLimit: options.aggregate ? entry.select?.limit : undefined,
  };
}

function parseAggregateFields(
  ctx: PlanContext,
  entry: RoleTable,
  field: CollectedField,
): AggregateField[] {
  const typeName = `${entry.table.typeName}_aggregate_fields`;
  return collectFields(
    expectSelectionSet(field, typeName),
    typeName,
    ctx,
    field.path,
    field.fragmentStack,
  ).map((sub): AggregateField => {
    if (sub.name === '__typename') return { alias: sub.alias, kind: 'typename', value: typeName };
    if (sub.name === 'count') {
      const args = fieldArguments(sub, ['columns', 'distinct'], ctx);
      expectLeaf(sub);
      const names =
        args['columns'] === undefined || args['columns'] === null
          ? undefined
          : Array.isArray(args['columns'])
            ? args['columns']
            : [args['columns']];
      const columns = names?.map((name) => {
        const column = typeof name === 'string' ? selectableColumn(entry, name) : undefined;
        if (!column)
          throw new HasuraError(
            'validation-failed',
            `expected one of the values ${[...entry.table.columns.keys()].filter((key) => selectableColumn(entry, key)).join(', ')} for type '${entry.table.typeName}_select_column', but found ${JSON.stringify(name)}`,
            sub.path,
          );
        return column;
      });
      return {
        alias: sub.alias,
        kind: 'count',
        columns,
        distinct: coerceBoolean(args['distinct'], `${sub.path}.args.distinct`) ?? false,
      };
    }
    const fn = sub.name as AggregateFunction;
    const numericOnly = fn !== 'max' && fn !== 'min';
    const fnType = `${entry.table.typeName}_${fn}_fields`;
    const eligible = (column: ColumnInfo) =>
      numericOnly
        ? isNumericType(column.typeName) && !column.isArray
        : isComparableType(column.typeName, column.isArray);
    if (
      !(AGGREGATE_FUNCTIONS as readonly string[]).includes(fn) ||
      ![...(entry.select?.columns ?? [])].some((name) =>
        eligible(entry.table.columnsBySql.get(name)!.column),
      )
    ) {
      throw new HasuraError(
        'validation-failed',
        `field '${sub.name}' not found in type: '${typeName}'`,
        sub.path,
      );
    }
    fieldArguments(sub, [], ctx);
    const columns = collectFields(
      expectSelectionSet(sub, fnType),
      fnType,
      ctx,
      sub.path,
      sub.fragmentStack,
    ).map((leaf) => {
      if (leaf.name === '__typename') return { alias: leaf.alias, typename: fnType };
      const column = selectableColumn(entry, leaf.name);
      if (!column || !eligible(column))
        throw new HasuraError(
          'validation-failed',
          `field '${leaf.name}' not found in type: '${fnType}'`,
          leaf.path,
        );
      expectLeaf(leaf);
      return { alias: leaf.alias, column };
    });
    return { alias: sub.alias, kind: 'function', fn, columns };
  });
}

/** `<t>_aggregate { aggregate { ... } nodes { ... } }`. */
export function parseAggregateSelection(
  ctx: PlanContext,
  entry: RoleTable,
  field: CollectedField,
): AggregatePlan {
  const typeName = `${entry.table.typeName}_aggregate`;
  const fields = collectFields(
    expectSelectionSet(field, typeName),
    typeName,
    ctx,
    field.path,
    field.fragmentStack,
  ).map((sub): AggregatePlan['fields'][number] => {
    if (sub.name === '__typename') return { alias: sub.alias, kind: 'typename', value: typeName };
    if (sub.name === 'nodes') {
      fieldArguments(sub, [], ctx);
      return { alias: sub.alias, kind: 'nodes', fields: parseTableSelection(ctx, entry, sub) };
    }
    if (sub.name === 'aggregate') {
      fieldArguments(sub, [], ctx);
      return { alias: sub.alias, kind: 'aggregate', fields: parseAggregateFields(ctx, entry, sub) };
    }
    throw new HasuraError(
      'validation-failed',
      `field '${sub.name}' not found in type: '${typeName}'`,
      sub.path,
    );
  });
  return { fields };
}

/** The fields asked of rows of `entry`'s table. */
export function parseTableSelection(
  ctx: PlanContext,
  entry: RoleTable,
  field: CollectedField,
): FieldPlan[] {
  const { table } = entry;
  const selectionSet = expectSelectionSet(field, table.typeName);
  return collectFields(selectionSet, table.typeName, ctx, field.path, field.fragmentStack).map(
    (sub): FieldPlan => {
      if (sub.name === '__typename') {
        expectLeaf(sub);
        return { alias: sub.alias, kind: 'typename', value: table.typeName };
      }
      const column = selectableColumn(entry, sub.name);
      if (column) {
        const args = fieldArguments(
          sub,
          column.typeName === 'jsonb' || column.typeName === 'json' ? ['path'] : [],
          ctx,
        );
        expectLeaf(sub);
        const path = args['path'];
        if (path === undefined || path === null)
          return { alias: sub.alias, kind: 'column', column };
        if (typeof path !== 'string')
          throw new HasuraError(
            'validation-failed',
            `expected a string for type 'String', but found ${typeof path}`,
            `${sub.path}.args.path`,
          );
        let jsonPath: Array<string | number>;
        try {
          // Column paths also accept `.` before a bracket (`objs[0].["key"]`), as Hasura does.
          jsonPath = [...parseJsonPath(path.replaceAll('.[', '['))];
        } catch (error) {
          throw new HasuraError(
            'validation-failed',
            `parse json path error: ${(error as Error).message}`,
            `${sub.path}.args.path`,
          );
        }
        return { alias: sub.alias, kind: 'column', column, jsonPath };
      }
      const hop = hopTo(ctx, table, sub.name);
      if (hop) {
        const target = roleTableOf(ctx, hop.target)!;
        if (hop.relationship.kind === 'object') {
          fieldArguments(sub, [], ctx);
          return {
            alias: sub.alias,
            kind: 'object',
            hop,
            fields: parseTableSelection(ctx, target, sub),
          };
        }
        const args = parseSelectArgs(
          ctx,
          target,
          fieldArguments(sub, SELECT_ARGUMENTS, ctx),
          sub.path,
        );
        return {
          alias: sub.alias,
          kind: 'array',
          hop,
          args,
          fields: parseTableSelection(ctx, target, sub),
        };
      }
      const aggregateHop = sub.name.endsWith('_aggregate')
        ? hopTo(ctx, table, sub.name.slice(0, -'_aggregate'.length))
        : undefined;
      const aggregateTarget = aggregateHop && roleTableOf(ctx, aggregateHop.target);
      if (
        aggregateHop?.relationship.kind === 'array' &&
        aggregateTarget?.select?.allowAggregations
      ) {
        const args = parseSelectArgs(
          ctx,
          aggregateTarget,
          fieldArguments(sub, SELECT_ARGUMENTS, ctx),
          sub.path,
          { aggregate: true },
        );
        return {
          alias: sub.alias,
          kind: 'array_aggregate',
          hop: aggregateHop,
          args,
          aggregate: parseAggregateSelection(ctx, aggregateTarget, sub),
        };
      }
      const computed = table.computedFields.get(sub.name);
      if (computed && canUseComputedField(ctx, table, computed)) {
        if ('scalar' in computed.returns) {
          const functionArgs = (fieldArguments(sub, argsOf(computed), ctx)['args'] ?? {}) as Record<
            string,
            unknown
          >;
          expectLeaf(sub);
          return {
            alias: sub.alias,
            kind: 'computed',
            field: computed,
            functionArgs,
            permission: undefined,
            args: undefined,
            fields: undefined,
          };
        }
        const returned = ctx.model.tables.get(computed.returns.table);
        const returnedEntry = returned && roleTableOf(ctx, returned);
        if (returnedEntry?.select) {
          const raw = fieldArguments(sub, [...SELECT_ARGUMENTS, ...argsOf(computed)], ctx);
          const args = parseSelectArgs(ctx, returnedEntry, raw, sub.path);
          const functionArgs = (raw['args'] ?? {}) as Record<string, unknown>;
          return {
            alias: sub.alias,
            kind: 'computed',
            field: computed,
            functionArgs,
            permission: returnedEntry.select.filter,
            args,
            fields: parseTableSelection(ctx, returnedEntry, sub),
          };
        }
      }
      throw new HasuraError(
        'validation-failed',
        `field '${sub.name}' not found in type: '${table.typeName}'`,
        sub.path,
      );
    },
  );
}

import { HasuraError } from '../errors.ts';
import type { RoleTable } from '../schema/model.ts';

import {
  canUseComputedField,
  hopTo,
  roleTableOf,
  selectableColumn,
  type PlanContext,
} from './context.ts';
import {
  AGGREGATE_FUNCTIONS,
  type AggregateFunction,
  type OrderByItem,
  type RelationshipHop,
} from './ir.ts';

/*
 * `order_by`: columns, object relationships followed to any depth, aggregates of array
 * relationships, computed fields and their aggregates, each with Hasura's directions.
 */

const DIRECTIONS: Record<string, Pick<OrderByItem, 'direction' | 'nulls'>> = {
  asc: { direction: 'asc', nulls: 'last' },
  asc_nulls_first: { direction: 'asc', nulls: 'first' },
  asc_nulls_last: { direction: 'asc', nulls: 'last' },
  desc: { direction: 'desc', nulls: 'first' },
  desc_nulls_first: { direction: 'desc', nulls: 'first' },
  desc_nulls_last: { direction: 'desc', nulls: 'last' },
};

function direction(value: unknown, path: string): Pick<OrderByItem, 'direction' | 'nulls'> {
  const found = typeof value === 'string' ? DIRECTIONS[value] : undefined;
  if (!found)
    throw new HasuraError(
      'validation-failed',
      `expected one of the values ${Object.keys(DIRECTIONS).join(', ')} for type 'order_by', but found ${JSON.stringify(value)}`,
      path,
    );
  return found;
}

/** Parses one `order_by` object on `entry` into `out`, following object relationships. */
export function parseOrderByObject(
  ctx: PlanContext,
  entry: RoleTable,
  value: unknown,
  hops: RelationshipHop[],
  path: string,
  out: OrderByItem[],
): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new HasuraError(
      'validation-failed',
      `expected an object for type '${entry.table.typeName}_order_by', but found ${Array.isArray(value) ? 'a list' : typeof value}`,
      path,
    );
  }
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue;
    const itemPath = `${path}.${key}`;
    const column = selectableColumn(entry, key);
    if (column) {
      out.push({ path: hops, target: { kind: 'column', column }, ...direction(item, itemPath) });
      continue;
    }
    const hop = hopTo(ctx, entry.table, key);
    if (hop && hop.relationship.kind === 'object') {
      parseOrderByObject(ctx, roleTableOf(ctx, hop.target)!, item, [...hops, hop], itemPath, out);
      continue;
    }
    const aggregateHop = key.endsWith('_aggregate')
      ? hopTo(ctx, entry.table, key.slice(0, -'_aggregate'.length))
      : undefined;
    if (aggregateHop && aggregateHop.relationship.kind === 'array') {
      const target = roleTableOf(ctx, aggregateHop.target)!;
      for (const [fn, spec] of Object.entries(item as Record<string, unknown>)) {
        if (spec === null || spec === undefined) continue;
        if (fn === 'count') {
          out.push({
            path: hops,
            target: { kind: 'aggregate', hop: aggregateHop, fn: 'count', column: undefined },
            ...direction(spec, `${itemPath}.count`),
          });
          continue;
        }
        if (!(AGGREGATE_FUNCTIONS as readonly string[]).includes(fn)) {
          throw new HasuraError(
            'validation-failed',
            `field '${fn}' not found in type: '${aggregateHop.target.typeName}_aggregate_order_by'`,
            `${itemPath}.${fn}`,
          );
        }
        for (const [columnName, dir] of Object.entries(spec as Record<string, unknown>)) {
          const column = selectableColumn(target, columnName);
          if (!column)
            throw new HasuraError(
              'validation-failed',
              `field '${columnName}' not found in type: '${aggregateHop.target.typeName}_${fn}_order_by'`,
              `${itemPath}.${fn}.${columnName}`,
            );
          if (dir === null || dir === undefined) continue;
          out.push({
            path: hops,
            target: { kind: 'aggregate', hop: aggregateHop, fn: fn as AggregateFunction, column },
            ...direction(dir, `${itemPath}.${fn}.${columnName}`),
          });
        }
      }
      continue;
    }
    const computed = entry.table.computedFields.get(
      key.endsWith('_aggregate') ? key.slice(0, -'_aggregate'.length) : key,
    );
    if (computed && canUseComputedField(ctx, entry.table, computed)) {
      if ('scalar' in computed.returns && computed.name === key) {
        out.push({
          path: hops,
          target: { kind: 'computed', field: computed },
          ...direction(item, itemPath),
        });
        continue;
      }
      const returned =
        'table' in computed.returns ? ctx.model.tables.get(computed.returns.table) : undefined;
      const returnedEntry = returned && roleTableOf(ctx, returned);
      const permission = returnedEntry?.select?.filter;
      if (returnedEntry && permission && key === `${computed.name}_aggregate`) {
        for (const [fn, spec] of Object.entries(item as Record<string, unknown>)) {
          if (spec === null || spec === undefined) continue;
          if (fn === 'count') {
            out.push({
              path: hops,
              target: {
                kind: 'computed_aggregate',
                field: computed,
                fn: 'count',
                column: undefined,
                permission,
              },
              ...direction(spec, `${itemPath}.count`),
            });
            continue;
          }
          if (!['avg', 'max', 'min', 'sum'].includes(fn)) {
            throw new HasuraError(
              'validation-failed',
              `field '${fn}' not found in type: '${returned.typeName}_aggregate_order_by'`,
              `${itemPath}.${fn}`,
            );
          }
          for (const [columnName, dir] of Object.entries(spec as Record<string, unknown>)) {
            const column = selectableColumn(returnedEntry, columnName);
            if (!column)
              throw new HasuraError(
                'validation-failed',
                `field '${columnName}' not found in type: '${returned.typeName}_${fn}_order_by'`,
                `${itemPath}.${fn}.${columnName}`,
              );
            if (dir === null || dir === undefined) continue;
            out.push({
              path: hops,
              target: {
                kind: 'computed_aggregate',
                field: computed,
                fn: fn as 'avg' | 'max' | 'min' | 'sum',
                column,
                permission,
              },
              ...direction(dir, `${itemPath}.${fn}.${columnName}`),
            });
          }
        }
        continue;
      }
    }
    throw new HasuraError(
      'validation-failed',
      `field '${key}' not found in type: '${entry.table.typeName}_order_by'`,
      itemPath,
    );
  }
}

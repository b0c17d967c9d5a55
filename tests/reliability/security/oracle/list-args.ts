import fc from 'fast-check';

import { operandArb, scalarOf, type Pools } from './operands.ts';
import { EnumValue, type ArgValue, type ListArgs } from './query.ts';
import type { RoleModel, TableModel } from './schema-model.ts';

/*
 * The arguments of a list (root field or array relationship): where expressions (comparisons of
 * every operator, relationships, _and/_or/_not) and order_by items (columns, object
 * relationships, aggregates), distinct_on, limit and offset, with the order made total by the
 * tiebreak columns when the answer depends on it.
 */

export const DIRECTIONS = [
  'asc',
  'desc',
  'asc_nulls_first',
  'asc_nulls_last',
  'desc_nulls_first',
  'desc_nulls_last',
] as const;

const direction = fc.constantFrom(...DIRECTIONS).map((value) => new EnumValue(value));

/** `arbitrary` `percent` % of the time, else undefined (what shrinking goes to). */
export const sometimes = <T>(
  arbitrary: fc.Arbitrary<T>,
  percent: number,
): fc.Arbitrary<T | undefined> =>
  fc.oneof(
    { weight: 100 - percent, arbitrary: fc.constant(undefined) },
    { weight: percent, arbitrary },
  );

/** One to `most` items of a non-empty list, in the list's order. */
export const someOf = <T>(items: T[], most: number) =>
  fc.subarray(items, { minLength: 1, maxLength: Math.min(most, items.length) });

export interface ListArbitraries {
  /** Where expressions of a table, relationships nested `depth` levels deep. */
  where: (table: string, depth: number) => fc.Arbitrary<ArgValue>;
  /** The columns order_by ends with to fix the order (primary key, else every column). */
  tiebreak: (table: string) => string[];
  /** where / order_by / distinct_on / limit / offset; `limitPercent`: `always` or how often. */
  listArgs: (
    table: string,
    whereDepth: number,
    limitPercent: number | 'always',
  ) => fc.Arbitrary<{ args: ListArgs; ordered: boolean }>;
}

/** The list arguments of one role's tables (built lazily per table and depth, then cached). */
export function listArbitraries(
  model: RoleModel,
  pools: Pools,
  primaryKeys: Map<string, string[]>,
  computedFields: Set<string>,
): ListArbitraries {
  const tables = model.tables;
  const whereCache = new Map<string, fc.Arbitrary<ArgValue>>();
  const orderCache = new Map<string, fc.Arbitrary<ArgValue>>();

  function comparison(table: TableModel, column: { name: string; comparison: string }) {
    const operators = [
      ...(model.comparisons.get(column.comparison) ?? new Map<string, string>()).entries(),
    ];
    const scalar = scalarOf(table, column.name);
    return fc.oneof(
      ...operators.map(([op, type]) =>
        operandArb(pools, table.name, column.name, scalar, op, type).map((operand): ArgValue => ({
          [column.name]: { [op]: operand },
        })),
      ),
    );
  }

  function where(tableName: string, depth: number): fc.Arbitrary<ArgValue> {
    const key = `${tableName}:${depth}`;
    const cached = whereCache.get(key);
    if (cached) return cached;
    const table = tables.get(tableName)!;
    const options: Array<{ weight: number; arbitrary: fc.Arbitrary<ArgValue> }> = [];
    if (table.boolColumns.length > 0)
      options.push({
        weight: 6,
        arbitrary: fc.oneof(...table.boolColumns.map((column) => comparison(table, column))),
      });
    options.push({ weight: 1, arbitrary: fc.constant({}) });
    const rels = table.boolRels.filter((rel) => tables.has(rel.target));
    if (depth > 0) {
      if (rels.length > 0)
        options.push({
          weight: 4,
          arbitrary: fc.oneof(
            ...rels.map((rel) =>
              where(rel.target, depth - 1).map((inner): ArgValue => ({ [rel.name]: inner })),
            ),
          ),
        });
      const inner = where(tableName, depth - 1);
      options.push({
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom('_and', '_or'), fc.array(inner, { maxLength: 3 }))
          .map(([op, items]): ArgValue => ({ [op]: items })),
      });
      options.push({ weight: 1, arbitrary: inner.map((item): ArgValue => ({ _not: item })) });
      // Two conditions in one object are an implicit _and.
      options.push({
        weight: 1,
        arbitrary: fc
          .tuple(inner, inner)
          .map(([a, b]): ArgValue => ({ ...(b as object), ...(a as object) })),
      });
    }
    const arbitrary = fc.oneof(...options);
    whereCache.set(key, arbitrary);
    return arbitrary;
  }

  function orderItem(tableName: string, depth: number): fc.Arbitrary<ArgValue> {
    const key = `${tableName}:${depth}`;
    const cached = orderCache.get(key);
    if (cached) return cached;
    const table = tables.get(tableName)!;
    const options: Array<fc.Arbitrary<ArgValue>> = [];
    if (table.orderColumns.length > 0)
      options.push(
        fc
          .tuple(fc.constantFrom(...table.orderColumns), direction)
          .map(([column, dir]): ArgValue => ({ [column]: dir })),
      );
    if (depth > 0) {
      for (const rel of table.orderRels.filter((item) => tables.has(item.target)))
        options.push(
          orderItem(rel.target, depth - 1).map((inner): ArgValue => ({ [rel.name]: inner })),
        );
      for (const aggregate of table.orderAggregates.filter((item) => tables.has(item.target))) {
        const target = tables.get(aggregate.target)!;
        const fns = target.aggregateOrderFunctions.filter((fn) => fn.columns.length > 0);
        options.push(
          fc
            .oneof(
              direction.map((dir): ArgValue => ({ count: dir })),
              ...fns.map((fn) =>
                fc
                  .tuple(fc.constantFrom(...fn.columns), direction)
                  .map(([column, dir]): ArgValue => ({ [fn.fn]: { [column]: dir } })),
              ),
            )
            .map((inner): ArgValue => ({ [aggregate.name]: inner })),
        );
      }
    }
    const arbitrary = options.length > 0 ? fc.oneof(...options) : fc.constant({});
    orderCache.set(key, arbitrary);
    return arbitrary;
  }

  function tiebreak(tableName: string): string[] {
    const table = tables.get(tableName)!;
    const key = primaryKeys.get(tableName) ?? [];
    if (key.length > 0 && key.every((column) => table.orderColumns.includes(column))) return key;
    return table.orderColumns.filter((column) => !computedFields.has(`${tableName}.${column}`));
  }

  /** where / order_by / distinct_on / limit / offset, with the order made total when it matters. */
  function listArgs(
    tableName: string,
    whereDepth: number,
    /** `always`, or how often (percent) a limit is given. */
    limitPercent: number | 'always',
  ): fc.Arbitrary<{ args: ListArgs; ordered: boolean }> {
    const table = tables.get(tableName)!;
    const distinctColumns = table.selectColumns.filter((column) =>
      table.orderColumns.includes(column),
    );
    return fc
      .record({
        where: sometimes(where(tableName, whereDepth), 70),
        order: sometimes(fc.array(orderItem(tableName, 1), { minLength: 1, maxLength: 2 }), 40),
        distinct:
          distinctColumns.length > 0
            ? sometimes(fc.tuple(someOf(distinctColumns, 2), direction), 15)
            : fc.constant(undefined),
        limit:
          limitPercent === 'always'
            ? fc.integer({ min: 0, max: 5 })
            : sometimes(fc.integer({ min: 0, max: 8 }), limitPercent),
        offset: sometimes(fc.integer({ min: 0, max: 4 }), 25),
      })
      .map(({ where: filter, order, distinct, limit, offset }) => {
        const args: ListArgs = {};
        if (filter !== undefined) args.where = filter;
        const orderBy: ArgValue[] = [];
        if (distinct) {
          const [columns, dir] = distinct;
          args.distinct_on = columns.map((column) => new EnumValue(column));
          for (const column of columns) orderBy.push({ [column]: dir });
        }
        if (order) orderBy.push(...order);
        if (limit !== undefined) args.limit = limit;
        if (offset !== undefined) args.offset = offset;
        const ordered = orderBy.length > 0 || limit !== undefined || offset !== undefined;
        if (ordered) {
          for (const column of tiebreak(tableName))
            orderBy.push({ [column]: new EnumValue('asc') });
          args.order_by = orderBy;
        }
        return { args, ordered };
      });
  }

  return { where, tiebreak, listArgs };
}

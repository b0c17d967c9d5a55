import fc from 'fast-check';

import type { Role } from '../../hostile/graphql-shots.ts';

import {
  EnumValue,
  type AggregatePart,
  type ArgValue,
  type ListArgs,
  type OracleQuery,
  type RootSelection,
  type Selection,
  type Transport,
} from './query.ts';
import type { RoleModel, RootFields, TableModel } from './schema-model.ts';

/*
 * Operations generated from a role's own schema (schema-model.ts): every root field, every
 * column, every operator of every comparison type, relationships in selections, filters and
 * order_by (and their aggregates), distinct_on, limit and offset, aggregates. Values come from
 * the data itself, hidden rows included (pools.ts), so that filters ask about rows the role may
 * not see and not only about made-up values. Built once per role (no `chain`), so that fast-check
 * shrinks a failure down to the smallest operation that still fails.
 */

export interface Pools {
  /** Values of `<table>.<field>` in the full database, every row (as the admin reads them). */
  byField: Map<string, ArgValue[]>;
  /** Values of every field of a GraphQL scalar type. */
  byScalar: Map<string, ArgValue[]>;
}

export const DIRECTIONS = [
  'asc',
  'desc',
  'asc_nulls_first',
  'asc_nulls_last',
  'desc_nulls_first',
  'desc_nulls_last',
] as const;

const direction = fc.constantFrom(...DIRECTIONS).map((value) => new EnumValue(value));

const FALLBACK: Record<string, ArgValue[]> = {
  String: ['x', 'stranger'],
  Int: [0, 1, 2],
  smallint: [0, 1],
  bigint: ['100001', '100005'],
  numeric: ['0', '1', '1000'],
  Float: [1.5],
  Boolean: [true, false],
  uuid: ['00000000-0000-0000-0000-000000000000'],
  timestamptz: ['2026-02-01T00:00:00+00:00'],
  time: ['10:00:00'],
  date: ['2026-02-01'],
};

export interface Generator {
  role: Role;
  model: RoleModel;
  query: fc.Arbitrary<OracleQuery>;
  /** Subscriptions only (live queries over the WebSocket); undefined when the role has none. */
  subscription: fc.Arbitrary<OracleQuery> | undefined;
  /** Where expressions of a table (for poison inside relationship filters). */
  where(table: string, depth: number): fc.Arbitrary<ArgValue>;
  /** The columns order_by ends with to fix the order (primary key, else every column). */
  tiebreak(table: string): string[];
}

/** `arbitrary` `percent` % of the time, else undefined (what shrinking goes to). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof(
    { weight: 100 - percent, arbitrary: fc.constant(undefined) },
    { weight: percent, arbitrary },
  );

/** One to `most` items of a non-empty list, in the list's order. */
const someOf = <T>(items: T[], most: number) =>
  fc.subarray(items, { minLength: 1, maxLength: Math.min(most, items.length) });

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const escapeSimilar = (text: string) => text.replace(/[|*+?{}()[\]\\%_]/g, '\\$&');

/** A pattern for `op` made from a value: exact, prefix, suffix, middle, one wildcard. */
function pattern(op: string, value: string, a: number, b: number, shape: number): string {
  const cut = value.length === 0 ? 0 : a % (value.length + 1);
  const end = value.length === 0 ? 0 : cut + (b % (value.length - cut + 1));
  const prefix = value.slice(0, cut);
  const middle = value.slice(cut, end);
  const suffix = value.slice(end);
  const like = op.includes('like');
  const similar = op.includes('similar');
  const regex = op.includes('regex');
  const caseOf = (text: string) =>
    op.includes('ilike') || op.includes('iregex') ? (shape % 2 ? text.toUpperCase() : text) : text;
  let result: string;
  if (like) {
    const shapes = [
      value,
      `${prefix}%`,
      `%${suffix}`,
      `%${middle}%`,
      value.length > 0 ? `${value.slice(0, cut)}_${value.slice(cut + 1)}` : '_',
      '%',
    ];
    result = caseOf(shapes[shape % shapes.length]!);
  } else if (similar) {
    const shapes = [
      escapeSimilar(value),
      `${escapeSimilar(prefix)}%`,
      `%${escapeSimilar(middle)}%`,
      `(${escapeSimilar(prefix)}|${escapeSimilar(suffix)})%`,
    ];
    result = shapes[shape % shapes.length]!;
  } else if (regex) {
    const shapes = [
      `^${escapeRegex(prefix)}`,
      `${escapeRegex(suffix)}$`,
      escapeRegex(middle),
      `^${escapeRegex(value)}$`,
      `^(${escapeRegex(prefix)}|${escapeRegex(suffix)})`,
    ];
    result = caseOf(shapes[shape % shapes.length]!);
  } else result = value;
  return result.slice(0, 120);
}

export function valuesOf(pools: Pools, table: string, field: string, scalar: string): ArgValue[] {
  const own = pools.byField.get(`${table}.${field}`) ?? [];
  const same = pools.byScalar.get(scalar) ?? [];
  const values = own.length > 0 ? own : same.length > 0 ? same : (FALLBACK[scalar] ?? ['x']);
  return values;
}

/** A value for a column: its own values mostly, sometimes any value of its type. */
export function valueArb(
  pools: Pools,
  table: string,
  field: string,
  scalar: string,
): fc.Arbitrary<ArgValue> {
  const own = valuesOf(pools, table, field, scalar);
  const same = pools.byScalar.get(scalar) ?? own;
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom(...(same.length > 0 ? same : own)) },
  );
}

/** The operand of `op` (its input type printed, e.g. `[uuid!]`) for a column. */
export function operandArb(
  pools: Pools,
  table: string,
  field: string,
  scalar: string,
  op: string,
  type: string,
): fc.Arbitrary<ArgValue> {
  const base = type.replace(/[[\]!]/g, '');
  if (op === '_is_null' || (base === 'Boolean' && scalar !== 'Boolean')) return fc.boolean();
  if (type.startsWith('['))
    return fc.array(valueArb(pools, table, field, base === scalar ? scalar : base), {
      maxLength: 3,
    });
  if (/like|similar|regex/.test(op)) {
    const strings = valuesOf(pools, table, field, scalar).filter(
      (value): value is string => typeof value === 'string',
    );
    const source = strings.length > 0 ? strings : ['x'];
    return fc
      .tuple(fc.constantFrom(...source), fc.nat(64), fc.nat(64), fc.nat(12))
      .map(([value, a, b, shape]) => pattern(op, value, a, b, shape));
  }
  return valueArb(pools, table, field, base === scalar ? scalar : base);
}

export function buildGenerator(
  role: Role,
  model: RoleModel,
  pools: Pools,
  primaryKeys: Map<string, string[]>,
  computedFields: Set<string>,
  transports: Transport[],
): Generator {
  const tables = model.tables;
  const whereCache = new Map<string, fc.Arbitrary<ArgValue>>();
  const orderCache = new Map<string, fc.Arbitrary<ArgValue>>();
  const fieldsCache = new Map<string, fc.Arbitrary<Selection[]>>();
  const scalarOf = (table: TableModel, name: string) =>
    table.scalars.find((scalar) => scalar.name === name)?.scalar ?? 'String';

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

  function aggregateParts(tableName: string): fc.Arbitrary<AggregatePart[]> {
    const table = tables.get(tableName)!;
    const options: Array<fc.Arbitrary<AggregatePart>> = [
      fc.constant<AggregatePart>({ kind: 'count', alias: 'a' }),
    ];
    if (table.selectColumns.length > 0)
      options.push(
        fc
          .tuple(someOf(table.selectColumns, 2), fc.option(fc.boolean(), { nil: undefined }))
          .map(([columns, distinct]): AggregatePart => {
            const part: AggregatePart = {
              kind: 'count',
              alias: 'a',
              columns: columns.map((column) => new EnumValue(column)),
            };
            if (distinct !== undefined) part.distinct = distinct;
            return part;
          }),
      );
    for (const fn of table.aggregateFunctions.filter((item) => item.columns.length > 0))
      options.push(
        someOf(fn.columns, 3).map((columns): AggregatePart => ({
          kind: 'fn',
          alias: 'a',
          fn: fn.fn,
          columns,
        })),
      );
    return fc
      .array(fc.oneof(...options), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.map((part, i) => ({ ...part, alias: `a${i}` })));
  }

  function aggregateSelection(tableName: string, depth: number) {
    return fc.record({
      parts: aggregateParts(tableName),
      nodes: sometimes(fields(tableName, depth), 50),
    });
  }

  /** A selection on a table: some scalars, at most two relationships (`depth` levels deep). */
  function fields(tableName: string, depth: number): fc.Arbitrary<Selection[]> {
    const key = `${tableName}:${depth}`;
    const cached = fieldsCache.get(key);
    if (cached) return cached;
    const table = tables.get(tableName)!;
    const relations: Array<fc.Arbitrary<Selection>> = [];
    if (depth > 0) {
      for (const rel of table.objectRels.filter((item) => tables.has(item.target)))
        relations.push(
          fields(rel.target, depth - 1).map((inner): Selection => ({
            kind: 'object',
            name: rel.name,
            alias: rel.name,
            table: rel.target,
            fields: inner,
          })),
        );
      for (const rel of table.arrayRels.filter((item) => tables.has(item.target)))
        relations.push(
          fc
            .tuple(
              listArgs(rel.target, 1, depth > 1 ? 'always' : 75),
              fields(rel.target, depth - 1),
            )
            .map(([{ args, ordered }, inner]): Selection => ({
              kind: 'array',
              name: rel.name,
              alias: rel.name,
              table: rel.target,
              args,
              ordered,
              fields: inner,
            })),
        );
      for (const rel of table.aggregateRels.filter((item) => tables.has(item.target)))
        relations.push(
          fc
            .tuple(listArgs(rel.target, 1, 'always'), aggregateSelection(rel.target, depth - 1))
            .map(([{ args, ordered }, { parts, nodes }]): Selection => ({
              kind: 'aggregate',
              name: rel.name,
              alias: rel.name,
              table: rel.target,
              args,
              ordered,
              parts,
              nodes,
            })),
        );
    }
    const scalars = table.scalars.map((scalar) => scalar.name);
    const arbitrary = fc
      .record({
        scalars: scalars.length > 0 ? someOf(scalars, 6) : fc.constant<string[]>([]),
        typename: fc.boolean(),
        rels:
          relations.length > 0
            ? fc.uniqueArray(fc.oneof(...relations), {
                maxLength: 2,
                selector: (item) => ('alias' in item ? item.alias : ''),
              })
            : fc.constant<Selection[]>([]),
      })
      .map(({ scalars: names, typename, rels }) => {
        const result: Selection[] = names.map((name) => ({ kind: 'scalar', name }));
        if (typename || result.length + rels.length === 0) result.push({ kind: 'typename' });
        return [...result, ...rels];
      });
    fieldsCache.set(key, arbitrary);
    return arbitrary;
  }

  function roots(fieldsOf: RootFields): Array<fc.Arbitrary<RootSelection>> {
    const result: Array<fc.Arbitrary<RootSelection>> = [];
    for (const [field, table] of fieldsOf.select)
      result.push(
        fc
          .tuple(listArgs(table, 3, 50), fields(table, 2))
          .map(([{ args, ordered }, selection]): RootSelection => ({
            kind: 'select',
            field,
            alias: field,
            table,
            args,
            ordered,
            fields: selection,
          })),
      );
    for (const [field, table] of fieldsOf.aggregate)
      result.push(
        fc
          .tuple(listArgs(table, 3, 50), aggregateSelection(table, 1))
          .map(([{ args, ordered }, { parts, nodes }]): RootSelection => ({
            kind: 'aggregate',
            field,
            alias: field,
            table,
            args,
            ordered,
            parts,
            nodes,
          })),
      );
    for (const [field, { table, args }] of fieldsOf.byPk) {
      const tableModel = tables.get(table)!;
      result.push(
        fc
          .tuple(
            fc.tuple(
              ...args.map((arg) =>
                fc.constantFrom(...valuesOf(pools, table, arg, scalarOf(tableModel, arg))),
              ),
            ),
            fields(table, 2),
          )
          .map(([values, selection]): RootSelection => ({
            kind: 'by_pk',
            field,
            alias: field,
            table,
            key: Object.fromEntries(args.map((arg, i) => [arg, values[i]!])),
            fields: selection,
          })),
      );
    }
    return result;
  }

  const queryRoots = roots(model.query);
  const subscriptionRoots = roots(model.subscription);
  const asQuery = fc
    .record({
      roots: fc.uniqueArray(fc.oneof(...queryRoots), {
        minLength: 1,
        maxLength: 2,
        selector: (root) => root.alias,
      }),
      transport: fc.constantFrom(...transports),
      inline: fc.boolean(),
      fragments: fc.boolean(),
    })
    .map(({ roots: selected, transport, inline, fragments }): OracleQuery => ({
      role,
      operation: 'query',
      transport,
      inline,
      ...(fragments ? { fragments } : {}),
      roots: selected,
    }));
  const subscription =
    subscriptionRoots.length > 0 && transports.includes('ws')
      ? fc
          .tuple(fc.oneof(...subscriptionRoots), fc.boolean(), fc.boolean())
          .map(([root, inline, fragments]): OracleQuery => ({
            role,
            operation: 'subscription',
            transport: 'ws',
            inline,
            ...(fragments ? { fragments } : {}),
            roots: [root],
          }))
      : undefined;
  return {
    role,
    model,
    query: subscription
      ? fc.oneof({ weight: 4, arbitrary: asQuery }, { weight: 1, arbitrary: subscription })
      : asQuery,
    subscription,
    where,
    tiebreak,
  };
}

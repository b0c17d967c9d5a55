import fc from 'fast-check';

import { someOf, sometimes, type ListArbitraries } from './list-args.ts';
import { EnumValue, type AggregatePart, type Selection } from './query.ts';
import type { RoleModel } from './schema-model.ts';

/*
 * Selection sets on a role's tables: some scalars, __typename, and at most two relationships
 * (object, array with its list arguments, aggregate with its counts and functions).
 */

export interface SelectionArbitraries {
  /** A selection on a table: some scalars, at most two relationships (`depth` levels deep). */
  fields: (table: string, depth: number) => fc.Arbitrary<Selection[]>;
  /** An aggregate's parts (count, functions of columns) and sometimes its nodes. */
  aggregateSelection: (
    table: string,
    depth: number,
  ) => fc.Arbitrary<{ parts: AggregatePart[]; nodes: Selection[] | undefined }>;
}

/** The selections of one role's tables (built lazily per table and depth, then cached). */
export function selectionArbitraries(
  model: RoleModel,
  listArgs: ListArbitraries['listArgs'],
): SelectionArbitraries {
  const tables = model.tables;
  const fieldsCache = new Map<string, fc.Arbitrary<Selection[]>>();

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

  return { fields, aggregateSelection };
}

import fc from 'fast-check';

import { type Generator, type Pools, valuesOf } from './generate.ts';
import type { TableCatalog } from './metadata.ts';
import {
  EnumValue,
  type AggregatePart,
  type ArgValue,
  type ListArgs,
  type OracleQuery,
  type Selection,
} from './query.ts';
import type { RoleModel } from './schema-model.ts';

/*
 * The kinds of poison, the recipe that picks one, and what every poisoner shares: the places in
 * a query a condition can go (its sites) and a simple condition to put there.
 */

export const KNOWN_OPERATORS = [
  '_eq',
  '_neq',
  '_gt',
  '_gte',
  '_lt',
  '_lte',
  '_in',
  '_nin',
  '_is_null',
  '_like',
  '_nlike',
  '_ilike',
  '_nilike',
  '_similar',
  '_nsimilar',
  '_regex',
  '_nregex',
  '_iregex',
  '_niregex',
  '_contains',
  '_contained_in',
  '_has_key',
  '_has_keys_any',
  '_has_keys_all',
  '_ceq',
  '_cne',
  '_cneq',
  '_cgt',
  '_cgte',
  '_clt',
  '_clte',
  '_ne',
  '$eq',
  '$ne',
  '_cast',
  '_st_intersects',
  '_st_d_within',
  '_is_json',
  '_eq_any',
] as const;

export const COLUMN_COMPARISONS = ['_ceq', '_cne', '_cneq', '_cgt', '_cgte', '_clt', '_clte'];

export const UNLISTED_ARGUMENTS = [
  'where_',
  'having',
  'args',
  'path',
  'cursor',
  'batch_size',
  '_exists',
];

export const POISON_KINDS = [
  'exists',
  'column-compare',
  'hidden-filter',
  'aggregate-filter',
  'unlisted-operator',
  'hidden-field',
  'hidden-order',
  'hidden-distinct',
  'hidden-aggregate',
  'hidden-root',
  'unlisted-argument',
  'foreign-fragment',
  'skipped-field',
] as const;
export type PoisonKind = (typeof POISON_KINDS)[number];

export interface PoisonRecipe {
  kind: PoisonKind;
  site: number;
  a: number;
  b: number;
  c: number;
  wrap: number;
  /** Through a relationship filter first (where kinds), when the table has one. */
  nest: boolean;
}

export const poisonRecipe: fc.Arbitrary<PoisonRecipe> = fc.record({
  kind: fc.constantFrom(...POISON_KINDS),
  site: fc.nat(20),
  a: fc.nat(200),
  b: fc.nat(200),
  c: fc.nat(200),
  wrap: fc.nat(3),
  nest: fc.boolean(),
});

export interface PoisonContext {
  role: RoleModel;
  admin: RoleModel;
  generator: Generator;
  pools: Pools;
  catalog: Map<string, TableCatalog>;
}

export const scalarText = (value: ArgValue) =>
  typeof value === 'string' ? value : JSON.stringify(value);

export const pick = <T>(items: readonly T[], n: number): T | undefined =>
  items.length === 0 ? undefined : items[n % items.length];

export function clone<T>(value: T): T {
  if (value instanceof EnumValue) return new EnumValue(value.value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => clone(item)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, clone(item)]),
    ) as T;
  return value;
}

export type Site =
  | { kind: 'args'; table: string; args: ListArgs }
  | { kind: 'fields'; table: string; fields: Selection[] }
  | { kind: 'aggregate'; table: string; parts: AggregatePart[] };

export function collectSites(query: OracleQuery): Site[] {
  const sites: Site[] = [];
  const visitFields = (table: string, fields: Selection[]) => {
    sites.push({ kind: 'fields', table, fields });
    for (const field of fields) {
      if (field.kind === 'object') visitFields(field.table, field.fields);
      else if (field.kind === 'array') {
        sites.push({ kind: 'args', table: field.table, args: field.args });
        visitFields(field.table, field.fields);
      } else if (field.kind === 'aggregate') {
        sites.push({ kind: 'args', table: field.table, args: field.args });
        sites.push({ kind: 'aggregate', table: field.table, parts: field.parts });
        if (field.nodes) visitFields(field.table, field.nodes);
      }
    }
  };
  for (const root of query.roots) {
    if (root.kind === 'by_pk') visitFields(root.table, root.fields);
    else if (root.kind === 'select') {
      sites.push({ kind: 'args', table: root.table, args: root.args });
      visitFields(root.table, root.fields);
    } else {
      sites.push({ kind: 'args', table: root.table, args: root.args });
      sites.push({ kind: 'aggregate', table: root.table, parts: root.parts });
      if (root.nodes) visitFields(root.table, root.nodes);
    }
  }
  return sites;
}

/** A condition on one column of `table` as `model` lists it, with a value from the data. */
export function simpleCondition(
  ctx: PoisonContext,
  model: RoleModel,
  table: string,
  a: number,
  b: number,
): ArgValue {
  const tableModel = model.tables.get(table) ?? ctx.admin.tables.get(table);
  const column = tableModel && pick(tableModel.boolColumns, a);
  if (!tableModel || !column) return {};
  const scalar = tableModel.scalars.find((item) => item.name === column.name)?.scalar ?? 'String';
  const value = pick(valuesOf(ctx.pools, table, column.name, scalar), b) ?? null;
  if (typeof value === 'string' && b % 3 === 1 && scalar === 'String')
    return { [column.name]: { _like: `${value.slice(0, 1 + (a % 4))}%` } };
  if (b % 5 === 4) return { [column.name]: { _is_null: false } };
  return { [column.name]: { _eq: value } };
}

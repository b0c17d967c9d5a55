import fc from 'fast-check';

import type { Generator, Pools } from './generate.ts';
import { valuesOf } from './generate.ts';
import type { TableCatalog } from './metadata.ts';
import {
  EnumValue,
  type AggregatePart,
  type ArgValue,
  type ListArgs,
  type OracleQuery,
  type RootSelection,
  type Selection,
} from './query.ts';
import type { RoleModel, RootFields } from './schema-model.ts';

/*
 * Refusal checks: a valid generated operation with exactly one construct the role's schema
 * does not list, placed anywhere a table is in scope (the root's or a nested list's where,
 * inside a relationship filter, under _and/_or/_not, in a selection, order_by, distinct_on,
 * an aggregate, a root field, an argument). The constructs come from a fixed list (Hasura's
 * `_exists`, column comparisons `_ceq`…, `<rel>_aggregate` filters, operators of other types)
 * and from the difference between the admin's schema and the role's (columns, relationships,
 * aggregates and root fields the role's permission leaves out), plus columns the metadata does
 * not track at all. The answer must be a validation error; data is a leak.
 */

/** Every operator name Hasura has for a comparison, whatever the type. */
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

const COLUMN_COMPARISONS = ['_ceq', '_cne', '_cneq', '_cgt', '_cgte', '_clt', '_clte'];

const UNLISTED_ARGUMENTS = ['where_', 'having', 'args', 'path', 'cursor', 'batch_size', '_exists'];

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

const scalarText = (value: ArgValue) => (typeof value === 'string' ? value : JSON.stringify(value));

const pick = <T>(items: readonly T[], n: number): T | undefined =>
  items.length === 0 ? undefined : items[n % items.length];

function clone<T>(value: T): T {
  if (value instanceof EnumValue) return new EnumValue(value.value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => clone(item)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, clone(item)]),
    ) as T;
  return value;
}

type Site =
  | { kind: 'args'; table: string; args: ListArgs }
  | { kind: 'fields'; table: string; fields: Selection[] }
  | { kind: 'aggregate'; table: string; parts: AggregatePart[] };

function collectSites(query: OracleQuery): Site[] {
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
function simpleCondition(
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

/** The where construct of the recipe for `table`, or undefined when that table has none. */
function wherePoison(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  table: string,
): { value: ArgValue; label: string } | undefined {
  const mine = ctx.role.tables.get(table)!;
  const admin = ctx.admin.tables.get(table);
  const listed = new Set([
    ...mine.boolColumns.map((item) => item.name),
    ...mine.boolRels.map((item) => item.name),
    ...mine.boolOther,
  ]);
  switch (recipe.kind) {
    case 'exists': {
      if (listed.has('_exists')) return undefined;
      const targets = [...ctx.admin.tables.keys()];
      const target = pick(targets, recipe.a)!;
      const where = simpleCondition(ctx, ctx.role, target, recipe.b, recipe.c);
      const tableRef: ArgValue = recipe.c % 4 === 3 ? target : { schema: 'public', name: target };
      return {
        value: { _exists: { _table: tableRef, _where: where } },
        label: `_exists on ${target} in a ${table} filter`,
      };
    }
    case 'column-compare': {
      const column = pick(mine.boolColumns, recipe.a);
      const listedOps = column ? ctx.role.comparisons.get(column.comparison) : undefined;
      const op = pick(
        COLUMN_COMPARISONS.filter((item) => !listedOps?.has(item)),
        recipe.b,
      );
      const others = ctx.catalog.get(table)?.columns.map((item) => item.name) ?? [];
      const other = pick(others, recipe.c);
      if (!column || !op || !other) return undefined;
      return {
        value: { [column.name]: { [op]: recipe.c % 2 ? ['$', other] : other } },
        label: `${op} (${column.name} against ${other}) in a ${table} filter`,
      };
    }
    case 'hidden-filter': {
      const catalogColumns = ctx.catalog.get(table)?.columns.map((item) => item.name) ?? [];
      const candidates = [
        ...(admin?.boolColumns.map((item) => item.name) ?? []),
        ...(admin?.boolRels.map((item) => item.name) ?? []),
        ...catalogColumns,
      ].filter((name, i, all) => !listed.has(name) && all.indexOf(name) === i);
      const name = pick(candidates, recipe.a);
      if (!name) return undefined;
      const rel = admin?.boolRels.find((item) => item.name === name);
      if (rel)
        return {
          value: { [name]: simpleCondition(ctx, ctx.admin, rel.target, recipe.b, recipe.c) },
          label: `relationship ${table}.${name} the role may not filter on`,
        };
      const scalar = admin?.scalars.find((item) => item.name === name)?.scalar ?? 'String';
      const value = pick(valuesOf(ctx.pools, table, name, scalar), recipe.b) ?? 'x';
      return {
        value: { [name]: recipe.c % 2 ? { _eq: value } : { _is_null: recipe.b % 2 === 0 } },
        label: `column ${table}.${name} the role may not see`,
      };
    }
    case 'aggregate-filter': {
      const rels = admin?.arrayRels ?? [];
      const rel = pick(rels, recipe.a);
      if (!rel || listed.has(`${rel.name}_aggregate`)) return undefined;
      return {
        value: {
          [`${rel.name}_aggregate`]: {
            count: {
              predicate: { [recipe.b % 2 ? '_gt' : '_eq']: recipe.c % 3 },
              ...(recipe.b % 3 === 0 ? { filter: {} } : {}),
            },
          },
        },
        label: `${rel.name}_aggregate in a ${table} filter`,
      };
    }
    case 'unlisted-operator': {
      const column = pick(mine.boolColumns, recipe.a);
      if (!column) return undefined;
      const listedOps = ctx.role.comparisons.get(column.comparison) ?? new Map<string, string>();
      const op = pick(
        KNOWN_OPERATORS.filter((item) => !listedOps.has(item)),
        recipe.b,
      );
      if (!op) return undefined;
      const scalar = mine.scalars.find((item) => item.name === column.name)?.scalar ?? 'String';
      const value = pick(valuesOf(ctx.pools, table, column.name, scalar), recipe.c) ?? 'x';
      const operand: ArgValue = op.startsWith('_c')
        ? column.name
        : op.startsWith('_has_keys') || op === '_in' || op === '_nin'
          ? [scalarText(value)]
          : op === '_contains' || op === '_contained_in'
            ? {}
            : op === '_is_null'
              ? true
              : op === '_cast'
                ? { String: { _eq: scalarText(value) } }
                : value;
      return {
        value: { [column.name]: { [op]: operand } },
        label: `operator ${op} on ${table}.${column.name} (${column.comparison} does not list it)`,
      };
    }
    default:
      return undefined;
  }
}

const WHERE_KINDS: ReadonlySet<PoisonKind> = new Set([
  'exists',
  'column-compare',
  'hidden-filter',
  'aggregate-filter',
  'unlisted-operator',
]);

function placeInWhere(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  site: { table: string; args: ListArgs },
): string | undefined {
  let table = site.table;
  const path: string[] = [];
  if (recipe.nest) {
    const rels = ctx.role.tables
      .get(table)!
      .boolRels.filter((rel) => ctx.role.tables.has(rel.target));
    const rel = pick(rels, recipe.b + recipe.c);
    if (rel) {
      path.push(rel.name);
      table = rel.target;
    }
  }
  const poison = wherePoison(ctx, recipe, table);
  if (!poison) return undefined;
  let value = poison.value;
  if (recipe.wrap === 1) value = { _and: [value] };
  else if (recipe.wrap === 2) value = { _or: [value, {}] };
  else if (recipe.wrap === 3) value = { _not: value };
  for (const rel of path.reverse()) value = { [rel]: value };
  const existing = site.args.where;
  site.args.where = existing === undefined ? value : { _and: [existing, value] };
  return `${poison.label}${path.length > 0 ? ` (through ${site.table}.${path.join('.')})` : ''}`;
}

function hiddenSelection(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  table: string,
): { selection: Selection; label: string } | undefined {
  const mine = ctx.role.tables.get(table)!;
  const admin = ctx.admin.tables.get(table);
  const listed = new Set([
    ...mine.scalars.map((item) => item.name),
    ...mine.objectRels.map((item) => item.name),
    ...mine.arrayRels.map((item) => item.name),
    ...mine.aggregateRels.map((item) => item.name),
  ]);
  const candidates: Array<{
    name: string;
    kind: 'scalar' | 'object' | 'aggregate';
    target?: string;
  }> = [
    ...(admin?.scalars ?? []).map((item) => ({ name: item.name, kind: 'scalar' as const })),
    ...(ctx.catalog.get(table)?.columns ?? []).map((item) => ({
      name: item.name,
      kind: 'scalar' as const,
    })),
    ...(admin?.objectRels ?? []).map((item) => ({ ...item, kind: 'object' as const })),
    ...(admin?.arrayRels ?? []).map((item) => ({ ...item, kind: 'object' as const })),
    ...(admin?.aggregateRels ?? []).map((item) => ({ ...item, kind: 'aggregate' as const })),
  ].filter(
    (item, i, all) => !listed.has(item.name) && all.findIndex((x) => x.name === item.name) === i,
  );
  const chosen = pick(candidates, recipe.a);
  if (!chosen) return undefined;
  if (chosen.kind === 'scalar')
    return {
      selection: { kind: 'scalar', name: chosen.name },
      label: `field ${table}.${chosen.name} the role may not select`,
    };
  const targetModel = ctx.admin.tables.get(chosen.target!);
  const column = targetModel && pick(targetModel.scalars, recipe.b);
  const fields: Selection[] = [{ kind: 'typename' }];
  if (column) fields.push({ kind: 'scalar', name: column.name });
  if (chosen.kind === 'object')
    return {
      selection: {
        kind: 'object',
        name: chosen.name,
        alias: chosen.name,
        table: chosen.target!,
        fields,
      },
      label: `relationship ${table}.${chosen.name} the role may not select`,
    };
  return {
    selection: {
      kind: 'aggregate',
      name: chosen.name,
      alias: chosen.name,
      table: chosen.target!,
      args: {},
      ordered: false,
      parts: [{ kind: 'count', alias: 'a0' }],
      nodes: undefined,
    },
    label: `aggregate ${table}.${chosen.name} the role may not select`,
  };
}

function hiddenOrder(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  site: { table: string; args: ListArgs },
): string | undefined {
  const mine = ctx.role.tables.get(site.table)!;
  const admin = ctx.admin.tables.get(site.table);
  const listed = new Set([
    ...mine.orderColumns,
    ...mine.orderRels.map((item) => item.name),
    ...mine.orderAggregates.map((item) => item.name),
  ]);
  const candidates: ArgValue[] = [];
  const labels: string[] = [];
  for (const column of [
    ...(admin?.orderColumns ?? []),
    ...(ctx.catalog.get(site.table)?.columns.map((item) => item.name) ?? []),
  ]) {
    if (listed.has(column) || labels.includes(column)) continue;
    candidates.push({ [column]: new EnumValue('asc') });
    labels.push(column);
  }
  for (const rel of admin?.orderRels ?? []) {
    if (listed.has(rel.name)) continue;
    const column = pick(ctx.admin.tables.get(rel.target)?.orderColumns ?? [], recipe.b);
    if (!column) continue;
    candidates.push({ [rel.name]: { [column]: new EnumValue('desc') } });
    labels.push(rel.name);
  }
  for (const aggregate of admin?.orderAggregates ?? []) {
    if (listed.has(aggregate.name)) continue;
    candidates.push({ [aggregate.name]: { count: new EnumValue('desc') } });
    labels.push(aggregate.name);
  }
  // An aggregate order_by over columns the target's permission leaves out.
  for (const aggregate of mine.orderAggregates) {
    const target = ctx.role.tables.get(aggregate.target);
    const adminTarget = ctx.admin.tables.get(aggregate.target);
    if (!target || !adminTarget) continue;
    for (const fn of adminTarget.aggregateOrderFunctions) {
      const listedColumns = new Set(
        target.aggregateOrderFunctions.find((item) => item.fn === fn.fn)?.columns ?? [],
      );
      for (const column of fn.columns.filter((item) => !listedColumns.has(item))) {
        candidates.push({ [aggregate.name]: { [fn.fn]: { [column]: new EnumValue('asc') } } });
        labels.push(`${aggregate.name}.${fn.fn}.${column}`);
      }
    }
  }
  const i = candidates.length === 0 ? -1 : recipe.a % candidates.length;
  if (i < 0) return undefined;
  site.args.order_by = [candidates[i]!, ...(site.args.order_by ?? [])];
  return `order_by ${site.table}.${labels[i]} the role may not use`;
}

function hiddenDistinct(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  site: { table: string; args: ListArgs },
): string | undefined {
  const mine = new Set(ctx.role.tables.get(site.table)!.selectColumns);
  const candidates = [
    ...(ctx.admin.tables.get(site.table)?.selectColumns ?? []),
    ...(ctx.catalog.get(site.table)?.columns.map((item) => item.name) ?? []),
  ].filter((name, i, all) => !mine.has(name) && all.indexOf(name) === i);
  const column = pick(candidates, recipe.a);
  if (!column) return undefined;
  site.args.distinct_on = [new EnumValue(column)];
  site.args.order_by = [{ [column]: new EnumValue('asc') }, ...(site.args.order_by ?? [])];
  return `distinct_on ${site.table}.${column} the role may not use`;
}

function hiddenAggregate(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  site: { table: string; parts: AggregatePart[] },
): string | undefined {
  const mine = ctx.role.tables.get(site.table)!;
  const admin = ctx.admin.tables.get(site.table);
  const listedColumns = new Set(mine.selectColumns);
  const candidates: Array<{ part: AggregatePart; label: string }> = [];
  for (const column of [
    ...(admin?.selectColumns ?? []),
    ...(ctx.catalog.get(site.table)?.columns.map((item) => item.name) ?? []),
  ]) {
    if (listedColumns.has(column)) continue;
    candidates.push({
      part: { kind: 'count', alias: 'p0', columns: [new EnumValue(column)], distinct: true },
      label: `count(columns: ${column})`,
    });
  }
  for (const fn of admin?.aggregateFunctions ?? []) {
    const listed = new Set(
      mine.aggregateFunctions.find((item) => item.fn === fn.fn)?.columns ?? [],
    );
    for (const column of fn.columns.filter((item) => !listed.has(item)))
      candidates.push({
        part: { kind: 'fn', alias: 'p0', fn: fn.fn, columns: [column] },
        label: `${fn.fn} { ${column} }`,
      });
  }
  const chosen = pick(candidates, recipe.a);
  if (!chosen) return undefined;
  site.parts.push(chosen.part);
  return `aggregate ${site.table} ${chosen.label} the role may not use`;
}

function hiddenRoot(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  query: OracleQuery,
): string | undefined {
  const operation = query.operation;
  const mine: RootFields = operation === 'query' ? ctx.role.query : ctx.role.subscription;
  const admin: RootFields = operation === 'query' ? ctx.admin.query : ctx.admin.subscription;
  const listed = new Set([...mine.select.keys(), ...mine.aggregate.keys(), ...mine.byPk.keys()]);
  const candidates: RootSelection[] = [];
  const firstScalar = (table: string): Selection[] => {
    const column = pick(ctx.admin.tables.get(table)?.scalars ?? [], recipe.b);
    return column ? [{ kind: 'scalar', name: column.name }] : [{ kind: 'typename' }];
  };
  // Streaming subscriptions (`<t>_stream`): Hasura has them, this engine's schemas list none.
  if (operation === 'subscription')
    for (const [field, table] of mine.select)
      if (!mine.select.has(`${field}_stream`) && !admin.select.has(`${field}_stream`))
        candidates.push({
          kind: 'select',
          field: `${field}_stream`,
          alias: 'hidden',
          table,
          args: {
            extra: {
              batch_size: 10,
              cursor: [{ initial_value: {}, ordering: new EnumValue('ASC') }],
            },
          },
          ordered: false,
          fields: firstScalar(table),
        });
  for (const [field, table] of admin.select)
    if (!listed.has(field))
      candidates.push({
        kind: 'select',
        field,
        alias: 'hidden',
        table,
        args: { limit: 3 },
        ordered: false,
        fields: firstScalar(table),
      });
  for (const [field, table] of admin.aggregate)
    if (!listed.has(field))
      candidates.push({
        kind: 'aggregate',
        field,
        alias: 'hidden',
        table,
        args: {},
        ordered: false,
        parts: [{ kind: 'count', alias: 'a0' }],
        nodes: undefined,
      });
  for (const [field, { table, args }] of admin.byPk)
    if (!listed.has(field)) {
      const model = ctx.admin.tables.get(table);
      candidates.push({
        kind: 'by_pk',
        field,
        alias: 'hidden',
        table,
        key: Object.fromEntries(
          args.map((arg) => {
            const scalar = model?.scalars.find((item) => item.name === arg)?.scalar ?? 'String';
            return [arg, pick(valuesOf(ctx.pools, table, arg, scalar), recipe.c) ?? 'x'];
          }),
        ),
        fields: firstScalar(table),
      });
    }
  const chosen = pick(candidates, recipe.a);
  if (!chosen) return undefined;
  if (operation === 'subscription') query.roots = [chosen];
  else query.roots.push(chosen);
  return `root field ${chosen.field} the role may not use`;
}

function unlistedArgument(
  ctx: PoisonContext,
  recipe: PoisonRecipe,
  sites: Site[],
): string | undefined {
  const listSites = sites.filter((site) => site.kind === 'args');
  const fieldSites = sites.filter((site) => site.kind === 'fields');
  if (recipe.b % 2 === 0 && listSites.length > 0) {
    const site = pick(listSites, recipe.site)!;
    const name = pick(UNLISTED_ARGUMENTS, recipe.a)!;
    const value: ArgValue =
      name === '_exists'
        ? { _table: { schema: 'public', name: site.table }, _where: {} }
        : name === 'path'
          ? '$'
          : {};
    site.args.extra = { ...site.args.extra, [name]: value };
    return `argument ${name} on a ${site.table} list`;
  }
  const site = pick(fieldSites, recipe.site);
  if (!site) return undefined;
  const scalar = pick(
    site.fields.filter((field) => field.kind === 'scalar'),
    recipe.a,
  );
  if (!scalar || scalar.kind !== 'scalar') return undefined;
  scalar.args = { [recipe.c % 2 ? 'path' : 'args']: recipe.c % 2 ? '$.a' : {} };
  return `argument on ${site.table}.${scalar.name}`;
}

/**
 * The query with the recipe's unlisted construct in it, or with `_exists` at its root when the
 * recipe has nothing to put at the chosen place (a role that sees every column of a table).
 */
export function poisonQuery(
  ctx: PoisonContext,
  original: OracleQuery,
  recipe: PoisonRecipe,
): OracleQuery {
  const query = clone(original);
  const sites = collectSites(query);
  const argSites = sites.filter((site) => site.kind === 'args');
  const fieldSites = sites.filter((site) => site.kind === 'fields');
  const aggregateSites = sites.filter((site) => site.kind === 'aggregate');
  let label: string | undefined;
  const kinds = [recipe.kind, ...POISON_KINDS.filter((kind) => kind !== recipe.kind)];
  for (const kind of kinds) {
    const attempt = { ...recipe, kind };
    if (WHERE_KINDS.has(kind)) {
      const site = pick(argSites, recipe.site);
      if (site) label = placeInWhere(ctx, attempt, site);
    } else if (kind === 'hidden-field') {
      const site = pick(fieldSites, recipe.site);
      const hidden = site && hiddenSelection(ctx, attempt, site.table);
      if (site && hidden) {
        site.fields.push(hidden.selection);
        label = hidden.label;
      }
    } else if (kind === 'foreign-fragment') {
      // `... on <another type> { ... }`: GraphQL's validation refuses a fragment that can
      // never apply (PossibleFragmentSpreads), as the engine does for named fragments.
      const site = pick(fieldSites, recipe.site);
      const others = [...ctx.admin.tables.keys()].filter((name) => name !== site?.table);
      const other = pick(others, attempt.a);
      const model = other ? ctx.admin.tables.get(other) : undefined;
      const column = model && pick(model.scalars, attempt.b);
      if (site && other && column) {
        site.fields.push({
          kind: 'fragment',
          on: other,
          fields: [{ kind: 'scalar', name: column.name }],
        });
        label = `fragment on ${other} (${column.name}) inside ${site.table}`;
      }
    } else if (kind === 'skipped-field') {
      // A field the schema does not list under @skip(if: true) / @include(if: false): GraphQL
      // validates a document before it runs, so the field is an error whatever the directive.
      const site = pick(fieldSites, recipe.site);
      const hidden = site && hiddenSelection(ctx, attempt, site.table);
      const selection = hidden?.selection;
      if (site && selection && (selection.kind === 'scalar' || selection.kind === 'object')) {
        const directive = attempt.c % 2 ? '@skip(if: true)' : '@include(if: false)';
        site.fields.push({ ...selection, directive });
        label = `skipped field (${directive}) ${hidden.label.replace(/^\w+ /, '')}`;
      }
    } else if (kind === 'hidden-order') {
      const site = pick(argSites, recipe.site);
      if (site) label = hiddenOrder(ctx, attempt, site);
    } else if (kind === 'hidden-distinct') {
      const site = pick(argSites, recipe.site);
      if (site) label = hiddenDistinct(ctx, attempt, site);
    } else if (kind === 'hidden-aggregate') {
      const site = pick(aggregateSites, recipe.site);
      if (site) label = hiddenAggregate(ctx, attempt, site);
    } else if (kind === 'hidden-root') label = hiddenRoot(ctx, attempt, query);
    else if (kind === 'unlisted-argument') label = unlistedArgument(ctx, attempt, sites);
    if (label) break;
  }
  if (!label) {
    // Every query has a root with arguments or a by_pk; give the by_pk root a list root.
    const root = query.roots[0]!;
    const extra = root.kind === 'by_pk' ? undefined : root.args;
    if (extra)
      label = placeInWhere(
        ctx,
        { ...recipe, kind: 'exists', nest: false },
        { table: root.table, args: extra },
      );
  }
  return label ? { ...query, poison: label, unpoisoned: original } : query;
}

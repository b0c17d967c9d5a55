import { valuesOf } from './generate.ts';
import type { ArgValue, ListArgs } from './query.ts';
import {
  COLUMN_COMPARISONS,
  KNOWN_OPERATORS,
  pick,
  scalarText,
  simpleCondition,
  type PoisonContext,
  type PoisonKind,
  type PoisonRecipe,
} from './poison-kinds.ts';

/*
 * Poison in a `where`: conditions on hidden columns, unknown operators and column comparisons,
 * placed at one of the query's sites.
 */

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

export const WHERE_KINDS: ReadonlySet<PoisonKind> = new Set([
  'exists',
  'column-compare',
  'hidden-filter',
  'aggregate-filter',
  'unlisted-operator',
]);

export function placeInWhere(
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

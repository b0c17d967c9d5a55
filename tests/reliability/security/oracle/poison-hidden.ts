import { valuesOf } from './generate.ts';
import {
  EnumValue,
  type AggregatePart,
  type ArgValue,
  type ListArgs,
  type OracleQuery,
  type RootSelection,
  type Selection,
} from './query.ts';
import type { RootFields } from './schema-model.ts';
import { pick, type PoisonContext, type PoisonRecipe } from './poison-kinds.ts';

/*
 * Poison that reaches for hidden data outside a `where`: a hidden column selected, ordered by,
 * made distinct or aggregated, or a root field the role may not query.
 */

export function hiddenSelection(
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

export function hiddenOrder(
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

export function hiddenDistinct(
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

export function hiddenAggregate(
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

export function hiddenRoot(
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

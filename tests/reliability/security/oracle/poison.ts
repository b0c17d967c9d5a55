import type { ArgValue, OracleQuery } from './query.ts';
import {
  POISON_KINDS,
  UNLISTED_ARGUMENTS,
  clone,
  collectSites,
  pick,
  type PoisonContext,
  type PoisonRecipe,
  type Site,
} from './poison-kinds.ts';
import { WHERE_KINDS, placeInWhere } from './poison-where.ts';
import {
  hiddenAggregate,
  hiddenDistinct,
  hiddenOrder,
  hiddenRoot,
  hiddenSelection,
} from './poison-hidden.ts';

export { poisonRecipe, type PoisonContext } from './poison-kinds.ts';

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

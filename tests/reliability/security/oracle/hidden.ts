import fc from 'fast-check';
import type pg from 'pg';

import { ident, visibleSql, type PermissionContext } from './metadata.ts';
import { EnumValue, type ArgValue, type OracleQuery, type Selection } from './query.ts';
import type { RoleModel } from './schema-model.ts';

/*
 * Property (b): rows a role may not see are changed between two identical requests of that
 * role, and its answer must stay the same. A change is an update of one column of one hidden
 * row, or the row's deletion, made as the database owner with triggers off (so that nothing
 * but that row changes) and undone afterwards. "Hidden" is the oracle's own SQL for the
 * role's filter (metadata.ts). Some hidden rows are seen indirectly by design: a view the role
 * may read sums rows it may not (the referral's orders in affiliate_statistics), and
 * queue_position counts the orders ahead. So every change is checked against everything the
 * role may read (every admitted row, every permitted column and computed field, views
 * included, as the full database answers): a change that shows there is not a hidden change
 * and is undone and skipped. Half of the changes aim at what the requests filter on: the
 * tables and columns of their `where`, set to the values they compare with.
 */

export interface MutationRecipe {
  kind: 'update' | 'delete';
  targeted: boolean;
  table: number;
  row: number;
  column: number;
  value: number;
}

export const mutationRecipe: fc.Arbitrary<MutationRecipe> = fc.record({
  kind: fc.constantFrom<'update' | 'delete'>('update', 'update', 'update', 'delete'),
  targeted: fc.boolean(),
  table: fc.nat(500),
  row: fc.nat(500),
  column: fc.nat(500),
  value: fc.nat(500),
});

export interface AppliedMutation {
  label: string;
  undo(): Promise<void>;
}

/** Everything `role` may read, as one string: admitted rows, permitted columns, computed fields. */
export async function visibleSnapshot(
  pool: pg.Pool,
  ctx: PermissionContext,
  role: string,
): Promise<string> {
  const parts: string[] = [];
  for (const table of [...ctx.tables.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const permission = table.select.get(role);
    if (!permission) continue;
    const catalog = ctx.catalog.get(table.name)!;
    const columns = permission.columns.includes('*')
      ? catalog.columns.map((column) => column.name)
      : permission.columns;
    const fields = [
      ...columns.map((column) => `'${column}', r.${ident(column)}`),
      ...permission.computedFields.map((name) => {
        const fn = table.computedFields.find((field) => field.name === name)!.function;
        return `'${name}', public.${ident(fn)}(r)`;
      }),
    ];
    const { rows } = await pool.query<{ rows: string }>(
      `SELECT coalesce(json_agg(v ORDER BY v::text), '[]')::text AS rows
         FROM (SELECT jsonb_build_object(${fields.join(', ')}) AS v
                 FROM public.${ident(table.name)} AS r WHERE ${visibleSql(ctx, table.name, role, 'r')}) AS x`,
    );
    parts.push(`${table.name}: ${rows[0]!.rows}`);
  }
  return parts.join('\n');
}

export interface FilterTarget {
  table: string;
  column: string;
  values: string[];
}

/** A value a filter compares with, as text a column of that type takes (patterns unwrapped). */
function asText(value: ArgValue): string[] {
  if (value === null || value instanceof EnumValue) return [];
  if (Array.isArray(value)) return value.flatMap(asText);
  if (typeof value === 'object') return [];
  if (typeof value === 'string') {
    const unwrapped = value.replace(/\\(.)/g, '$1').replace(/[%^$()|]/g, '');
    return unwrapped === value ? [value] : [value, unwrapped];
  }
  return [String(value)];
}

function walkWhere(
  models: RoleModel[],
  table: string,
  where: ArgValue | undefined,
  out: FilterTarget[],
): void {
  if (where === undefined || where === null || typeof where !== 'object' || Array.isArray(where))
    return;
  if (where instanceof EnumValue) return;
  const model = models.map((item) => item.tables.get(table)).find(Boolean);
  for (const [key, value] of Object.entries(where)) {
    if (key === '_and' || key === '_or') {
      for (const item of Array.isArray(value) ? value : [value])
        walkWhere(models, table, item, out);
    } else if (key === '_not') walkWhere(models, table, value, out);
    else if (key === '_exists' && value && typeof value === 'object' && !Array.isArray(value)) {
      const spec = value as Record<string, ArgValue>;
      const ref = spec['_table'];
      const name =
        typeof ref === 'string'
          ? ref
          : ref && typeof ref === 'object' && !Array.isArray(ref)
            ? textOf((ref as Record<string, ArgValue>)['name'])
            : '';
      walkWhere(models, name, spec['_where'], out);
    } else if (model?.boolColumns.some((column) => column.name === key)) {
      const values =
        value && typeof value === 'object' && !Array.isArray(value)
          ? Object.values(value).flatMap((operand) => asText(operand as ArgValue))
          : [];
      out.push({ table, column: key, values });
    } else {
      const rel = model?.boolRels.find((item) => item.name === key);
      if (rel) walkWhere(models, rel.target, value, out);
    }
  }
}

function walkFields(models: RoleModel[], fields: Selection[], out: FilterTarget[]): void {
  for (const field of fields) {
    if (field.kind === 'object') walkFields(models, field.fields, out);
    else if (field.kind === 'array') {
      walkWhere(models, field.table, field.args.where, out);
      walkFields(models, field.fields, out);
    } else if (field.kind === 'aggregate') {
      walkWhere(models, field.table, field.args.where, out);
      if (field.nodes) walkFields(models, field.nodes, out);
    }
  }
}

/** The tables and columns the queries' filters look at, with the values they compare with. */
export function filterTargets(models: RoleModel[], queries: OracleQuery[]): FilterTarget[] {
  const out: FilterTarget[] = [];
  for (const query of queries)
    for (const root of query.roots) {
      if (root.kind === 'by_pk') walkFields(models, root.fields, out);
      else {
        walkWhere(models, root.table, root.args.where, out);
        if (root.kind === 'select') walkFields(models, root.fields, out);
        else if (root.nodes) walkFields(models, root.nodes, out);
      }
    }
  return out;
}

/** A name written as a string (anything else names nothing). */
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

const pick = <T>(items: readonly T[], n: number): T | undefined =>
  items.length === 0 ? undefined : items[n % items.length];

/**
 * Applies a change to a row `role` may not see, or returns undefined when the recipe finds none
 * (no hidden row there, or the database refused the value).
 */
/** The tracked tables (not views) with a primary key and at least one row `role` may not see. */
export async function tablesWithHiddenRows(
  pool: pg.Pool,
  ctx: PermissionContext,
  role: string,
): Promise<string[]> {
  const tables: string[] = [];
  for (const name of [...ctx.tables.keys()].sort()) {
    const catalog = ctx.catalog.get(name)!;
    if (catalog.isView || catalog.primaryKey.length === 0) continue;
    const { rows } = await pool.query<{ hidden: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM public.${ident(name)} AS r
                       WHERE NOT coalesce(${visibleSql(ctx, name, role, 'r')}, false)) AS hidden`,
    );
    if (rows[0]!.hidden) tables.push(name);
  }
  return tables;
}

export async function applyHiddenMutation(
  pool: pg.Pool,
  ctx: PermissionContext,
  role: string,
  recipe: MutationRecipe,
  targets: FilterTarget[],
  /** tablesWithHiddenRows for the role. */
  baseTables: string[],
): Promise<AppliedMutation | undefined> {
  if (baseTables.length === 0) return undefined;
  const usable = targets.filter(
    (target) =>
      baseTables.includes(target.table) &&
      ctx.catalog.get(target.table)!.columns.some((c) => c.name === target.column),
  );
  const target = recipe.targeted ? pick(usable, recipe.table) : undefined;
  const tableName = target?.table ?? pick(baseTables, recipe.table)!;
  const catalog = ctx.catalog.get(tableName)!;
  const key = catalog.primaryKey;
  if (key.length === 0) return undefined;
  const keyList = key.map((column) => `r.${ident(column)}`).join(', ');
  const { rows: hidden } = await pool.query<{ key: Record<string, unknown> }>(
    `SELECT jsonb_build_object(${key.map((column) => `'${column}', r.${ident(column)}`).join(', ')}) AS key
       FROM public.${ident(tableName)} AS r
      WHERE NOT coalesce(${visibleSql(ctx, tableName, role, 'r')}, false)
      ORDER BY (${keyList})::text`,
  );
  const row = pick(hidden, recipe.row)?.key;
  if (!row) return undefined;
  const where = key
    .map((column, i) => {
      const type = catalog.columns.find((c) => c.name === column)!.type;
      return `${ident(column)} = $${i + 1}::${type}`;
    })
    .join(' AND ');
  const keyValues = key.map((column) => {
    const value = row[column];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  const describeRow = `${tableName} ${JSON.stringify(row)}`;

  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    if (recipe.kind === 'delete' && !target) {
      const { rows } = await client.query<{ row: string }>(
        `SELECT to_jsonb(r)::text AS row FROM public.${ident(tableName)} AS r WHERE ${where}`,
        keyValues,
      );
      await client.query(`DELETE FROM public.${ident(tableName)} WHERE ${where}`, keyValues);
      await client.query('COMMIT');
      const saved = rows[0]!.row;
      const columns = catalog.columns.filter((c) => !c.generated).map((c) => ident(c.name));
      return {
        label: `deleted ${describeRow}`,
        undo: () =>
          asOwner(pool, (undoClient) =>
            undoClient.query(
              `INSERT INTO public.${ident(tableName)} (${columns.join(', ')}) OVERRIDING SYSTEM VALUE
               SELECT ${columns.join(', ')} FROM jsonb_populate_record(NULL::public.${ident(tableName)}, $1::jsonb)`,
              [saved],
            ),
          ),
      };
    }
    const writable = catalog.columns.filter(
      (column) => !column.generated && !column.identity && !key.includes(column.name),
    );
    const column =
      (target && writable.find((c) => c.name === target.column)) ?? pick(writable, recipe.column);
    if (!column) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const { rows: current } = await client.query<{ value: string | null }>(
      `SELECT ${ident(column.name)}::text AS value FROM public.${ident(tableName)} WHERE ${where}`,
      keyValues,
    );
    const before = current[0]?.value ?? null;
    const { rows: others } = await client.query<{ value: string }>(
      `SELECT DISTINCT ${ident(column.name)}::text AS value FROM public.${ident(tableName)}
        WHERE ${ident(column.name)} IS NOT NULL ORDER BY 1 LIMIT 50`,
    );
    const candidates = [
      ...(target?.values ?? []),
      ...others.map((item) => item.value),
      ...(column.nullable ? [null] : []),
    ].filter((value) => value !== before);
    // A CHECK or a unique constraint may refuse a value: the next candidates are tried.
    let after: string | null | undefined;
    for (let attempt = 0; attempt < 3 && candidates.length > 0; attempt += 1) {
      const value = candidates[(recipe.value + attempt) % candidates.length]!;
      try {
        await client.query('SAVEPOINT change');
        await client.query(
          `UPDATE public.${ident(tableName)} SET ${ident(column.name)} = $${key.length + 1}::${column.type} WHERE ${where}`,
          [...keyValues, value],
        );
        after = value;
        break;
      } catch {
        await client.query('ROLLBACK TO SAVEPOINT change');
      }
    }
    if (after === undefined) {
      await client.query('ROLLBACK');
      return undefined;
    }
    await client.query('COMMIT');
    return {
      label: `set ${column.name} of ${describeRow} from ${JSON.stringify(before)} to ${JSON.stringify(after)}`,
      undo: () =>
        asOwner(pool, (undoClient) =>
          undoClient.query(
            `UPDATE public.${ident(tableName)} SET ${ident(column.name)} = $${key.length + 1}::${column.type} WHERE ${where}`,
            [...keyValues, before],
          ),
        ),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function asOwner(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<unknown>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

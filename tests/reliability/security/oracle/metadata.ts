import { readFileSync } from 'node:fs';

import type pg from 'pg';
import { parse as parseYaml } from 'yaml';

/*
 * What the oracle knows independently of the engine: the tracked tables and their select
 * permissions as hasura/metadata writes them, the database catalog (columns, primary keys,
 * foreign keys, views), and each role's row filter compiled to SQL here, not by the engine,
 * so that a fault in the engine's compiler cannot hide itself in the reference.
 */

const TABLES_DIR = new URL(
  '../../../../hasura/metadata/databases/default/tables/',
  import.meta.url,
);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface SelectPermission {
  columns: string[];
  computedFields: string[];
  filter: Json;
  allowAggregations: boolean;
}

export interface RelationshipMeta {
  name: string;
  kind: 'object' | 'array';
  /** Either a foreign key column (here for object, on the remote table for array), or a manual mapping. */
  using:
    | { fkColumn: string; remoteTable?: string }
    | { mapping: Record<string, string>; remoteTable: string };
}

export interface TableMeta {
  name: string;
  relationships: RelationshipMeta[];
  computedFields: Array<{ name: string; function: string }>;
  select: Map<string, SelectPermission>;
}

interface RawRelationship {
  name: string;
  using: {
    foreign_key_constraint_on?: string | { column: string; table?: { name: string } };
    manual_configuration?: {
      column_mapping: Record<string, string>;
      remote_table: { name: string };
    };
  };
}

interface RawTable {
  table: { name: string; schema: string };
  object_relationships?: RawRelationship[];
  array_relationships?: RawRelationship[];
  computed_fields?: Array<{ name: string; definition: { function: { name: string } } }>;
  select_permissions?: Array<{
    role: string;
    permission: {
      columns: string[] | '*';
      computed_fields?: string[];
      filter?: Json;
      allow_aggregations?: boolean;
    };
  }>;
}

function relationship(raw: RawRelationship, kind: 'object' | 'array'): RelationshipMeta {
  const fk = raw.using.foreign_key_constraint_on;
  if (typeof fk === 'string') return { name: raw.name, kind, using: { fkColumn: fk } };
  if (fk)
    return fk.table
      ? { name: raw.name, kind, using: { fkColumn: fk.column, remoteTable: fk.table.name } }
      : { name: raw.name, kind, using: { fkColumn: fk.column } };
  const manual = raw.using.manual_configuration!;
  return {
    name: raw.name,
    kind,
    using: { mapping: manual.column_mapping, remoteTable: manual.remote_table.name },
  };
}

/** The tracked tables of hasura/metadata (all in `public`). */
export function loadTableMetadata(): Map<string, TableMeta> {
  const list = parseYaml(readFileSync(new URL('tables.yaml', TABLES_DIR), 'utf8')) as string[];
  const tables = new Map<string, TableMeta>();
  for (const entry of list) {
    const file = entry.replace(/^!include\s+/, '').trim();
    const raw = parseYaml(readFileSync(new URL(file, TABLES_DIR), 'utf8')) as RawTable;
    if (raw.table.schema !== 'public')
      throw new Error(`the oracle assumes tracked tables in public, not ${raw.table.schema}`);
    const select = new Map<string, SelectPermission>();
    for (const permission of raw.select_permissions ?? []) {
      select.set(permission.role, {
        columns: permission.permission.columns === '*' ? ['*'] : permission.permission.columns,
        computedFields: permission.permission.computed_fields ?? [],
        filter: permission.permission.filter ?? {},
        allowAggregations: permission.permission.allow_aggregations ?? false,
      });
    }
    tables.set(raw.table.name, {
      name: raw.table.name,
      relationships: [
        ...(raw.object_relationships ?? []).map((item) => relationship(item, 'object')),
        ...(raw.array_relationships ?? []).map((item) => relationship(item, 'array')),
      ],
      computedFields: (raw.computed_fields ?? []).map((field) => ({
        name: field.name,
        function: field.definition.function.name,
      })),
      select,
    });
  }
  return tables;
}

export interface ColumnCatalog {
  name: string;
  type: string;
  nullable: boolean;
  /** Generated (stored) columns cannot be written. */
  generated: boolean;
  /** GENERATED ALWAYS AS IDENTITY: written with OVERRIDING SYSTEM VALUE. */
  identity: boolean;
}

export interface TableCatalog {
  name: string;
  isView: boolean;
  columns: ColumnCatalog[];
  primaryKey: string[];
  /** Foreign keys of this table: its columns to the referenced table's columns. */
  foreignKeys: Array<{ columns: string[]; table: string; references: string[] }>;
}

/** Columns, keys and kinds of the public tables and views, from pg_catalog. */
export async function loadCatalog(pool: pg.Pool): Promise<Map<string, TableCatalog>> {
  const { rows: relations } = await pool.query<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v')`,
  );
  const { rows: columns } = await pool.query<{
    table: string;
    name: string;
    type: string;
    nullable: boolean;
    generated: string;
    identity: string;
  }>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            NOT a.attnotnull AS nullable, a.attgenerated AS generated, a.attidentity AS identity
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`,
  );
  const { rows: constraints } = await pool.query<{
    table: string;
    kind: string;
    columns: string[];
    foreign_table: string | null;
    foreign_columns: string[] | null;
  }>(
    `SELECT c.relname AS table, k.contype AS kind,
            ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, i)
                    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i) AS columns,
            f.relname AS foreign_table,
            CASE WHEN k.contype = 'f' THEN
              ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, i)
                      JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i)
            END AS foreign_columns
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_class f ON f.oid = k.confrelid
      WHERE n.nspname = 'public' AND k.contype IN ('p', 'f')`,
  );
  const catalog = new Map<string, TableCatalog>();
  for (const relation of relations) {
    catalog.set(relation.name, {
      name: relation.name,
      isView: relation.kind === 'v',
      columns: [],
      primaryKey: [],
      foreignKeys: [],
    });
  }
  for (const column of columns) {
    catalog.get(column.table)?.columns.push({
      name: column.name,
      type: column.type,
      nullable: column.nullable,
      generated: column.generated !== '',
      identity: column.identity === 'a',
    });
  }
  for (const constraint of constraints) {
    const table = catalog.get(constraint.table);
    if (!table) continue;
    if (constraint.kind === 'p') table.primaryKey = constraint.columns;
    else
      table.foreignKeys.push({
        columns: constraint.columns,
        table: constraint.foreign_table!,
        references: constraint.foreign_columns!,
      });
  }
  return catalog;
}

/** A relationship's target table and its (local column, remote column) pairs. */
export function relationshipMapping(
  table: TableMeta,
  rel: RelationshipMeta,
  catalog: Map<string, TableCatalog>,
): { target: string; pairs: Array<[string, string]> } {
  if ('mapping' in rel.using)
    return { target: rel.using.remoteTable, pairs: Object.entries(rel.using.mapping) };
  const { fkColumn, remoteTable } = rel.using;
  if (rel.kind === 'object' && !remoteTable) {
    const fk = catalog
      .get(table.name)!
      .foreignKeys.find((key) => key.columns.length === 1 && key.columns[0] === fkColumn);
    if (!fk) throw new Error(`no foreign key on ${table.name}.${fkColumn}`);
    return { target: fk.table, pairs: [[fkColumn, fk.references[0]!]] };
  }
  const remote = remoteTable!;
  const fk = catalog
    .get(remote)!
    .foreignKeys.find(
      (key) => key.columns.length === 1 && key.columns[0] === fkColumn && key.table === table.name,
    );
  if (!fk) throw new Error(`no foreign key on ${remote}.${fkColumn} to ${table.name}`);
  return { target: remote, pairs: [[fk.references[0]!, fkColumn]] };
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

const BINARY: Record<string, string> = {
  _eq: '=',
  _neq: '<>',
  _gt: '>',
  _gte: '>=',
  _lt: '<',
  _lte: '<=',
  _like: 'LIKE',
  _nlike: 'NOT LIKE',
  _ilike: 'ILIKE',
  _nilike: 'NOT ILIKE',
  _similar: 'SIMILAR TO',
  _nsimilar: 'NOT SIMILAR TO',
  _regex: '~',
  _nregex: '!~',
  _iregex: '~*',
  _niregex: '!~*',
};

const normalise = (key: string) => {
  const underscored = key.startsWith('$') ? `_${key.slice(1)}` : key;
  return underscored === '_ne' ? '_neq' : underscored;
};

export interface PermissionContext {
  tables: Map<string, TableMeta>;
  catalog: Map<string, TableCatalog>;
  /** Session variables by lower-cased name (`x-hasura-user-id`). */
  session: Record<string, string>;
}

/**
 * A metadata boolean expression (a permission filter) as a SQL predicate on the row `alias`
 * of `table`, in metadata semantics: relationships are followed without the target's
 * permission, session variables substituted. Only what the metadata uses is supported; any
 * other construct throws, so the oracle never guesses.
 */
export function filterSql(
  ctx: PermissionContext,
  table: string,
  filter: Json,
  alias: string,
  depth = 0,
): string {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter))
    throw new Error(`unsupported permission filter on ${table}: ${JSON.stringify(filter)}`);
  const meta = ctx.tables.get(table);
  const catalog = ctx.catalog.get(table);
  if (!catalog) throw new Error(`no table ${table} in the catalog`);
  const parts: string[] = [];
  for (const [rawKey, value] of Object.entries(filter)) {
    const key = normalise(rawKey);
    if (key === '_and' || key === '_or') {
      const items = (Array.isArray(value) ? value : [value]).map((item) =>
        filterSql(ctx, table, item, alias, depth),
      );
      parts.push(
        items.length === 0
          ? key === '_and'
            ? 'true'
            : 'false'
          : `(${items.join(key === '_and' ? ' AND ' : ' OR ')})`,
      );
      continue;
    }
    if (key === '_not') {
      parts.push(`(NOT ${filterSql(ctx, table, value, alias, depth)})`);
      continue;
    }
    if (key === '_exists') {
      // Metadata only: whether any row of `_table` matches `_where` (not tied to this row).
      const spec = value as { _table?: Json; _where?: Json };
      const ref = spec._table;
      const name =
        typeof ref === 'string'
          ? ref
          : ref && typeof ref === 'object' && !Array.isArray(ref)
            ? textOf(ref['name'])
            : '';
      const schema =
        ref && typeof ref === 'object' && !Array.isArray(ref)
          ? textOf(ref['schema'] ?? 'public')
          : 'public';
      if (schema !== 'public' || !ctx.catalog.has(name))
        throw new Error(
          `unsupported _exists target ${JSON.stringify(ref)} in a permission on ${table}`,
        );
      const inner = `p${depth + 1}`;
      parts.push(
        `EXISTS (SELECT 1 FROM public.${ident(name)} AS ${inner} WHERE ${filterSql(ctx, name, spec._where ?? {}, inner, depth + 1)})`,
      );
      continue;
    }
    const column = catalog.columns.find((item) => item.name === rawKey);
    if (column) {
      const spec =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? value
          : { _eq: value };
      for (const [rawOp, operand] of Object.entries(spec)) {
        const op = normalise(rawOp);
        const column_ = `${alias}.${ident(column.name)}`;
        const resolve = (item: Json): string => {
          if (typeof item === 'string' && item.toLowerCase().startsWith('x-hasura-')) {
            const session = ctx.session[item.toLowerCase()];
            if (session === undefined) throw new Error(`no session variable ${item}`);
            return `${literal(session)}::${column.type}`;
          }
          if (item === null) return 'NULL';
          return `${literal(typeof item === 'string' ? item : JSON.stringify(item))}::${column.type}`;
        };
        if (op === '_is_null') parts.push(`${column_} IS ${operand === true ? '' : 'NOT '}NULL`);
        else if (op === '_in' || op === '_nin') {
          const items = (Array.isArray(operand) ? operand : [operand]).map(resolve);
          const inList = items.length === 0 ? 'false' : `${column_} IN (${items.join(', ')})`;
          parts.push(op === '_in' ? inList : `NOT (${inList})`);
        } else if (BINARY[op]) {
          // Hasura: a comparison with null is no condition at all.
          parts.push(operand === null ? 'true' : `${column_} ${BINARY[op]} ${resolve(operand)}`);
        } else throw new Error(`unsupported operator ${rawOp} in a permission on ${table}`);
      }
      continue;
    }
    const rel = meta?.relationships.find((item) => item.name === rawKey);
    if (rel && meta) {
      const { target, pairs } = relationshipMapping(meta, rel, ctx.catalog);
      const inner = `p${depth + 1}`;
      const join = pairs
        .map(([local, remote]) => `${alias}.${ident(local)} = ${inner}.${ident(remote)}`)
        .join(' AND ');
      parts.push(
        `EXISTS (SELECT 1 FROM public.${ident(target)} AS ${inner} WHERE ${join} AND ${filterSql(ctx, target, value, inner, depth + 1)})`,
      );
      continue;
    }
    throw new Error(`unsupported key ${rawKey} in a permission filter on ${table}`);
  }
  return parts.length === 0 ? 'true' : `(${parts.join(' AND ')})`;
}

/** The SQL predicate of the rows of `table` that `role` may select (`false`: none). */
export function visibleSql(
  ctx: PermissionContext,
  table: string,
  role: string,
  alias: string,
): string {
  const permission = ctx.tables.get(table)?.select.get(role);
  if (!permission) return 'false';
  return filterSql(ctx, table, permission.filter, alias);
}

/** Whether every table the role may select has the filter `{}` (it sees every row). */
export function seesEveryRow(tables: Map<string, TableMeta>, role: string): boolean {
  return [...tables.values()].every((table) => {
    const permission = table.select.get(role);
    return (
      !permission ||
      (permission.filter !== null &&
        typeof permission.filter === 'object' &&
        Object.keys(permission.filter).length === 0)
    );
  });
}

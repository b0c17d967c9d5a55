import type pg from 'pg';

import type { QualifiedName } from '../metadata/model.ts';

import { qualifiedKey, type Catalog, type FunctionInfo, type TableInfo } from './model.ts';

/*
 * Reads what the engine needs to know about the tracked tables and functions in one round
 * trip: columns with their (domain-resolved) types, primary and unique keys, foreign keys,
 * and whether views accept writes.
 */
const TABLES_SQL = `
WITH wanted AS (
  SELECT s ->> 'schema' AS schema_name, s ->> 'name' AS table_name
  FROM json_array_elements($1::json) AS s
)
SELECT json_agg(json_build_object(
  'schema', n.nspname,
  'name', c.relname,
  'relkind', c.relkind,
  'description', obj_description(c.oid, 'pg_class'),
  'insertable', c.relkind IN ('r', 'p', 'f') OR (c.relkind = 'v' AND pg_relation_is_updatable(c.oid::regclass, false) & 8 = 8),
  'updatable', c.relkind IN ('r', 'p', 'f') OR (c.relkind = 'v' AND pg_relation_is_updatable(c.oid::regclass, false) & 4 = 4),
  'deletable', c.relkind IN ('r', 'p', 'f') OR (c.relkind = 'v' AND pg_relation_is_updatable(c.oid::regclass, false) & 16 = 16),
  'columns', (
    SELECT json_agg(json_build_object(
      'name', a.attname,
      'typeName', COALESCE(bt.typname, t.typname),
      'typeSchema', tn.nspname,
      -- format_type(bpchar) is "character", i.e. char(1), which would truncate casts.
      'sqlType', CASE COALESCE(bt.typname, t.typname)
                   WHEN 'bpchar' THEN 'bpchar' WHEN '_bpchar' THEN 'bpchar[]'
                   ELSE format_type(COALESCE(NULLIF(t.typbasetype, 0), a.atttypid), NULL) END,
      'typeKind', COALESCE(bt.typtype, t.typtype)::text,
      'isArray', COALESCE(bt.typcategory, t.typcategory) = 'A',
      'enumValues', (SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = COALESCE(bt.oid, t.oid)),
      'nullable', NOT a.attnotnull,
      'hasDefault', a.atthasdef OR a.attidentity <> '',
      'isGenerated', a.attidentity = 'a' OR a.attgenerated <> '',
      'description', col_description(c.oid, a.attnum)
    ) ORDER BY a.attnum)
    FROM pg_attribute a
    JOIN pg_type t ON t.oid = a.atttypid
    LEFT JOIN pg_type bt ON bt.oid = t.typbasetype AND t.typtype = 'd'
    JOIN pg_namespace tn ON tn.oid = COALESCE(bt.typnamespace, t.typnamespace)
    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  ),
  'primaryKey', (
    SELECT json_agg(a.attname ORDER BY k.ord)
    FROM pg_constraint pk, unnest(pk.conkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
    WHERE pk.conrelid = c.oid AND pk.contype = 'p'
  ),
  'uniqueConstraints', (
    SELECT json_agg(json_build_object('name', u.conname, 'columns', (
      SELECT json_agg(a.attname ORDER BY k.ord)
      FROM unnest(u.conkey) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum)))
    FROM pg_constraint u WHERE u.conrelid = c.oid AND u.contype IN ('p', 'u')
  ),
  'foreignKeys', (
    SELECT json_agg(json_build_object(
      'name', f.conname,
      'refSchema', rn.nspname,
      'refTable', rc.relname,
      'columns', (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(f.conkey) WITH ORDINALITY AS k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum),
      'refColumns', (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(f.confkey) WITH ORDINALITY AS k(attnum, ord)
                     JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.attnum)))
    FROM pg_constraint f
    JOIN pg_class rc ON rc.oid = f.confrelid
    JOIN pg_namespace rn ON rn.oid = rc.relnamespace
    WHERE f.conrelid = c.oid AND f.contype = 'f'
  )
)) AS tables
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN wanted w ON w.schema_name = n.nspname AND w.table_name = c.relname
WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p')`;

const FUNCTIONS_SQL = `
WITH wanted AS (
  SELECT s ->> 'schema' AS schema_name, s ->> 'name' AS function_name
  FROM json_array_elements($1::json) AS s
)
SELECT json_agg(json_build_object(
  'schema', n.nspname,
  'name', p.proname,
  'argNames', COALESCE(to_json(p.proargnames), '[]'::json),
  'argTypes', (SELECT COALESCE(json_agg(format_type(t, NULL) ORDER BY ord), '[]'::json)
               FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, ord)),
  'returnTypeName', rt.typname,
  'returnTypeSchema', rtn.nspname,
  'returnsSet', p.proretset,
  'returnsTable', rt.typrelid <> 0
)) AS functions
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN wanted w ON w.schema_name = n.nspname AND w.function_name = p.proname
JOIN pg_type rt ON rt.oid = p.prorettype
JOIN pg_namespace rtn ON rtn.oid = rt.typnamespace`;

const RELKINDS: Record<string, TableInfo['kind']> = {
  r: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  p: 'partitioned_table',
};

interface RawTable extends Omit<
  TableInfo,
  'kind' | 'columns' | 'uniqueConstraints' | 'foreignKeys' | 'primaryKey'
> {
  relkind: string;
  columns: Array<
    TableInfo['columns'][number] & { enumValues: string[] | null; description: string | null }
  > | null;
  primaryKey: string[] | null;
  uniqueConstraints: TableInfo['uniqueConstraints'] | null;
  foreignKeys: TableInfo['foreignKeys'] | null;
  description: string | undefined;
}

export async function introspect(
  pool: pg.Pool,
  tables: QualifiedName[],
  functions: QualifiedName[],
): Promise<Catalog> {
  const [tableResult, functionResult] = await Promise.all([
    pool.query<{ tables: RawTable[] | null }>(TABLES_SQL, [JSON.stringify(tables)]),
    pool.query<{ functions: FunctionInfo[] | null }>(FUNCTIONS_SQL, [JSON.stringify(functions)]),
  ]);
  const catalog: Catalog = { tables: new Map(), functions: new Map() };
  for (const raw of tableResult.rows[0]?.tables ?? []) {
    catalog.tables.set(qualifiedKey(raw.schema, raw.name), {
      schema: raw.schema,
      name: raw.name,
      kind: RELKINDS[raw.relkind] ?? 'table',
      description: raw.description ?? undefined,
      columns: (raw.columns ?? []).map((column) => ({
        ...column,
        enumValues: column.enumValues ?? undefined,
        description: column.description ?? undefined,
      })),
      primaryKey: raw.primaryKey ?? undefined,
      uniqueConstraints: raw.uniqueConstraints ?? [],
      foreignKeys: raw.foreignKeys ?? [],
      insertable: raw.insertable,
      updatable: raw.updatable,
      deletable: raw.deletable,
    });
  }
  for (const fn of functionResult.rows[0]?.functions ?? []) {
    catalog.functions.set(qualifiedKey(fn.schema, fn.name), fn);
  }
  return catalog;
}

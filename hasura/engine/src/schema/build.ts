import { qualifiedKey, type Catalog, type TableInfo } from '../catalog/model.ts';
import type { Metadata, RelationshipMetadata, TableMetadata } from '../metadata/model.ts';
import { isSessionVariable, parseBoolExp, type BoolExpContext } from '../plan/bool-exp.ts';

import {
  TRUE,
  type BoolExp,
  type ColumnField,
  type ComputedField,
  type Presets,
  type RelationshipField,
  type RoleSchema,
  type RoleTable,
  type RootField,
  type SchemaModel,
  type TableSchema,
} from './model.ts';
import { columnFieldName, rootFieldName, tableTypeName, type RootFieldKind } from './names.ts';
import { scalarName } from './scalars.ts';

export class SchemaBuildError extends Error {
  override name = 'SchemaBuildError';
}

function resolveRelationship(
  kind: 'object' | 'array',
  relationship: RelationshipMetadata,
  info: TableInfo,
  catalog: Catalog,
): RelationshipField {
  const where = `${info.schema}.${info.name}.${relationship.name}`;
  const using = relationship.using;
  if ('manual_configuration' in using) {
    const config = using.manual_configuration as {
      remote_table: { schema: string; name: string };
      column_mapping: Record<string, string>;
    };
    const target = qualifiedKey(config.remote_table.schema, config.remote_table.name);
    if (!catalog.tables.has(target))
      throw new SchemaBuildError(`${where}: table ${target} is not tracked or does not exist`);
    return {
      kind,
      name: relationship.name,
      target,
      mapping: Object.entries(config.column_mapping),
      nullable: true,
    };
  }
  const spec = using.foreign_key_constraint_on;
  if (Array.isArray(spec)) {
    // The foreign key is on this table: these columns reference the target.
    const fk = info.foreignKeys.find((candidate) => sameColumns(candidate.columns, spec));
    if (!fk) throw new SchemaBuildError(`${where}: no foreign key on (${spec.join(', ')})`);
    const nullable = spec.some(
      (name) => info.columns.find((column) => column.name === name)?.nullable ?? true,
    );
    return {
      kind,
      name: relationship.name,
      target: qualifiedKey(fk.refSchema, fk.refTable),
      mapping: fk.columns.map((column, i) => [column, fk.refColumns[i]!]),
      nullable,
    };
  }
  // The foreign key is on the target table and references this one.
  const targetKey = qualifiedKey(spec.table.schema, spec.table.name);
  const target = catalog.tables.get(targetKey);
  const columns = spec.columns ?? (spec.column ? [spec.column] : []);
  const fk = target?.foreignKeys.find(
    (candidate) =>
      sameColumns(candidate.columns, columns) &&
      candidate.refSchema === info.schema &&
      candidate.refTable === info.name,
  );
  if (!fk)
    throw new SchemaBuildError(
      `${where}: no foreign key on ${targetKey} (${columns.join(', ')}) to ${info.schema}.${info.name}`,
    );
  return {
    kind,
    name: relationship.name,
    target: targetKey,
    mapping: fk.refColumns.map((column, i) => [column, fk.columns[i]!]),
    nullable: true,
  };
}

const sameColumns = (a: string[], b: string[]) =>
  a.length === b.length && a.every((column) => b.includes(column));

function buildTable(metadata: TableMetadata, catalog: Catalog): TableSchema {
  const key = qualifiedKey(metadata.table.schema, metadata.table.name);
  const info = catalog.tables.get(key);
  if (!info) throw new SchemaBuildError(`tracked table ${key} does not exist in the database`);
  const columns = new Map<string, ColumnField>();
  const columnsBySql = new Map<string, ColumnField>();
  for (const column of info.columns) {
    const field: ColumnField = {
      kind: 'column',
      name: columnFieldName(metadata, column.name),
      column,
      scalar: scalarName(column.typeName),
    };
    columns.set(field.name, field);
    columnsBySql.set(column.name, field);
  }
  const relationships = new Map<string, RelationshipField>();
  for (const relationship of metadata.object_relationships) {
    relationships.set(
      relationship.name,
      resolveRelationship('object', relationship, info, catalog),
    );
  }
  for (const relationship of metadata.array_relationships) {
    relationships.set(relationship.name, resolveRelationship('array', relationship, info, catalog));
  }
  const computedFields = new Map<string, ComputedField>();
  for (const computed of metadata.computed_fields) {
    const fnKey = qualifiedKey(
      computed.definition.function.schema,
      computed.definition.function.name,
    );
    const fn = catalog.functions.get(fnKey);
    if (!fn)
      throw new SchemaBuildError(`${key}.${computed.name}: function ${fnKey} does not exist`);
    const returnsKey = qualifiedKey(fn.returnTypeSchema, fn.returnTypeName);
    computedFields.set(computed.name, {
      kind: 'computed',
      name: computed.name,
      fn,
      tableArgument: computed.definition.table_argument ?? undefined,
      sessionArgument: computed.definition.session_argument ?? undefined,
      returns: fn.returnsTable
        ? { table: returnsKey }
        : { scalar: scalarName(fn.returnTypeName), typeName: fn.returnTypeName },
    });
  }
  return {
    key,
    info,
    metadata,
    typeName: tableTypeName(metadata),
    columns,
    columnsBySql,
    relationships,
    computedFields,
  };
}

function columnSet(table: TableSchema, columns: '*' | string[]): Set<string> {
  if (columns === '*') return new Set(table.info.columns.map((column) => column.name));
  for (const column of columns) {
    if (!table.columnsBySql.has(column))
      throw new SchemaBuildError(`${table.key}: permission names unknown column ${column}`);
  }
  return new Set(columns);
}

function presets(table: TableSchema, set: Record<string, unknown>): Presets {
  const result: Presets = new Map();
  for (const [column, value] of Object.entries(set)) {
    if (!table.columnsBySql.has(column))
      throw new SchemaBuildError(`${table.key}: preset for unknown column ${column}`);
    result.set(
      column,
      isSessionVariable(value) ? { session: value.toLowerCase() } : { literal: value },
    );
  }
  return result;
}

function roleTable(
  table: TableSchema,
  role: string,
  tables: Map<string, TableSchema>,
  backendOnly: boolean,
): RoleTable | undefined {
  const ctx: BoolExpContext = { mode: 'metadata', tables };
  const parse = (json: Record<string, unknown>, what: string): BoolExp => {
    try {
      return parseBoolExp(table, json, ctx);
    } catch (error) {
      throw new SchemaBuildError(
        `${table.key} ${what} permission of ${role}: ${(error as Error).message}`,
      );
    }
  };
  const find = <T extends { role: string }>(entries: T[]) =>
    entries.find((entry) => entry.role === role);
  const { metadata } = table;
  const reachable = <T extends { backend_only: boolean }>(permission: T | undefined) =>
    permission && (!permission.backend_only || backendOnly) ? permission : undefined;
  const select = find(metadata.select_permissions)?.permission;
  const insert = reachable(find(metadata.insert_permissions)?.permission);
  const update = reachable(find(metadata.update_permissions)?.permission);
  const del = reachable(find(metadata.delete_permissions)?.permission);
  if (!select && !insert && !update && !del) return undefined;
  return {
    table,
    select: select && {
      columns: columnSet(table, select.columns),
      computedFields: new Set(select.computed_fields),
      filter: parse(select.filter, 'select'),
      limit: select.limit ?? undefined,
      allowAggregations: select.allow_aggregations,
      queryRootFields: select.query_root_fields ? new Set(select.query_root_fields) : undefined,
      subscriptionRootFields: select.subscription_root_fields
        ? new Set(select.subscription_root_fields)
        : undefined,
    },
    insert: insert && {
      columns: columnSet(table, insert.columns),
      check: parse(insert.check, 'insert'),
      presets: presets(table, insert.set),
      backendOnly: insert.backend_only,
    },
    update: update && {
      columns: columnSet(table, update.columns),
      filter: parse(update.filter, 'update'),
      check: update.check ? parse(update.check, 'update check') : undefined,
      presets: presets(table, update.set),
      backendOnly: update.backend_only,
    },
    delete: del && { filter: parse(del.filter, 'delete'), backendOnly: del.backend_only },
  };
}

function adminTable(table: TableSchema): RoleTable {
  const all = new Set(table.info.columns.map((column) => column.name));
  return {
    table,
    select: {
      columns: all,
      computedFields: new Set(table.computedFields.keys()),
      filter: TRUE,
      limit: undefined,
      allowAggregations: true,
      queryRootFields: undefined,
      subscriptionRootFields: undefined,
    },
    insert: { columns: all, check: TRUE, presets: new Map(), backendOnly: false },
    update: {
      columns: all,
      filter: TRUE,
      check: undefined,
      presets: new Map(),
      backendOnly: false,
    },
    delete: { filter: TRUE, backendOnly: false },
  };
}

function addRootFields(schema: RoleSchema, entry: RoleTable): void {
  const { table, select, insert, update } = entry;
  const name = (kind: RootFieldKind) => rootFieldName(table.metadata, kind);
  const add = (map: Map<string, RootField>, kind: RootFieldKind) =>
    map.set(name(kind), { kind, name: name(kind), table: entry });
  const pk = table.info.primaryKey;
  const pkSelectable =
    pk !== undefined && select !== undefined && pk.every((column) => select.columns.has(column));
  if (select) {
    const allowed = (set: Set<string> | undefined, kind: string) =>
      set === undefined || set.has(kind);
    for (const [map, set] of [
      [schema.query, select.queryRootFields],
      [schema.subscription, select.subscriptionRootFields],
    ] as const) {
      if (allowed(set, 'select')) add(map, 'select');
      if (pkSelectable && allowed(set, 'select_by_pk')) add(map, 'select_by_pk');
      if (select.allowAggregations && allowed(set, 'select_aggregate'))
        add(map, 'select_aggregate');
    }
  }
  if (insert && table.info.insertable) {
    add(schema.mutation, 'insert');
    // insert_<t>_one answers with the row, so it needs select permission (as in Hasura).
    if (select) add(schema.mutation, 'insert_one');
  }
  if (update && table.info.updatable) {
    add(schema.mutation, 'update');
    if (pkSelectable) add(schema.mutation, 'update_by_pk');
  }
  if (entry.delete && table.info.deletable) {
    add(schema.mutation, 'delete');
    if (pkSelectable) add(schema.mutation, 'delete_by_pk');
  }
}

/** Builds the schema model of every tracked table; a role's API is derived on first use. */
export function buildSchemaModel(metadata: Metadata, catalog: Catalog): SchemaModel {
  const source = metadata.sources[0];
  const tables = new Map<string, TableSchema>();
  for (const table of source?.tables ?? []) {
    const built = buildTable(table, catalog);
    tables.set(built.key, built);
  }
  for (const table of tables.values()) {
    for (const relationship of table.relationships.values()) {
      if (!tables.has(relationship.target)) {
        throw new SchemaBuildError(
          `${table.key}.${relationship.name}: target ${relationship.target} is not tracked`,
        );
      }
    }
  }
  const roles = new Set<string>(['admin']);
  for (const table of source?.tables ?? []) {
    for (const entry of [
      ...table.select_permissions,
      ...table.insert_permissions,
      ...table.update_permissions,
      ...table.delete_permissions,
    ]) {
      roles.add(entry.role);
    }
  }
  for (const action of metadata.actions)
    for (const permission of action.permissions) roles.add(permission.role);

  const cache = new Map<string, RoleSchema>();
  const forRole = (role: string, options: { backendOnly?: boolean } = {}): RoleSchema => {
    const backendOnly = options.backendOnly ?? false;
    const key = `${role}\u0000${backendOnly}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const isAdmin = role === 'admin';
    const schema: RoleSchema = {
      role,
      isAdmin,
      tables: new Map(),
      query: new Map(),
      mutation: new Map(),
      subscription: new Map(),
      customTypes: metadata.custom_types,
    };
    for (const table of tables.values()) {
      const entry = isAdmin ? adminTable(table) : roleTable(table, role, tables, backendOnly);
      if (!entry) continue;
      schema.tables.set(table.key, entry);
      addRootFields(schema, entry);
    }
    for (const action of metadata.actions) {
      if (!isAdmin && !action.permissions.some((permission) => permission.role === role)) continue;
      const field: RootField = { kind: 'action', name: action.name, action };
      (action.definition.type === 'query' ? schema.query : schema.mutation).set(action.name, field);
    }
    cache.set(key, schema);
    return schema;
  };
  for (const role of roles) forRole(role);
  return { tables, roles, forRole };
}

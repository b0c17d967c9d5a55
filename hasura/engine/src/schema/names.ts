import type { TableMetadata } from '../metadata/model.ts';

/** The GraphQL name of a tracked table: its custom name, else `name` in public, else `schema_name`. */
export function tableTypeName(metadata: TableMetadata): string {
  const custom = metadata.configuration.custom_name;
  if (custom) return custom;
  const { schema, name } = metadata.table;
  return schema === 'public' ? name : `${schema}_${name}`;
}

/** The GraphQL name of a column, honouring column_config and custom_column_names. */
export function columnFieldName(metadata: TableMetadata, column: string): string {
  return (
    metadata.configuration.column_config[column]?.custom_name ??
    metadata.configuration.custom_column_names[column] ??
    column
  );
}

export type RootFieldKind =
  | 'select'
  | 'select_by_pk'
  | 'select_aggregate'
  | 'insert'
  | 'insert_one'
  | 'update'
  | 'update_by_pk'
  | 'delete'
  | 'delete_by_pk';

/** Root field names of a table, with custom_root_fields applied. */
export function rootFieldName(metadata: TableMetadata, kind: RootFieldKind): string {
  const custom = metadata.configuration.custom_root_fields[kind];
  if (typeof custom === 'string' && custom) return custom;
  const name = tableTypeName(metadata);
  switch (kind) {
    case 'select':
      return name;
    case 'select_by_pk':
      return `${name}_by_pk`;
    case 'select_aggregate':
      return `${name}_aggregate`;
    case 'insert':
      return `insert_${name}`;
    case 'insert_one':
      return `insert_${name}_one`;
    case 'update':
      return `update_${name}`;
    case 'update_by_pk':
      return `update_${name}_by_pk`;
    case 'delete':
      return `delete_${name}`;
    case 'delete_by_pk':
      return `delete_${name}_by_pk`;
  }
}

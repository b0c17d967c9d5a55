/** What the database says about a column. */
export interface ColumnInfo {
  name: string;
  /** Base type name as in pg_type (`int4`, `numeric`, `varchar`, `timestamptz`, `_text`). */
  typeName: string;
  typeSchema: string;
  /** How SQL spells the type, usable in casts (`integer`, `text[]`, `public.mood`). */
  sqlType: string;
  /** `b` base, `e` enum, `d` domain (resolved to its base in `typeName`), `c` composite. */
  typeKind: string;
  isArray: boolean;
  enumValues: string[] | undefined;
  nullable: boolean;
  hasDefault: boolean;
  /** GENERATED ALWAYS AS IDENTITY or a generated column: never writable. */
  isGenerated: boolean;
  description: string | undefined;
}

export interface ForeignKeyInfo {
  name: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
}

export interface TableInfo {
  schema: string;
  name: string;
  kind: 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';
  columns: ColumnInfo[];
  primaryKey: string[] | undefined;
  uniqueConstraints: Array<{ name: string; columns: string[] }>;
  foreignKeys: ForeignKeyInfo[];
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
  description: string | undefined;
}

export interface FunctionInfo {
  schema: string;
  name: string;
  argNames: string[];
  argTypes: string[];
  returnTypeName: string;
  returnTypeSchema: string;
  returnsSet: boolean;
  /** Whether the function returns rows of a table (computed fields returning SETOF table). */
  returnsTable: boolean;
}

export interface Catalog {
  tables: Map<string, TableInfo>;
  functions: Map<string, FunctionInfo>;
}

export const qualifiedKey = (schema: string, name: string) => `${schema}.${name}`;

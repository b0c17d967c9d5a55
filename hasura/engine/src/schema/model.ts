import type { ColumnInfo, FunctionInfo, TableInfo } from '../catalog/model.ts';
import type { ActionMetadata, CustomTypesMetadata, TableMetadata } from '../metadata/model.ts';

import type { RootFieldKind } from './names.ts';

/** A column as GraphQL sees it. */
export interface ColumnField {
  kind: 'column';
  /** GraphQL field name (custom column names applied). */
  name: string;
  column: ColumnInfo;
  scalar: string;
}

export interface RelationshipField {
  kind: 'object' | 'array';
  name: string;
  /** Key of the target table in the catalog (`schema.name`). */
  target: string;
  /** Pairs of (this table's column, target table's column). */
  mapping: Array<[string, string]>;
  /** An object relationship is non-null when its foreign key columns here are all NOT NULL. */
  nullable: boolean;
}

export interface ComputedField {
  kind: 'computed';
  name: string;
  fn: FunctionInfo;
  /** Name of the argument that receives the row (default: the first). */
  tableArgument: string | undefined;
  sessionArgument: string | undefined;
  /** Scalar result (its GraphQL scalar) or rows of a tracked table (its catalog key). */
  returns: { scalar: string; typeName: string } | { table: string };
}

/**
 * A computed field's own arguments, with their SQL types: the function's, but the row and the
 * session. A field without any has no `args` argument at all (Hasura's schema).
 */
export function computedFieldOwnArguments(
  computed: ComputedField,
): Array<{ name: string; sqlType: string }> {
  const { fn } = computed;
  const rowArgument = computed.tableArgument ?? fn.argNames[0];
  return fn.argTypes.flatMap((sqlType, i) => {
    const name = fn.argNames[i];
    if (name === undefined || name === rowArgument || name === computed.sessionArgument) return [];
    return [{ name, sqlType }];
  });
}

/** The names of a computed field's own arguments (computedFieldOwnArguments). */
export const computedFieldInputNames = (computed: ComputedField): string[] =>
  computedFieldOwnArguments(computed).map(({ name }) => name);

/** A tracked table with everything every role could see. */
export interface TableSchema {
  key: string;
  info: TableInfo;
  metadata: TableMetadata;
  typeName: string;
  /** By GraphQL field name. */
  columns: Map<string, ColumnField>;
  /** By database column name. */
  columnsBySql: Map<string, ColumnField>;
  relationships: Map<string, RelationshipField>;
  computedFields: Map<string, ComputedField>;
}

/*
 * Boolean expressions: permission filters and checks compiled from metadata, and the
 * `where` arguments of requests once planned; the SQL compiler turns them into conditions.
 */

/** A value in a comparison: from the request, from the session, or another column. */
export type ValueRef =
  /** `slot`: the value came from a variable that may be re-bound (plan/variable-bindings.ts). */
  | { kind: 'literal'; value: unknown; slot?: number }
  | { kind: 'session'; name: string }
  | { kind: 'column'; column: ColumnInfo; fromRoot: boolean };

export type ComparisonOp =
  | '_eq'
  | '_neq'
  | '_gt'
  | '_gte'
  | '_lt'
  | '_lte'
  | '_in'
  | '_nin'
  | '_like'
  | '_nlike'
  | '_ilike'
  | '_nilike'
  | '_similar'
  | '_nsimilar'
  | '_regex'
  | '_nregex'
  | '_iregex'
  | '_niregex'
  | '_is_null'
  | '_contains'
  | '_contained_in'
  | '_has_key'
  | '_has_keys_any'
  | '_has_keys_all'
  | '_ceq'
  | '_cne'
  | '_cgt'
  | '_cgte'
  | '_clt'
  | '_clte';

export type BoolExp =
  | { kind: 'true' }
  | { kind: 'and'; items: BoolExp[] }
  | { kind: 'or'; items: BoolExp[] }
  | { kind: 'not'; item: BoolExp }
  | {
      kind: 'compare';
      column: ColumnInfo;
      op: ComparisonOp;
      value: ValueRef;
      /** Compare a scalar computed field's value instead of the column (`column` then describes its type). */
      computed?: ComputedField;
    }
  | {
      kind: 'computed_exists';
      field: ComputedField;
      target: TableSchema;
      where: BoolExp;
      /** The role's select filter on the returned rows (requests only). */
      permission?: BoolExp | undefined;
    }
  | {
      kind: 'relationship';
      relationship: RelationshipField;
      target: TableSchema;
      where: BoolExp;
      /** The target's select filter for the role, when filtering through it from a request. */
      permission: BoolExp | undefined;
    }
  | { kind: 'exists'; table: TableSchema; where: BoolExp };

export const TRUE: BoolExp = { kind: 'true' };

export interface SelectPermission {
  columns: Set<string>;
  computedFields: Set<string>;
  filter: BoolExp;
  limit: number | undefined;
  allowAggregations: boolean;
  /** Root fields the role may use for this table; undefined means all. */
  queryRootFields: Set<string> | undefined;
  subscriptionRootFields: Set<string> | undefined;
}

/** Column values set by the permission itself: literals or session variables. */
export type Presets = Map<string, { literal: unknown } | { session: string }>;

export interface InsertPermission {
  columns: Set<string>;
  check: BoolExp;
  presets: Presets;
  backendOnly: boolean;
}

export interface UpdatePermission {
  columns: Set<string>;
  filter: BoolExp;
  check: BoolExp | undefined;
  presets: Presets;
  backendOnly: boolean;
}

export interface DeletePermission {
  filter: BoolExp;
  backendOnly: boolean;
}

/** A table as one role sees it. Admin has every permission, unfiltered. */
export interface RoleTable {
  table: TableSchema;
  select: SelectPermission | undefined;
  insert: InsertPermission | undefined;
  update: UpdatePermission | undefined;
  delete: DeletePermission | undefined;
}

export type RootField =
  | { kind: RootFieldKind; name: string; table: RoleTable }
  | { kind: 'action'; name: string; action: ActionMetadata };

/** The whole GraphQL API of one role. */
export interface RoleSchema {
  role: string;
  isAdmin: boolean;
  /** By catalog key (`schema.name`); only tables the role can see at all. */
  tables: Map<string, RoleTable>;
  query: Map<string, RootField>;
  mutation: Map<string, RootField>;
  subscription: Map<string, RootField>;
  customTypes: CustomTypesMetadata;
}

/** All tracked tables, and a role's schema built on demand. */
export interface SchemaModel {
  tables: Map<string, TableSchema>;
  roles: Set<string>;
  /**
   * A role's API. `backendOnly` adds the permissions marked backend_only, which Hasura grants
   * only to requests that prove the admin secret and set x-hasura-use-backend-only-permissions.
   */
  forRole(role: string, options?: { backendOnly?: boolean }): RoleSchema;
}

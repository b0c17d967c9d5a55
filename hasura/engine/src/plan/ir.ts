import type { ActionPlan } from '../actions/index.ts';
import type { ColumnInfo } from '../catalog/model.ts';
import type { ComputedField, RelationshipField, RoleTable, TableSchema } from '../schema/model.ts';

/*
 * The plan: what a GraphQL operation asks for, checked against the role's schema, with
 * permissions attached. The SQL compiler turns it into one statement per root field.
 */

/** A value in a comparison: from the request, from the session, or another column. */
export type ValueRef =
  | { kind: 'literal'; value: unknown }
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

/** The aggregate functions Hasura offers besides `count`. */
export const AGGREGATE_FUNCTIONS = [
  'avg',
  'max',
  'min',
  'sum',
  'stddev',
  'stddev_pop',
  'stddev_samp',
  'var_pop',
  'var_samp',
  'variance',
] as const;
export type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];

export interface OrderByItem {
  /** Path of object relationships from the root row to the ordered value. */
  path: RelationshipHop[];
  target:
    | { kind: 'column'; column: ColumnInfo }
    | { kind: 'computed'; field: ComputedField }
    | {
        kind: 'computed_aggregate';
        field: ComputedField;
        fn: 'count' | 'avg' | 'max' | 'min' | 'sum';
        column: ColumnInfo | undefined;
        /** The role's select filter on the returned rows: only those are aggregated. */
        permission: BoolExp;
      }
    | {
        kind: 'aggregate';
        hop: RelationshipHop;
        fn: 'count' | AggregateFunction;
        column: ColumnInfo | undefined;
      };
  direction: 'asc' | 'desc';
  nulls: 'first' | 'last';
}

export interface RelationshipHop {
  relationship: RelationshipField;
  target: TableSchema;
  permission: BoolExp | undefined;
}

export interface SelectArgs {
  where: BoolExp;
  orderBy: OrderByItem[];
  limit: number | undefined;
  offset: number | undefined;
  distinctOn: ColumnInfo[] | undefined;
  /** Aggregates: the role's row limit, which caps `nodes` but not the aggregate (as in Hasura). */
  nodesLimit?: number | undefined;
}

/** One field of a row in the response. */
export type FieldPlan =
  | { alias: string; kind: 'column'; column: ColumnInfo; jsonPath?: Array<string | number> }
  | { alias: string; kind: 'typename'; value: string }
  | { alias: string; kind: 'object'; hop: RelationshipHop; fields: FieldPlan[] }
  | { alias: string; kind: 'array'; hop: RelationshipHop; args: SelectArgs; fields: FieldPlan[] }
  | {
      alias: string;
      kind: 'array_aggregate';
      hop: RelationshipHop;
      args: SelectArgs;
      aggregate: AggregatePlan;
    }
  | {
      alias: string;
      kind: 'computed';
      field: ComputedField;
      /** Values for the function's own arguments (the field's `args` argument). */
      functionArgs: Record<string, unknown>;
      /** Table-returning fields: the role's select filter on the returned table. */
      permission: BoolExp | undefined;
      args: SelectArgs | undefined;
      fields: FieldPlan[] | undefined;
    };

/** `<t>_aggregate { aggregate { ... } nodes { ... } }`. */
export interface AggregatePlan {
  fields: Array<
    | { alias: string; kind: 'typename'; value: string }
    | { alias: string; kind: 'nodes'; fields: FieldPlan[] }
    | { alias: string; kind: 'aggregate'; fields: AggregateField[] }
  >;
}

export type AggregateField =
  | { alias: string; kind: 'typename'; value: string }
  | { alias: string; kind: 'count'; columns: ColumnInfo[] | undefined; distinct: boolean }
  | {
      alias: string;
      kind: 'function';
      fn: AggregateFunction;
      columns: Array<{ alias: string; column: ColumnInfo } | { alias: string; typename: string }>;
    };

/** Rows of a table, as a permission-checked source. */
export interface TableSource {
  table: RoleTable;
  /** The role's select filter (TRUE for admin). */
  permission: BoolExp;
  /** The role's row limit, if any. */
  permissionLimit: number | undefined;
}

export type RootPlan =
  | { alias: string; kind: 'typename'; value: string }
  | { alias: string; kind: 'introspection' }
  | { alias: string; kind: 'select'; source: TableSource; args: SelectArgs; fields: FieldPlan[] }
  | {
      alias: string;
      kind: 'select_by_pk';
      source: TableSource;
      where: BoolExp;
      fields: FieldPlan[];
    }
  | {
      alias: string;
      kind: 'select_aggregate';
      source: TableSource;
      args: SelectArgs;
      aggregate: AggregatePlan;
    }
  | { alias: string; kind: 'action'; plan: ActionPlan }
  | MutationPlan;

/** What a mutation returns: `affected_rows` and `returning`, or one row (`_one`, `_by_pk`). */
export type MutationOutput =
  | {
      kind: 'many';
      fields: Array<
        | { alias: string; kind: 'affected_rows' }
        | { alias: string; kind: 'returning'; fields: FieldPlan[] }
        | { alias: string; kind: 'typename'; value: string }
      >;
    }
  | { kind: 'one'; fields: FieldPlan[] };

export interface ConflictClause {
  constraint: string;
  updateColumns: ColumnInfo[];
  where: BoolExp;
  /** The update permission's presets, applied when the conflict turns the insert into an update. */
  presets: Map<string, ValueRef>;
}

export type MutationPlan =
  | {
      alias: string;
      kind: 'insert';
      table: RoleTable;
      /** One entry per object: column name to value (presets applied). */
      rows: Array<Map<string, ValueRef>>;
      columns: ColumnInfo[];
      check: BoolExp;
      onConflict: ConflictClause | undefined;
      output: MutationOutput;
      returningPermission: BoolExp | undefined;
    }
  | {
      alias: string;
      kind: 'update';
      table: RoleTable;
      where: BoolExp;
      set: Map<string, ValueRef>;
      inc: Map<string, ValueRef>;
      jsonOps: Array<{
        column: ColumnInfo;
        op: '_append' | '_prepend' | '_delete_key' | '_delete_elem' | '_delete_at_path';
        value: ValueRef;
      }>;
      check: BoolExp | undefined;
      output: MutationOutput;
      returningPermission: BoolExp | undefined;
    }
  | {
      alias: string;
      kind: 'delete';
      table: RoleTable;
      where: BoolExp;
      output: MutationOutput;
      returningPermission: BoolExp | undefined;
    };

import type { ColumnInfo } from '../catalog/model.ts';
import type {
  BoolExp,
  ComputedField,
  RelationshipField,
  RoleTable,
  TableSchema,
  ValueRef,
} from '../schema/model.ts';

/*
 * The plan: what a GraphQL operation asks for, checked against the role's schema, with
 * permissions attached. The SQL compiler turns it into one statement per root field.
 */

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

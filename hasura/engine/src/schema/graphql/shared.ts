import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLScalarType,
  GraphQLString,
  type GraphQLEnumValueConfigMap,
  type GraphQLType,
} from 'graphql';

import { AGGREGATE_FUNCTIONS, type AggregateFunction } from '../../plan/ir.ts';
import type { ColumnField, ComputedField, Presets, RoleTable, TableSchema } from '../model.ts';
import { isComparableType, isNumericType } from '../scalars.ts';

/* Names, operator lists and small helpers every builder of the role's GraphQL types uses. */

export const SORTED_AGGREGATE_FUNCTIONS: readonly AggregateFunction[] = [
  ...AGGREGATE_FUNCTIONS,
].sort();

export const JSONB_OPERATORS = {
  _append: {
    type: 'append',
    description: 'append existing jsonb value of filtered columns with new jsonb value',
  },
  _prepend: {
    type: 'prepend',
    description: 'prepend existing jsonb value of filtered columns with new jsonb value',
  },
  _delete_key: {
    type: 'delete_key',
    description:
      'delete key/value pair or string element. key/value pairs are matched based on their key value',
  },
  _delete_elem: {
    type: 'delete_elem',
    description:
      'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array',
  },
  _delete_at_path: {
    type: 'delete_at_path',
    description:
      'delete the field or element with specified path (for JSON arrays, negative integers count from the end)',
  },
} as const;
export type JsonbOperator = keyof typeof JSONB_OPERATORS;

export const TEXT_OPERATORS: Array<[string, string]> = [
  ['_like', 'does the column match the given pattern'],
  ['_nlike', 'does the column NOT match the given pattern'],
  ['_ilike', 'does the column match the given case-insensitive pattern'],
  ['_nilike', 'does the column NOT match the given case-insensitive pattern'],
  ['_similar', 'does the column match the given SQL regular expression'],
  ['_nsimilar', 'does the column NOT match the given SQL regular expression'],
  ['_regex', 'does the column match the given POSIX regular expression, case sensitive'],
  ['_iregex', 'does the column match the given POSIX regular expression, case insensitive'],
  ['_nregex', 'does the column NOT match the given POSIX regular expression, case sensitive'],
  ['_niregex', 'does the column NOT match the given POSIX regular expression, case insensitive'],
];

export const BUILT_IN_SCALARS: Record<string, GraphQLScalarType> = {
  Int: GraphQLInt,
  Float: GraphQLFloat,
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  ID: GraphQLID,
};

/** Postgres type names as `format_type` spells them (function arguments), to pg_type names. */
export const SQL_TYPE_NAMES: Record<string, string> = {
  integer: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  real: 'float4',
  'double precision': 'float8',
  boolean: 'bool',
  'character varying': 'varchar',
  character: 'bpchar',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time with time zone': 'timetz',
  'time without time zone': 'time',
};

export const nonNull = <T extends GraphQLType>(type: T) => new GraphQLNonNull(type);
export const listOf = <T extends GraphQLType>(type: T) => new GraphQLList(new GraphQLNonNull(type));

/** How Hasura quotes a table in descriptions: `"name"` in public, `"schema.name"` elsewhere. */
export function quotedTable(table: TableSchema): string {
  return `"${plainTable(table)}"`;
}
export function plainTable(table: TableSchema): string {
  return table.info.schema === 'public'
    ? table.info.name
    : `${table.info.schema}.${table.info.name}`;
}

export function columnDescription(table: TableSchema, column: ColumnField): string | undefined {
  return (
    table.metadata.configuration.column_config[column.column.name]?.comment ??
    column.column.description ??
    undefined
  );
}

/** Columns of `table` in database order, restricted to `allowed` (database names). */
export function columnsIn(table: TableSchema, allowed: Set<string>): ColumnField[] {
  return table.info.columns
    .filter((column) => allowed.has(column.name))
    .map((column) => table.columnsBySql.get(column.name)!);
}

/** Columns a mutation may write: permitted, not preset by the permission, not generated. */
export function writableColumns(
  table: TableSchema,
  permitted: Set<string>,
  presets: Presets,
): ColumnField[] {
  return columnsIn(table, permitted).filter(
    (field) => !presets.has(field.column.name) && !field.column.isGenerated,
  );
}

export const eligibleFor = (fn: AggregateFunction, column: ColumnField) =>
  fn === 'max' || fn === 'min'
    ? isComparableType(column.column.typeName, column.column.isArray)
    : isNumericType(column.column.typeName) && !column.column.isArray;

export const comparisonTypeName = (scalar: string) => `${scalar}_comparison_exp`;

export type SelectableTable = RoleTable & { select: NonNullable<RoleTable['select']> };

/** A computed field the role may use: a scalar, or rows of a table it may select. */
export type VisibleComputedField =
  | { field: ComputedField; scalar: string; target: undefined }
  | { field: ComputedField; scalar: undefined; target: SelectableTable };

export function columnEnumValues(columns: ColumnField[]): GraphQLEnumValueConfigMap {
  return Object.fromEntries(
    columns.map((column) => [column.name, { value: column.name, description: 'column name' }]),
  );
}

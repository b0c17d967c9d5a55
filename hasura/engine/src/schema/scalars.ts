import type { ColumnInfo } from '../catalog/model.ts';

/*
 * PostgreSQL types as Hasura v2 names them in GraphQL: the built-in GraphQL scalars for
 * integer, boolean, real and text-like types, and the Postgres type name for everything else
 * (`bigint`, `numeric`, `uuid`, `timestamptz`, `jsonb`; arrays as `_text`).
 */
const BUILT_IN: Record<string, string> = {
  int4: 'Int',
  bool: 'Boolean',
  float4: 'Float',
  text: 'String',
  varchar: 'String',
};
const RENAMED: Record<string, string> = {
  int2: 'smallint',
  int8: 'bigint',
  float8: 'float8',
};

export function scalarName(typeName: string): string {
  return BUILT_IN[typeName] ?? RENAMED[typeName] ?? typeName;
}

export const columnScalar = (column: ColumnInfo) => scalarName(column.typeName);

/** Types sent as JSON strings under HASURA_GRAPHQL_STRINGIFY_NUMERIC_TYPES, so they stay exact. */
const STRINGIFIED = new Set(['int8', 'numeric', 'float8', 'money']);
export const isStringifiedNumeric = (typeName: string) => STRINGIFIED.has(typeName);

/** Types whose values are JSON documents (sent as JSON, not text). */
export const isJsonType = (typeName: string) => typeName === 'json' || typeName === 'jsonb';

const NUMERIC_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'money']);
/** Types `sum` and `avg` aggregate over. */
export const isNumericType = (typeName: string) => NUMERIC_TYPES.has(typeName);

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);
/** Types with `_like`, `_ilike`, `_similar` and `_regex`. */
export const isTextType = (typeName: string) => TEXT_TYPES.has(typeName);

/** Types `min` and `max` aggregate over (anything ordered; not json, not booleans). */
export const isComparableType = (typeName: string, isArray: boolean) =>
  !isArray &&
  !isJsonType(typeName) &&
  typeName !== 'bool' &&
  typeName !== 'geography' &&
  typeName !== 'geometry';

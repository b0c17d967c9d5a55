import { Kind, type ValueNode } from 'graphql';

import type { ColumnInfo } from '../catalog/model.ts';
import { HasuraError } from '../errors.ts';
import { columnScalar, isJsonType } from '../schema/scalars.ts';


/**
 * A number written in the query text, kept as its exact digits: a `numeric` or `bigint`
 * literal must never pass through a JS float.
 */
export class NumberLiteral {
  constructor(readonly text: string) {}
  toJSON(): number {
    return Number(this.text);
  }
}

export type Variables = Record<string, unknown>;

/** Told where each variable is substituted (plan/variable-bindings.ts). */
export interface VariablePlacements {
  placedAt(name: string, path: string): void;
}

/**
 * Converts a GraphQL value from the document to a JS value, substituting variables. With
 * `trace`, each variable substituted is reported with the argument path it lands on
 * (`path.field`, `path[i]`), the paths the planner's errors use.
 */
export function valueFromAst(
  node: ValueNode,
  variables: Variables,
  trace?: { bindings: VariablePlacements; path: string },
): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      trace?.bindings.placedAt(node.name.value, trace.path);
      return variables[node.name.value];
    case Kind.INT:
    case Kind.FLOAT:
      return new NumberLiteral(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((item, i) =>
        valueFromAst(
          item,
          variables,
          trace && { bindings: trace.bindings, path: `${trace.path}[${i}]` },
        ),
      );
    case Kind.OBJECT: {
      const result: Record<string, unknown> = {};
      for (const field of node.fields) {
        const value = valueFromAst(
          field.value,
          variables,
          trace && { bindings: trace.bindings, path: `${trace.path}.${field.name.value}` },
        );
        // An absent variable leaves the field out, as if it were not written.
        if (value !== undefined) result[field.name.value] = value;
      }
      return result;
    }
  }
}

/** Replaces NumberLiterals by numbers, for values that are JSON documents. */
export function toPlainJson(value: unknown): unknown {
  if (value instanceof NumberLiteral) return Number(value.text);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlainJson(item)]));
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof NumberLiteral) return /[.eE]/.test(value.text) ? 'a float' : 'an integer';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  return `a ${typeof value}`;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** An `Int` argument (limit, offset): a non-negative 32-bit integer. */
export function coerceNonNegativeInt(value: unknown, path: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const number = value instanceof NumberLiteral ? Number(value.text) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > INT32_MAX) {
    throw new HasuraError(
      'validation-failed',
      `expected a non-negative 32-bit integer for type 'Int', but found ${describe(value)}`,
      path,
    );
  }
  return number;
}

/** A `Boolean` argument. */
export function coerceBoolean(value: unknown, path: string): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'boolean') {
    throw new HasuraError(
      'validation-failed',
      `expected a boolean for type 'Boolean', but found ${describe(value)}`,
      path,
    );
  }
  return value;
}

/**
 * Checks a value against a column's GraphQL scalar and returns what goes to Postgres as a
 * parameter: a string for most types, a JSON text for json/jsonb, an array for array types.
 */
/** A value that is not of the column's scalar (no closure: coercion runs for every value). */
function refuse(expected: string, scalar: string, value: unknown, path: string): never {
  throw new HasuraError(
    'validation-failed',
    `expected ${expected} for type '${scalar}', but found ${describe(value)}`,
    path,
  );
}

export function coerceColumnValue(value: unknown, column: ColumnInfo, path: string): unknown {
  if (value === null || value === undefined) return null;
  const scalar = columnScalar(column);
  if (isJsonType(column.typeName)) return JSON.stringify(toPlainJson(value));
  if (column.isArray) {
    if (Array.isArray(value))
      return value.map((item: unknown) => (item instanceof NumberLiteral ? item.text : item));
    if (typeof value === 'string') return value;
    return refuse('a list', scalar, value, path);
  }
  switch (scalar) {
    // Column values may also be written as strings ("42", "true"), as Hasura accepts them.
    case 'Int':
    case 'smallint': {
      const fromString =
        typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      const number = fromString instanceof NumberLiteral ? Number(fromString.text) : fromString;
      if (typeof number !== 'number' || !Number.isInteger(number))
        return refuse('a 32-bit integer', scalar, value, path);
      if (number < INT32_MIN || number > INT32_MAX)
        return refuse('a 32-bit integer', scalar, value, path);
      return String(number);
    }
    case 'Float':
      if (value instanceof NumberLiteral) return value.text;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        return value.trim();
      if (typeof value !== 'number') return refuse('a float', scalar, value, path);
      return String(value);
    case 'Boolean':
      if (value === 'true' || value === 'false') return value;
      if (typeof value !== 'boolean') return refuse('a boolean', scalar, value, path);
      return String(value);
    case 'String':
      if (typeof value !== 'string') return refuse('a string', scalar, value, path);
      return value;
    default:
      if (value instanceof NumberLiteral) return value.text;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (typeof value === 'string') return value;
      return refuse('a scalar', scalar, value, path);
  }
}

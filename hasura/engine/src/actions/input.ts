import { Kind, type ValueNode } from 'graphql';

import { HasuraError } from '../errors.ts';
import type { Variables } from '../plan/values.ts';

import { RawNumber, isJsonObject } from './json.ts';
import { BUILT_IN_SCALARS, type TypeCatalog, type TypeRef } from './types.ts';

/*
 * Checks an action's arguments against their declared types and turns them into the JSON
 * `input` of the handler payload, with Hasura's messages and paths
 * (`$.selectionSet.<field>.args.<arg>[0].<field>`). Omitted nullable fields stay omitted,
 * an explicit null is sent as null; a single value where a list is expected becomes a list
 * of one (GraphQL input coercion).
 */

/** Where a value comes from: the query text, or the variables (already JSON). */
type Source = { ast: ValueNode } | { json: unknown };

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;

function invalid(message: string, path: string): never {
  throw new HasuraError('validation-failed', message, path);
}

/** Hasura's description of a value in "expected ..., but found <it>". */
function describe(source: Source): string {
  if ('ast' in source) {
    switch (source.ast.kind) {
      case Kind.INT:
        return 'an integer';
      case Kind.FLOAT:
        return 'a float';
      case Kind.STRING:
        return 'a string';
      case Kind.BOOLEAN:
        return 'a boolean';
      case Kind.NULL:
        return 'null';
      case Kind.ENUM:
        return 'an enum value';
      case Kind.LIST:
        return 'a list';
      case Kind.OBJECT:
        return 'an object';
      case Kind.VARIABLE:
        return 'a variable';
    }
  }
  const value = source.json;
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a float';
  return `a ${typeof value}`;
}

function typeMismatch(typeName: string, expected: string, source: Source, path: string): never {
  return invalid(
    `expected ${expected} for type '${typeName}', but found ${describe(source)}`,
    path,
  );
}

/** How Haskell's Scientific prints a number, for Hasura's out-of-bounds message. */
function scientificText(value: number): string {
  if (value === 0) return '0.0';
  const magnitude = Math.abs(value);
  if (magnitude >= 0.1 && magnitude < 1e7)
    return Number.isInteger(value) ? `${value}.0` : String(value);
  const [mantissa = '0', exponent = '0'] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${exponent.replace('+', '')}`;
}

function outOfBounds(value: number, path: string): never {
  throw new HasuraError(
    'parse-failed',
    `The value ${scientificText(value)} lies outside the bounds or is not an integer. Maybe it is a float, or is there integer overflow?`,
    path,
  );
}

/** A variable reference is replaced by its value; an absent variable is `undefined`. */
function resolve(source: Source, variables: Variables): Source | undefined {
  if ('ast' in source && source.ast.kind === Kind.VARIABLE) {
    const value = variables[source.ast.name.value];
    return value === undefined ? undefined : { json: value };
  }
  return source;
}

const isNull = (source: Source) =>
  'ast' in source ? source.ast.kind === Kind.NULL : source.json === null;

/** A GraphQL value as JSON, for custom and Postgres scalars (numbers keep their digits). */
function toJson(source: Source, variables: Variables): unknown {
  if (!('ast' in source)) return source.json;
  const node = source.ast;
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value] ?? null;
    case Kind.INT:
    case Kind.FLOAT:
      return new RawNumber(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((item) => toJson({ ast: item }, variables));
    case Kind.OBJECT: {
      const result: Record<string, unknown> = {};
      for (const field of node.fields) {
        if (field.value.kind === Kind.VARIABLE && variables[field.value.name.value] === undefined)
          continue;
        result[field.name.value] = toJson({ ast: field.value }, variables);
      }
      return result;
    }
  }
}

function nullError(type: TypeRef, catalog: TypeCatalog, path: string): never {
  if (type.kind === 'list') return invalid('expected a list, but found null', path);
  const { name } = type;
  const source: Source = { json: null };
  if (BUILT_IN_SCALARS.has(name))
    return typeMismatch(name, SCALAR_EXPECTATIONS[name] ?? 'a value', source, path);
  if (catalog.enums.has(name)) return typeMismatch(name, 'an enum value', source, path);
  if (catalog.inputObjects.has(name)) return typeMismatch(name, 'an object', source, path);
  return invalid(`unexpected null value for type '${name}'`, path);
}

const SCALAR_EXPECTATIONS: Record<string, string> = {
  Int: 'a 32-bit integer',
  Float: 'a float',
  String: 'a string',
  Boolean: 'a boolean',
  ID: 'a String or a 32-bit integer',
};

function coerceBuiltIn(name: string, source: Source, path: string): unknown {
  const mismatch = () => typeMismatch(name, SCALAR_EXPECTATIONS[name]!, source, path);
  const ast = 'ast' in source ? source.ast : undefined;
  const json = 'json' in source ? source.json : undefined;
  switch (name) {
    case 'Int': {
      if (ast?.kind === Kind.INT) {
        const value = BigInt(ast.value);
        if (value < INT32_MIN || value > INT32_MAX) return outOfBounds(Number(ast.value), path);
        return Number(value);
      }
      if (typeof json === 'number') {
        if (!Number.isInteger(json) || BigInt(json) < INT32_MIN || BigInt(json) > INT32_MAX)
          return outOfBounds(json, path);
        return json;
      }
      return mismatch();
    }
    case 'Float':
      if (ast?.kind === Kind.INT || ast?.kind === Kind.FLOAT) return Number(ast.value);
      if (typeof json === 'number') return json;
      return mismatch();
    case 'String':
      if (ast?.kind === Kind.STRING) return ast.value;
      if (typeof json === 'string') return json;
      return mismatch();
    case 'Boolean':
      if (ast?.kind === Kind.BOOLEAN) return ast.value;
      if (typeof json === 'boolean') return json;
      return mismatch();
    default: {
      // ID: a string, or an integer sent as its digits.
      if (ast?.kind === Kind.STRING) return ast.value;
      if (ast?.kind === Kind.INT) return BigInt(ast.value).toString();
      if (typeof json === 'string') return json;
      if (typeof json === 'number') {
        if (!Number.isSafeInteger(json)) return outOfBounds(json, path);
        return String(json);
      }
      return mismatch();
    }
  }
}

function coerceEnum(name: string, values: string[], source: Source, path: string): string {
  let text: string | undefined;
  if ('ast' in source) text = source.ast.kind === Kind.ENUM ? source.ast.value : undefined;
  else if (typeof source.json === 'string') text = source.json;
  if (text === undefined) return typeMismatch(name, 'an enum value', source, path);
  if (!values.includes(text)) {
    return invalid(
      `expected one of the values ${values.join(', ')} for type '${name}', but found ${JSON.stringify(text)}`,
      path,
    );
  }
  return text;
}

function coerceInputObject(
  name: string,
  source: Source,
  catalog: TypeCatalog,
  variables: Variables,
  path: string,
): Record<string, unknown> {
  const type = catalog.inputObjects.get(name)!;
  const provided = new Map<string, Source>();
  if ('ast' in source && source.ast.kind === Kind.OBJECT) {
    for (const field of source.ast.fields) provided.set(field.name.value, { ast: field.value });
  } else if ('json' in source && isJsonObject(source.json)) {
    for (const [key, value] of Object.entries(source.json)) provided.set(key, { json: value });
  } else {
    return typeMismatch(name, 'an object', source, path);
  }
  for (const key of provided.keys()) {
    if (!type.byName.has(key))
      invalid(`field '${key}' not found in type: '${name}'`, `${path}.${key}`);
  }
  return coerceFields(type.fields, provided, catalog, variables, path);
}

/**
 * Fields (or arguments) in definition order: present ones coerced, absent nullable ones left
 * out, absent required ones refused. A variable with no value counts as absent.
 */
export function coerceFields(
  definitions: ReadonlyArray<{ name: string; type: TypeRef }>,
  provided: ReadonlyMap<string, Source>,
  catalog: TypeCatalog,
  variables: Variables,
  path: string,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const definition of definitions) {
    const fieldPath = `${path}.${definition.name}`;
    const given = provided.get(definition.name);
    const source = given && resolve(given, variables);
    if (!source) {
      if (definition.type.nonNull)
        invalid(`missing required field '${definition.name}'`, fieldPath);
      continue;
    }
    result[definition.name] = coerceValue(source, definition.type, catalog, variables, fieldPath);
  }
  return result;
}

/** Checks one value against its type; returns it as the handler receives it. */
export function coerceValue(
  given: Source,
  type: TypeRef,
  catalog: TypeCatalog,
  variables: Variables,
  path: string,
): unknown {
  const source = resolve(given, variables) ?? { json: null };
  if (isNull(source)) {
    if (type.nonNull) nullError(type, catalog, path);
    return null;
  }
  if (type.kind === 'list') {
    const items =
      'ast' in source && source.ast.kind === Kind.LIST
        ? source.ast.values.map((node): Source => ({ ast: node }))
        : 'json' in source && Array.isArray(source.json)
          ? source.json.map((value): Source => ({ json: value }))
          : undefined;
    if (!items) return [coerceValue(source, type.of, catalog, variables, `${path}[0]`)];
    return items.map((item, i) => coerceValue(item, type.of, catalog, variables, `${path}[${i}]`));
  }
  const { name } = type;
  if (BUILT_IN_SCALARS.has(name)) return coerceBuiltIn(name, source, path);
  const enumValues = catalog.enums.get(name);
  if (enumValues) return coerceEnum(name, enumValues, source, path);
  if (catalog.inputObjects.has(name))
    return coerceInputObject(name, source, catalog, variables, path);
  // Custom scalars and Postgres scalars (json, uuid, numeric, ...) carry any JSON value.
  return toJson(source, variables);
}

export type { Source as InputSource };

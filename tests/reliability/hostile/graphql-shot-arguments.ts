import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';

import {
  hostileNumeric,
  hostileString,
  hostileUuid,
  nastyString,
  SQL_INJECTIONS,
} from './values.ts';
import { chance, pick, type Gen } from './graphql-shot-kit.ts';

/*
 * Arguments, values and selections generated from a role's introspected schema, so that hostile
 * requests reach deep into the planner. Mutations get arguments that can never write
 * (`neverWrites`).
 */

/** An enum value, printed bare in a literal and as a string in variables. */
class EnumValue {
  constructor(readonly name: string) {}
  toJSON(): string {
    return this.name;
  }
}

export const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
export const unknownName = fc
  .stringMatching(/^[_a-z][_0-9a-zA-Z]{0,14}$/)
  .map((name) => `zz${name}`);

/** A value as a GraphQL literal (strings as JSON strings, which GraphQL reads the same way). */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof EnumValue)
    return NAME.test(value.name) ? value.name : JSON.stringify(value.name);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${NAME.test(key) ? key : 'zz_bad_key'}: ${literal(item)}`)
    .join(', ')}}`;
}

const TIMES = [
  'infinity',
  '-infinity',
  'epoch',
  'now',
  'allballs',
  '99999-12-31',
  '0000-00-00',
  '2024-13-45T25:61:61Z',
  '1970-01-01T00:00:00Z',
  '294277-01-01',
  '-4713-11-24',
  'yesterday',
  '2024-02-30',
];

/** A hostile value for a scalar of the schema (sometimes of the wrong JSON type). */
function scalarValue(g: Gen, name: string): unknown {
  if (chance(g, 6))
    return pick(g, [{}, [], { a: 1 }, [1, 2], true, 1.5, -1, '', null, 'x'.repeat(300)]);
  switch (name) {
    case 'String':
      return chance(g, 15)
        ? pick(g, ['BTC', 'USDTTRC20', 'user@example.com', 'en', 'send', 'receive', 'asc'])
        : g(hostileString, 3_000);
    case 'Int':
      return pick(g, [0, 1, -1, 20, 2_147_483_647, 2_147_483_648, -2_147_483_649, 1e15, 3.5]);
    case 'Float':
      return g(fc.double, { noNaN: true, noDefaultInfinity: true });
    case 'Boolean':
      return pick(g, [true, false, 'true', 0, 1]);
    case 'uuid':
      return chance(g, 50) ? g(fc.uuid) : g(() => hostileUuid);
    case 'numeric':
    case 'bigint':
    case 'float8':
      return chance(g, 80) ? g(() => hostileNumeric) : g(fc.integer);
    case 'timestamptz':
    case 'timestamp':
    case 'date':
    case 'time':
    case 'timetz':
      return chance(g, 80) ? pick(g, TIMES) : g(() => hostileString(200));
    case 'json':
    case 'jsonb':
      return g(fc.jsonValue, { maxDepth: 3 });
    default:
      return g(() => hostileString(500));
  }
}

export interface ValueOptions {
  /** How deep input objects may nest (bool_exp within bool_exp). */
  depth: number;
  /** Longest list generated. */
  maxList: number;
}

/** A value of an input type: mostly well-typed, with hostile leaves and some wrong shapes. */
function inputValue(g: Gen, type: GraphQLInputType, options: ValueOptions, depth = 0): unknown {
  if (isNonNullType(type)) {
    if (chance(g, 3)) return null;
    return inputValue(g, type.ofType, options, depth);
  }
  if (isListType(type)) {
    const length = chance(g, 5)
      ? g(fc.integer, { min: 0, max: options.maxList })
      : g(fc.integer, { min: 0, max: 3 });
    return Array.from({ length }, () => inputValue(g, type.ofType, options, depth + 1));
  }
  if (isEnumType(type)) {
    const values = type.getValues().map((value) => value.name);
    if (values.length > 0 && chance(g, 80)) return new EnumValue(pick(g, values));
    return new EnumValue(
      chance(g, 50) ? pick(g, SQL_INJECTIONS) : `${pick(g, values.length ? values : ['x'])}_x`,
    );
  }
  if (isScalarType(type)) return scalarValue(g, type.name);
  if (isInputObjectType(type)) {
    if (depth >= options.depth) return {};
    const fields = Object.values(type.getFields());
    const value: Record<string, unknown> = {};
    const count = g(fc.integer, { min: 0, max: Math.min(3, fields.length) });
    for (let i = 0; i < count; i += 1) {
      const field = pick(g, fields);
      value[field.name] = inputValue(g, field.type, options, depth + 1);
    }
    // Required fields are usually there, so the request gets past the first check.
    for (const field of fields) {
      if (isNonNullType(field.type) && !(field.name in value) && chance(g, 85))
        value[field.name] = inputValue(g, field.type, options, depth + 1);
    }
    if (chance(g, 4)) value[g(() => unknownName)] = g(() => nastyString);
    return value;
  }
  return null;
}

export interface Arguments {
  text: string;
  variables: Record<string, unknown>;
  definitions: string[];
}

/** Arguments for a field, each a literal or a variable (sometimes declared with a wrong type). */
export function fieldArguments(
  g: Gen,
  field: GraphQLField<unknown, unknown>,
  counter: { next: number },
  options: ValueOptions,
  override: (name: string, value: unknown) => unknown = (_name, value) => value,
): Arguments {
  const result: Arguments = { text: '', variables: {}, definitions: [] };
  const parts: string[] = [];
  for (const arg of field.args) {
    const required = isNonNullType(arg.type);
    if (!required && !chance(g, 45)) continue;
    if (required && chance(g, 2)) continue;
    const value = override(arg.name, inputValue(g, arg.type, options));
    if (chance(g, 40)) {
      const name = `v${counter.next++}`;
      const declared = chance(g, 8)
        ? pick(g, ['Int', 'String!', '[uuid]', 'NoSuchType', 'Boolean!', `${String(arg.type)}!`])
        : String(arg.type);
      result.definitions.push(`$${name}: ${declared}`);
      result.variables[name] = value;
      parts.push(`${arg.name}: $${name}`);
    } else parts.push(`${arg.name}: ${literal(value)}`);
  }
  if (chance(g, 3)) parts.push(`${g(() => unknownName)}: ${literal(g(() => nastyString))}`);
  result.text = parts.length > 0 ? `(${parts.join(', ')})` : '';
  return result;
}

/** A selection set on an object type, `depth` levels of relationships at most. */
export function selectionSet(
  g: Gen,
  type: GraphQLObjectType,
  depth: number,
  counter: { next: number },
  collected: Arguments[],
  options: ValueOptions,
): string {
  const fields = Object.values(type.getFields());
  const parts: string[] = [];
  const count = g(fc.integer, { min: 1, max: Math.min(4, fields.length) });
  for (let i = 0; i < count; i += 1) {
    const field = pick(g, fields);
    const named = getNamedType(field.type);
    const args =
      field.args.length > 0 && (field.args.some((arg) => isNonNullType(arg.type)) || chance(g, 30))
        ? fieldArguments(g, field, counter, options)
        : undefined;
    if (args) collected.push(args);
    const alias = chance(g, 15) ? `a${counter.next++}: ` : '';
    if (isObjectType(named)) {
      if (depth <= 0) continue;
      parts.push(
        `${alias}${field.name}${args?.text ?? ''} { ${selectionSet(g, named, depth - 1, counter, collected, options)} }`,
      );
    } else parts.push(`${alias}${field.name}${args?.text ?? ''}`);
  }
  if (chance(g, 5)) parts.push(g(() => unknownName));
  return parts.length > 0 ? parts.join(' ') : '__typename';
}

/** Mutation fields of the actions service (generated by `actionShot`, with no-write inputs). */
/** A root field's `order_by` type (its name, `x` when it has none) and the columns it offers. */
export function orderByOf(
  field: GraphQLField<unknown, unknown>,
  fallbackKey: string,
): { typeName: string; keys: string[] } {
  const orderBy = field.args.find((arg) => arg.name === 'order_by');
  const orderType = orderBy ? getNamedType(orderBy.type) : undefined;
  return {
    typeName: orderType?.name ?? 'x',
    keys:
      orderType && isInputObjectType(orderType)
        ? Object.keys(orderType.getFields())
        : [fallbackKey],
  };
}

export const isTableMutation = (name: string) => /^(insert|update|delete)_/.test(name);

/**
 * Makes a generated table mutation unable to write: updates and deletes get a `where` that
 * is false whatever else it says, `_by_pk` fields a key no row has, inserts a last object
 * that breaks a NOT NULL column (the statement, hence the transaction, fails as a whole), and
 * single inserts an unknown column.
 */
export function neverWrites(fieldName: string, argName: string, value: unknown, g: Gen): unknown {
  const impossible = { _not: {} };
  if (argName === 'where') return { _and: [value ?? {}, impossible] };
  if (argName === 'updates' && Array.isArray(value))
    return (value as unknown[]).map((update): unknown =>
      update && typeof update === 'object' && !Array.isArray(update)
        ? {
            ...update,
            where: { _and: [(update as { where?: unknown }).where ?? {}, impossible] },
          }
        : update,
    );
  if (argName === 'objects')
    return [...(Array.isArray(value) ? (value as unknown[]) : [value]), {}];
  if (argName === 'object')
    return { ...(value && typeof value === 'object' ? value : {}), zz_no_such_column: 1 };
  // A key no row has, of the type the generated one had (a uuid, a text, a number).
  const absentKey = (key: unknown): unknown =>
    typeof key === 'string'
      ? /^[0-9a-f-]{36}$/i.test(key)
        ? g(fc.uuid)
        : `zz-fuzz-${g(fc.nat)}`
      : typeof key === 'number'
        ? -1 - g(fc.nat)
        : key;
  if (argName === 'pk_columns' && value && typeof value === 'object' && !Array.isArray(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, absentKey(item)]));
  if (fieldName.startsWith('delete_') && fieldName.endsWith('_by_pk')) return absentKey(value);
  return value;
}

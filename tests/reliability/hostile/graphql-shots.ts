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
  type GraphQLSchema,
} from 'graphql';

import {
  hostileNumeric,
  hostileString,
  hostileUuid,
  longString,
  nastyString,
  PATTERNS,
  SQL_INJECTIONS,
} from './values.ts';

/*
 * Hostile GraphQL requests, generated from each role's own schema (introspected from the
 * running engine), so that they reach deep into the planner and the database rather than
 * stopping at the first unknown name. Every kind the issue lists has its generator;
 * `graphqlShot` composes them. Mutations are generated so that they can never write (see `neverWrites`):
 * the "nothing written" comparison then needs no exceptions.
 */

export const ROLES = ['anonymous', 'user', 'manager', 'administrator'] as const;
export type Role = (typeof ROLES)[number];

export interface Shot {
  kind: string;
  role: Role;
  method: string;
  path: string;
  /** Request headers besides the role's credentials (which `credentials: false` leaves out). */
  headers: Record<string, string>;
  credentials: boolean;
  body: string | Uint8Array | undefined;
}

/** Bodies can be a megabyte: failures print a shortened shot. */
function withShortPrint(shot: Shot): Shot {
  Object.defineProperty(shot, fc.toStringMethod, {
    enumerable: false,
    value: () => {
      const body =
        shot.body === undefined
          ? ''
          : typeof shot.body === 'string'
            ? shot.body
            : Buffer.from(shot.body).toString('latin1');
      const shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body;
      return `${shot.kind} as ${shot.role}: ${shot.method} ${shot.path} ${JSON.stringify(shot.headers)} ${JSON.stringify(shown)}`;
    },
  });
  return shot;
}

const JSON_TYPE = { 'content-type': 'application/json' };

const post = (kind: string, role: Role, body: string | Uint8Array, headers = JSON_TYPE): Shot =>
  withShortPrint({
    kind,
    role,
    method: 'POST',
    path: '/v1/graphql',
    headers,
    credentials: true,
    body,
  });

const request = (
  query: string,
  variables?: Record<string, unknown>,
  operationName?: string,
): string =>
  JSON.stringify({
    query,
    ...(variables && Object.keys(variables).length > 0 ? { variables } : {}),
    ...(operationName !== undefined ? { operationName } : {}),
  });

type Gen = fc.GeneratorValue;
const pick = <T>(g: Gen, items: readonly T[]): T => g(() => fc.constantFrom(...items));
const chance = (g: Gen, percent: number): boolean => g(fc.integer, { min: 1, max: 100 }) <= percent;

/** An enum value, printed bare in a literal and as a string in variables. */
class EnumValue {
  constructor(readonly name: string) {}
  toJSON(): string {
    return this.name;
  }
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const unknownName = fc.stringMatching(/^[_a-z][_0-9a-zA-Z]{0,14}$/).map((name) => `zz${name}`);

/** A value as a GraphQL literal (strings as JSON strings, which GraphQL reads the same way). */
function literal(value: unknown): string {
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

interface ValueOptions {
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

interface Arguments {
  text: string;
  variables: Record<string, unknown>;
  definitions: string[];
}

/** Arguments for a field, each a literal or a variable (sometimes declared with a wrong type). */
function fieldArguments(
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
function selectionSet(
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
function orderByOf(
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

const isTableMutation = (name: string) => /^(insert|update|delete)_/.test(name);

/**
 * Makes a generated table mutation unable to write: updates and deletes get a `where` that
 * is false whatever else it says, `_by_pk` fields a key no row has, inserts a last object
 * that breaks a NOT NULL column (the statement, hence the transaction, fails as a whole), and
 * single inserts an unknown column.
 */
function neverWrites(fieldName: string, argName: string, value: unknown, g: Gen): unknown {
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

export interface ShotContext {
  schemas: Record<Role, GraphQLSchema>;
  /** The actions' field names (hasura/metadata/actions.yaml). */
  actions: ReadonlySet<string>;
  /** E-mail addresses of accounts that exist (grantManagerRole must never name one). */
  existingEmails: string[];
}

/** A request built from the role's schema: random fields, arguments, depth and aliases. */
function schemaShot(context: ShotContext, kind = 'schema', valueDepth = 4) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const schema = context.schemas[role];
    const roots = [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
      ['subscription', schema.getSubscriptionType()],
    ].filter((entry): entry is ['query' | 'mutation' | 'subscription', GraphQLObjectType] =>
      Boolean(entry[1]),
    );
    const weights = { query: 70, mutation: 25, subscription: 5 };
    const [operation, root] = g(() =>
      fc.oneof(
        ...roots.map((entry) => ({ weight: weights[entry[0]], arbitrary: fc.constant(entry) })),
      ),
    );
    const counter = { next: 0 };
    const collected: Arguments[] = [];
    const options: ValueOptions = { depth: valueDepth, maxList: 60 };
    const fields = Object.values(root.getFields()).filter(
      (field) => operation !== 'mutation' || isTableMutation(field.name),
    );
    if (fields.length === 0) return post(kind, role, request('{ __typename }'));
    const parts: string[] = [];
    const count = g(fc.integer, { min: 1, max: 3 });
    for (let i = 0; i < count; i += 1) {
      const field = pick(g, fields);
      const args = fieldArguments(g, field, counter, options, (name, value) =>
        operation === 'mutation' ? neverWrites(field.name, name, value, g) : value,
      );
      collected.push(args);
      const named = getNamedType(field.type);
      const alias = count > 1 ? `r${i}: ` : '';
      parts.push(
        isObjectType(named)
          ? `${alias}${field.name}${args.text} { ${selectionSet(g, named, g(fc.integer, { min: 0, max: 4 }), counter, collected, options)} }`
          : `${alias}${field.name}${args.text}`,
      );
    }
    const definitions = collected.flatMap((args) => args.definitions);
    const variables = Object.assign({}, ...collected.map((args) => args.variables)) as Record<
      string,
      unknown
    >;
    const head = definitions.length > 0 ? `${operation} (${definitions.join(', ')})` : operation;
    return post(kind, role, request(`${head} { ${parts.join(' ')} }`, variables));
  });
}

/** Relationships many levels deep, in the selection and in `where`. */
function deepNestingShot(context: ShotContext) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const schema = context.schemas[role];
    const root = schema.getQueryType()!;
    const tables = Object.values(root.getFields()).filter((field) =>
      isObjectType(getNamedType(field.type)),
    );
    const start = pick(g, tables);
    const depth = g(fc.integer, { min: 5, max: 60 });
    if (chance(g, 50)) {
      let type = getNamedType(start.type) as GraphQLObjectType;
      const path: string[] = [];
      for (let level = 0; level < depth; level += 1) {
        const next = Object.values(type.getFields()).filter((field) =>
          isObjectType(getNamedType(field.type)),
        );
        if (next.length === 0) break;
        const field = pick(g, next);
        path.push(field.name);
        type = getNamedType(field.type) as GraphQLObjectType;
      }
      const query = `{ ${start.name} { ${path.map((name) => `${name} {`).join(' ')} __typename ${'}'.repeat(path.length)} } }`;
      return post('deep-nesting', role, request(query));
    }
    // `where` through relationships (or _not/_and/_or) as deep as `depth`.
    const whereArg = start.args.find((arg) => arg.name === 'where');
    if (!whereArg) return post('deep-nesting', role, request(`{ ${start.name} { __typename } }`));
    let type = getNamedType(whereArg.type);
    const opens: string[] = [];
    for (let level = 0; level < depth && isInputObjectType(type); level += 1) {
      const fields = type.getFields();
      const relationships = Object.values(fields).filter(
        (field) =>
          isInputObjectType(getNamedType(field.type)) &&
          getNamedType(field.type).name.endsWith('_bool_exp'),
      );
      const step =
        chance(g, 30) || relationships.length === 0 ? pick(g, ['_not', '_and', '_or']) : undefined;
      if (step === '_not') opens.push('_not: {');
      else if (step) opens.push(`${step}: [{`);
      else {
        const field = pick(g, relationships);
        opens.push(`${field.name}: {`);
        type = getNamedType(field.type);
      }
    }
    const closes = opens
      .map((open) => (open.endsWith('[{') ? '}]' : '}'))
      .reverse()
      .join('');
    const where = `{${opens.join(' ')} _not: {} ${closes}}`;
    if (chance(g, 50))
      return post(
        'deep-nesting',
        role,
        request(`{ ${start.name}(where: ${where}) { __typename } }`),
      );
    // The same in a variable (JSON), where the GraphQL parser's own limits do not apply.
    const json = where.replace(/([_a-zA-Z][_a-zA-Z0-9]*):/g, '"$1":').replace(/\s+/g, '');
    return post(
      'deep-nesting',
      role,
      `{"query":"query ($w: ${getNamedType(whereArg.type).name}) { ${start.name}(where: $w) { __typename } }","variables":{"w":${json}}}`,
    );
  });
}

/** Thousands of aliases of one field. */
function aliasBombShot(context: ShotContext) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const root = context.schemas[role].getQueryType()!;
    const count = g(fc.integer, { min: 100, max: 12_000 });
    const tables = Object.values(root.getFields()).filter(
      (field) =>
        isObjectType(getNamedType(field.type)) &&
        !field.args.some((arg) => isNonNullType(arg.type)),
    );
    const field =
      chance(g, 50) || tables.length === 0
        ? '__typename'
        : `${pick(g, tables).name}(limit: 1) { __typename }`;
    const body = Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ');
    return post('alias-bomb', role, request(`{ ${body} }`));
  });
}

/** Fragments that spread each other: exponentially, in cycles, unknown, on wrong types. */
const fragmentBombShot = fc.gen().map((g) => {
  const role = pick(g, ROLES);
  const variant = g(fc.integer, { min: 0, max: 5 });
  const n = g(fc.integer, { min: 2, max: 40 });
  let query: string;
  switch (variant) {
    case 0: // each fragment spreads the next twice: 2^n fields once expanded
      query = `query { ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on query_root { ...F${i + 1} ...F${i + 1} __typename }`).join(' ')} fragment F${n} on query_root { __typename }`;
      break;
    case 1: // a cycle of n fragments
      query = `query { ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on query_root { __typename ...F${(i + 1) % n} }`).join(' ')}`;
      break;
    case 2: // a fragment spreading itself, inside a field
      query = `query { ...F } fragment F on query_root { __typename a: __typename ...F }`;
      break;
    case 3: // unknown fragments and types
      query = `query { ...Missing ... on no_such_type { x } } fragment F on no_such_type { x }`;
      break;
    case 4: // inline fragments nested deep
      query = `query { ${'... on query_root { '.repeat(n * 50)}__typename${' }'.repeat(n * 50)} }`;
      break;
    default: // many unused fragment definitions
      query = `query { __typename } ${Array.from({ length: n * 200 }, (_, i) => `fragment U${i} on query_root { __typename }`).join(' ')}`;
  }
  return post('fragment-bomb', role, request(query));
});

/** Huge lists: `_in` inline and in variables, insert `objects`, order_by and distinct_on. */
function hugeListShot(context: ShotContext) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const schema = context.schemas[role];
    const root = schema.getQueryType()!;
    const table = pick(
      g,
      Object.values(root.getFields()).filter((field) =>
        field.args.some((arg) => arg.name === 'where'),
      ),
    );
    const whereType = getNamedType(table.args.find((arg) => arg.name === 'where')!.type);
    const column = isInputObjectType(whereType)
      ? pick(
          g,
          Object.values(whereType.getFields()).filter((field) =>
            getNamedType(field.type).name.endsWith('_comparison_exp'),
          ),
        )
      : undefined;
    const count = g(fc.integer, { min: 1_000, max: 80_000 });
    const variant = g(fc.integer, { min: 0, max: 4 });
    const element = (i: number) => (chance(g, 50) ? `v${i}` : i);
    if (variant === 0 && column) {
      const list = Array.from({ length: Math.min(count, 30_000) }, (_, i) => element(i));
      return post(
        'huge-list',
        role,
        request(
          `{ ${table.name}(where: {${column.name}: {_in: ${literal(list)}}}) { __typename } }`,
        ),
      );
    }
    if (variant === 1 && column) {
      const list = Array.from({ length: count }, (_, i) => element(i));
      const type = getNamedType(column.type);
      const inType = isInputObjectType(type)
        ? String(type.getFields()['_in']?.type ?? '[String!]')
        : '[String!]';
      return post(
        'huge-list',
        role,
        request(
          `query ($l: ${inType}) { ${table.name}(where: {${column.name}: {_nin: $l}}) { __typename } }`,
          {
            l: list,
          },
        ),
      );
    }
    if (variant === 2) {
      const { typeName: orderTypeName, keys } = orderByOf(table, 'id');
      const list = Array.from({ length: Math.min(count, 20_000) }, (_, i) => ({
        [keys[i % keys.length]!]: pick(g, ['asc', 'desc_nulls_last', 'asc; DROP TABLE rates']),
      }));
      return post(
        'huge-list',
        role,
        request(
          `query ($o: [${orderTypeName}!]) { ${table.name}(order_by: $o, limit: 1) { __typename } }`,
          {
            o: list,
          },
        ),
      );
    }
    if (variant === 3) {
      // Inserts of many rows, for the roles that may insert; the last row always fails.
      const mutation = context.schemas[role].getMutationType();
      const inserts = Object.values(mutation?.getFields() ?? {}).filter(
        (field) => field.name.startsWith('insert_') && !field.name.endsWith('_one'),
      );
      if (inserts.length > 0) {
        const insert = pick(g, inserts);
        const objectsType = String(insert.args.find((arg) => arg.name === 'objects')!.type);
        const objects = Array.from({ length: Math.min(count, 60_000) }, () =>
          chance(g, 10) ? { zz: 1 } : {},
        );
        objects.push({});
        return post(
          'huge-list',
          role,
          request(
            `mutation ($o: ${objectsType}) { ${insert.name}(objects: $o) { affected_rows } }`,
            {
              o: objects,
            },
          ),
        );
      }
    }
    // Long lists in arguments that are lists of enums.
    const distinct = table.args.find((arg) => arg.name === 'distinct_on');
    return post(
      'huge-list',
      role,
      request(
        `query ($d: ${distinct ? String(distinct.type) : '[String!]'}) { ${table.name}(distinct_on: $d, limit: 1) { __typename } }`,
        {
          d: Array.from({ length: Math.min(count, 40_000) }, (_, i) =>
            chance(g, 90) ? 'x' : `c${i}`,
          ),
        },
      ),
    );
  });
}

/** Unknown fields, types, arguments, directives, operations. */
function unknownShot(context: ShotContext) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const root = context.schemas[role].getQueryType()!;
    const table = pick(g, Object.values(root.getFields()));
    const name = g(() => unknownName);
    const queries = [
      `{ ${name} }`,
      `{ ${table.name} { ${name} } }`,
      `{ ${table.name}(${name}: 1) { __typename } }`,
      `query ($x: ${name}) { __typename }`,
      `query ($x: String) { __typename }`,
      `query { __typename @${name} }`,
      `query @${name} { __typename }`,
      `query @skip(if: true) { __typename }`,
      `query { __typename @include }`,
      `query { __typename @skip(if: "yes") }`,
      `query { __typename @skip(if: true) @skip(if: false) }`,
      `{ __typename } { __typename }`,
      `query A { __typename } query A { __typename }`,
      `fragment F on query_root { __typename }`,
      `subscription { __typename }`,
      `mutation { __typename }`,
      `{ __schema { ${name} } }`,
      `{ __type(name: ${JSON.stringify(name)}) { name fields { name } } }`,
      `{ __type { name } }`,
      `{ ${table.name}: __typename ${table.name} { __typename } }`,
      `{ a: ${table.name}(limit: 1) { __typename } a: __typename }`,
      `query ($v: [[[[[[String]]]]]]) { __typename }`,
      `query ($v: String = 1) { __typename }`,
      `query ($v: String!, $v: Int) { __typename }`,
      `{ ${table.name}(limit: $undeclared) { __typename } }`,
      `{ ... on mutation_root { __typename } }`,
      `{ __typename(${name}: 1) }`,
      `{ __typename { ${name} } }`,
    ];
    const operationName = chance(g, 20) ? g(() => hostileString(200)) : undefined;
    return post('unknown', role, request(pick(g, queries), undefined, operationName));
  });
}

/** Variables of the wrong JSON type for their declaration, and variables that are not an object. */
function wrongVariablesShot(context: ShotContext) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const root = context.schemas[role].getQueryType()!;
    const withArgs = Object.values(root.getFields()).filter((field) => field.args.length > 0);
    const field = pick(g, withArgs);
    const arg = pick(g, field.args);
    const wrong = g(() =>
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constant(null),
        fc.constantFrom<unknown>('1', 1, true, [], {}, [[]], 1e308, -0, 'NaN'),
      ),
    );
    const named = getNamedType(field.type);
    const selection = isObjectType(named) ? ' { __typename }' : '';
    const query = `query ($x: ${String(arg.type)}) { ${field.name}(${arg.name}: $x)${selection} }`;
    const variant = g(fc.integer, { min: 0, max: 3 });
    if (variant === 0) return post('wrong-variables', role, request(query, { x: wrong }));
    if (variant === 1)
      return post('wrong-variables', role, JSON.stringify({ query, variables: wrong }));
    if (variant === 2)
      return post(
        'wrong-variables',
        role,
        JSON.stringify({
          query,
          variables: { x: wrong },
          operationName: g(fc.jsonValue, { maxDepth: 1 }),
        }),
      );
    return post(
      'wrong-variables',
      role,
      JSON.stringify({ query: g(fc.jsonValue, { maxDepth: 2 }), variables: { x: wrong } }),
    );
  });
}

/** Bodies that are not JSON, or JSON that is not a request. */
const malformedJsonShot = fc.gen().map((g) => {
  const role = pick(g, ROLES);
  const valid = request('{ __typename }');
  const bodies = [
    '',
    ' ',
    '{',
    '}',
    '[',
    '[{',
    'null',
    'true',
    '0',
    '"query"',
    '[]',
    '[[]]',
    '[null]',
    '{}',
    '{"query": null}',
    '{"query": 1}',
    '{"query": ["{ __typename }"]}',
    '{"query": {"a": 1}}',
    "{'query': '{ __typename }'}",
    '{"query": "{ __typename }",}',
    '{"query": "{ __typename }"} {"query": "{ __typename }"}',
    `${valid}garbage`,
    `${valid.slice(0, -1)}`,
    '{"query": "{ __typename }" /* comment */}',
    '{"query": "{ __typename }", "variables": NaN}',
    '{"query": "{ __typename }", "variables": "x=1"}',
    '{"query": "{ __typename }", "variables": []}',
    '{"query": "{ __typename }", "variables": [1]}',
    '{"query": "{ __typename }", "operationName": 5}',
    '{"query": "{ __typename }", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "x"}}}',
    '{"__proto__": {"query": "{ __typename }"}}',
    '{"query": "{ __typename }", "__proto__": {"isAdmin": true}}',
    '{"query": "{ __typename }", "query": "{ __schema { types { name } } }"}',
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
    '{"query": "\\ud800"}',
    '{"query": "\\u0000"}',
    '{"query": "{ __typename }\\u0000"}',
    '\u0000',
    '{"query": "{ __typename }", "variables": {"a": 1e999999}}',
    '{"query": "{ __typename }", "variables": {"a": -}}',
  ];
  const variant = g(fc.integer, { min: 0, max: 3 });
  if (variant === 0) return post('malformed-json', role, g(fc.string, { maxLength: 200 }));
  if (variant === 1)
    return post(
      'malformed-json',
      role,
      valid.slice(0, g(fc.integer, { min: 0, max: valid.length })),
    );
  return post('malformed-json', role, pick(g, bodies));
});

/** Wrong content types, encodings, methods and paths. */
const transportShot = fc.gen().map((g): Shot => {
  const role = pick(g, ROLES);
  const body = request('{ __typename }');
  const variant = g(fc.integer, { min: 0, max: 4 });
  if (variant <= 1) {
    const type = pick(g, [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/graphql',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/xml',
      'image/png',
      '*/*',
      'application/json, text/plain',
      ';;;',
      'application/json; boundary="',
    ]);
    const encoded =
      type === 'application/graphql'
        ? '{ __typename }'
        : type.includes('utf-16')
          ? Buffer.from(body, 'utf16le')
          : type.startsWith('application/x-www')
            ? 'query=%7B__typename%7D'
            : body;
    return withShortPrint({
      kind: 'content-type',
      role,
      method: 'POST',
      path: '/v1/graphql',
      headers: { 'content-type': type },
      credentials: true,
      body: encoded,
    });
  }
  if (variant === 2) {
    const encoding = pick(g, ['gzip', 'deflate', 'br', 'identity', 'x-bogus', 'gzip, gzip']);
    return withShortPrint({
      kind: 'content-type',
      role,
      method: 'POST',
      path: '/v1/graphql',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      credentials: true,
      body,
    });
  }
  if (variant === 3) {
    const method = pick(g, ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
    return withShortPrint({
      kind: 'content-type',
      role,
      method,
      path: `/v1/graphql?query=${encodeURIComponent('{ __typename }')}`,
      headers: {},
      credentials: true,
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
    });
  }
  const path = pick(g, [
    '/v1/graphq',
    '/v1/graphql/',
    '/v1/graphql/../graphql',
    '/v1/metadata',
    '/v2/query',
    '/v1/query',
    '/console',
    '/%00',
    '/v1/graphql%00',
    '/v1alpha1/graphql',
    '/v1beta1/relay',
    '//v1/graphql',
    `/${'a'.repeat(4000)}`,
    '/healthz?x=%ff',
    '/v1/graphql?%',
  ]);
  return withShortPrint({
    kind: 'content-type',
    role,
    method: 'POST',
    path,
    headers: JSON_TYPE,
    credentials: true,
    body,
  });
});

/** Enormous strings: in variables up to just under the body limit, in literals, in names. */
function enormousStringShot(context: ShotContext) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const root = context.schemas[role].getQueryType()!;
    const tables = Object.values(root.getFields()).filter((field) =>
      field.args.some((arg) => arg.name === 'where'),
    );
    const table = pick(g, tables);
    const whereType = getNamedType(table.args.find((arg) => arg.name === 'where')!.type);
    const textColumns = isInputObjectType(whereType)
      ? Object.values(whereType.getFields()).filter(
          (field) => getNamedType(field.type).name === 'String_comparison_exp',
        )
      : [];
    const big = g(() => longString(1_000_000));
    const op = pick(g, ['_eq', '_ilike', '_like', '_regex', '_similar', '_nilike', '_iregex']);
    const variant = g(fc.integer, { min: 0, max: 4 });
    if (variant <= 1 && textColumns.length > 0) {
      const column = pick(g, textColumns).name;
      return post(
        'enormous-string',
        role,
        request(
          `query ($s: String) { ${table.name}(where: {${column}: {${op}: $s}}) { __typename } }`,
          {
            s: big.slice(0, 990_000),
          },
        ),
      );
    }
    if (variant === 2)
      return post(
        'enormous-string',
        role,
        request(`{ __typename(x: ${JSON.stringify(big.slice(0, 500_000))}) }`),
      );
    if (variant === 3)
      return post(
        'enormous-string',
        role,
        request(`{ a${'b'.repeat(Math.min(big.length, 900_000))}: __typename }`),
      );
    return post(
      'enormous-string',
      role,
      request(`query ${'Q'.repeat(200_000)} { __typename }`, undefined, 'Q'.repeat(200_000)),
    );
  });
}

/** SQL injection in values, order_by enum values and keys, distinct_on, limit; hostile patterns. */
function injectionShot(context: ShotContext) {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const root = context.schemas[role].getQueryType()!;
    const tables = Object.values(root.getFields()).filter((field) =>
      field.args.some((arg) => arg.name === 'where'),
    );
    const table = pick(g, tables);
    const whereType = getNamedType(table.args.find((arg) => arg.name === 'where')!.type);
    const columns = isInputObjectType(whereType)
      ? Object.values(whereType.getFields()).filter((field) =>
          getNamedType(field.type).name.endsWith('_comparison_exp'),
        )
      : [];
    const injection = chance(g, 60) ? pick(g, SQL_INJECTIONS) : pick(g, PATTERNS);
    const variant = g(fc.integer, { min: 0, max: 5 });
    if (variant <= 1 && columns.length > 0) {
      const column = pick(g, columns);
      const comparison = getNamedType(column.type);
      const ops = isInputObjectType(comparison) ? Object.keys(comparison.getFields()) : ['_eq'];
      const op = pick(g, ops);
      const inline = chance(g, 50);
      const value = op === '_in' || op === '_nin' ? [injection] : injection;
      return post(
        'injection',
        role,
        inline
          ? request(
              `{ ${table.name}(where: {${column.name}: {${op}: ${literal(value)}}}) { __typename } }`,
            )
          : request(
              `query ($v: ${String(isInputObjectType(comparison) ? comparison.getFields()[op]?.type : 'String')}) { ${table.name}(where: {${column.name}: {${op}: $v}}) { __typename } }`,
              {
                v: value,
              },
            ),
      );
    }
    if (variant === 2) {
      // order_by: an injected direction (enum value) or column (key), inline or in a variable.
      const { typeName: orderTypeName, keys } = orderByOf(table, 'x');
      const key = chance(g, 50) ? pick(g, keys) : injection;
      const direction = chance(g, 50) ? 'asc' : injection;
      return post(
        'injection',
        role,
        chance(g, 50)
          ? request(
              `query ($o: [${orderTypeName}!]) { ${table.name}(order_by: $o) { __typename } }`,
              {
                o: [{ [key]: direction }],
              },
            )
          : request(
              `{ ${table.name}(order_by: {${NAME.test(key) ? key : 'zz'}: ${NAME.test(direction) ? direction : JSON.stringify(direction)}}) { __typename } }`,
            ),
      );
    }
    if (variant === 3) {
      const distinct = table.args.find((arg) => arg.name === 'distinct_on');
      return post(
        'injection',
        role,
        request(
          `query ($d: ${distinct ? String(distinct.type) : '[String!]'}) { ${table.name}(distinct_on: $d) { __typename } }`,
          {
            d: [injection],
          },
        ),
      );
    }
    if (variant === 4) {
      const arg = pick(g, ['limit', 'offset']);
      return post(
        'injection',
        role,
        request(`query ($n: Int) { ${table.name}(${arg}: $n) { __typename } }`, {
          n: chance(g, 50) ? injection : pick(g, [-1, 1e12, 0.5, '1', null]),
        }),
      );
    }
    // Injection through a relationship's where, or a _by_pk key.
    const byPk = Object.values(root.getFields()).filter((field) => field.name.endsWith('_by_pk'));
    if (byPk.length === 0)
      return post('injection', role, request(`{ ${table.name}(limit: 1) { __typename } }`));
    const field = pick(g, byPk);
    const args = field.args.map((arg) => `${arg.name}: ${JSON.stringify(injection)}`).join(', ');
    return post('injection', role, request(`{ ${field.name}(${args}) { __typename } }`));
  });
}

/** The actions' string inputs (and ids, amounts, words) with hostile values; never a write. */
function actionShot(context: ShotContext, kind = 'action-strings') {
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const schema = context.schemas[role];
    const fields = [
      ...Object.values(schema.getQueryType()?.getFields() ?? {})
        .filter((field) => context.actions.has(field.name))
        .map((field) => ['query', field] as const),
      ...Object.values(schema.getMutationType()?.getFields() ?? {})
        .filter((field) => context.actions.has(field.name))
        .map((field) => ['mutation', field] as const),
    ];
    if (fields.length === 0) return post(kind, role, request('{ __typename }'));
    const [operation, field] = pick(g, fields);
    const counter = { next: 0 };
    const args = fieldArguments(g, field, counter, { depth: 2, maxList: 5 }, (name, value) =>
      safeActionArgument(field.name, name, value, context),
    );
    const named = getNamedType(field.type);
    const selection = isObjectType(named)
      ? ` { ${Object.values(named.getFields())
          .filter((item) => !isObjectType(getNamedType(item.type)))
          .slice(0, 3)
          .map((item) => item.name)
          .join(' ')} }`
      : '';
    const head =
      args.definitions.length > 0 ? `${operation} (${args.definitions.join(', ')})` : operation;
    return post(
      kind,
      role,
      request(`${head} { ${field.name}${args.text}${selection} }`, args.variables),
    );
  });
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * The inputs of an action made such that a valid-looking request still cannot write:
 * createExchange never agrees to the terms, a support request's e-mail is never valid,
 * grantManagerRole never names an existing account. Every other action acts on an order,
 * withdrawal or request that does not exist (the database holds none), or writes nothing.
 */
export function safeActionArgument(
  action: string,
  argument: string,
  value: unknown,
  context: Pick<ShotContext, 'existingEmails'>,
): unknown {
  if (action === 'createExchange' && argument === 'input' && value && typeof value === 'object')
    return { ...value, agreeTerms: false };
  if (
    action === 'submitSupportRequest' &&
    argument === 'input' &&
    value &&
    typeof value === 'object'
  ) {
    const email = (value as { email?: unknown }).email;
    return {
      ...value,
      email: typeof email === 'string' && EMAIL.test(email.trim()) ? `${email} @` : email,
    };
  }
  if (action === 'grantManagerRole' && argument === 'email' && typeof value === 'string') {
    const normalized = value.trim().toLowerCase();
    return context.existingEmails.includes(normalized) ? `${value}x` : value;
  }
  return value;
}

/** Batched requests: arrays of requests (some malformed), empty, nested, huge. */
function batchShot(context: ShotContext) {
  const parts = fc.oneof(
    schemaShot(context, 'batch'),
    actionShot(context, 'batch'),
    unknownShot(context),
    wrongVariablesShot(context),
  );
  return fc.gen().map((g) => {
    const role = pick(g, ROLES);
    const variant = g(fc.integer, { min: 0, max: 4 });
    if (variant <= 1) {
      const members = g(() => fc.array(parts, { minLength: 1, maxLength: 12 })).map((shot) =>
        typeof shot.body === 'string' ? shot.body : 'null',
      );
      return post('batch', role, `[${members.join(',')}]`);
    }
    if (variant === 2) {
      const count = g(fc.integer, { min: 100, max: 20_000 });
      const member = pick(g, [
        request('{ __typename }'),
        request('{ x: __typename }'),
        '{}',
        'null',
        '[]',
        request(
          `{ ${Object.keys(context.schemas[role].getQueryType()!.getFields())[0]}(limit: 1) { __typename } }`,
        ),
      ]);
      return post('batch', role, `[${Array.from({ length: count }, () => member).join(',')}]`);
    }
    if (variant === 3)
      return post(
        'batch',
        role,
        pick(g, [
          '[]',
          '[[]]',
          '[[{"query":"{ __typename }"}]]',
          '[1, "a", null, true]',
          `[${'['.repeat(1000)}${']'.repeat(1000)}]`,
        ]),
      );
    return post(
      'batch',
      role,
      `[${request('{ __typename }')}, ${request('mutation { __typename }')}, ${request('subscription { __typename }')}]`,
    );
  });
}

/** Invalid UTF-8 and control characters in the body, the query and the values. */
const encodingShot = fc.gen().map((g) => {
  const role = pick(g, ROLES);
  const garbage = pick(g, [
    [0xff],
    [0xfe, 0xff],
    [0xc0, 0xaf],
    [0xe0, 0x80, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0x80],
    [0xc3],
    [0xe2, 0x82],
    [0x00],
    [0x1b, 0x5b, 0x32, 0x4a],
    [0xef, 0xbb, 0xbf],
  ]);
  const where = pick(g, ['query', 'value', 'name', 'prefix']);
  const bytes = Buffer.from(garbage);
  const before =
    where === 'query'
      ? '{"query":"{ __type'
      : where === 'value'
        ? '{"query":"query ($s: String) { currencies(where: {code: {_eq: $s}}) { code } }","variables":{"s":"a'
        : where === 'name'
          ? '{"query":"{ curr'
          : '';
  const after =
    where === 'query'
      ? 'name }"}'
      : where === 'value'
        ? 'b"}}'
        : where === 'name'
          ? 'encies { code } }"}'
          : request('{ __typename }');
  if (chance(g, 25)) {
    // Control characters and escapes that survive JSON: in the query text and in values.
    const character = pick(g, [
      '\u0000',
      '\u0001',
      '\u001f',
      '\u007f',
      '\u2028',
      '\u202e',
      '\ufeff',
      '\ud800',
      '\udfff',
    ]);
    return post(
      'encoding',
      role,
      chance(g, 50)
        ? request(`{ __type${character}name }`)
        : request('query ($s: String) { currencies(where: {name: {_ilike: $s}}) { code } }', {
            s: `%${character}%`,
          }),
    );
  }
  return post('encoding', role, Buffer.concat([Buffer.from(before), bytes, Buffer.from(after)]));
});

/** Credentials and session headers that are wrong, forged, huge or contradictory. */
function headerShot(secrets: {
  sign: (claims: object, key?: string, alg?: 'HS256' | 'none') => string;
  claims: (id: string, roles: string[], expiresIn?: number) => object;
}) {
  return fc.gen().map((g): Shot => {
    const role = pick(g, ROLES);
    const id = g(fc.uuid);
    const token = pick(g, [
      'x.y.z',
      '',
      'Bearer',
      '....',
      secrets.sign(secrets.claims(id, ['user'])).slice(0, -3),
      secrets.sign(secrets.claims(id, ['user']), 'wrong-key-0123456789abcdef0123456789'),
      secrets.sign(secrets.claims(id, ['user']), undefined, 'none'),
      secrets.sign(secrets.claims(id, ['user'], -60)),
      secrets.sign({ sub: id }),
      secrets.sign({
        'https://hasura.io/jwt/claims': { 'x-hasura-default-role': 'administrator' },
      }),
      secrets.sign({ 'https://hasura.io/jwt/claims': 'not-an-object', exp: 1e12 }),
      secrets.sign(secrets.claims("'; DROP TABLE roles; --", ['user'])),
      secrets.sign(secrets.claims(id, ['user', "admin' --"])),
      secrets.sign(secrets.claims(id, [])),
      secrets.sign({ ...secrets.claims(id, ['user']), exp: 'never' }),
      secrets.sign({ ...secrets.claims(id, ['user']), nbf: 9e12 }),
      Buffer.from('{"alg":"HS256"}').toString('base64url') + '.' + 'A'.repeat(5000) + '.sig',
    ]);
    const scheme = pick(g, ['Bearer ', 'bearer ', 'Basic ', '', 'Bearer  ', 'Token ']);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const variant = g(fc.integer, { min: 0, max: 4 });
    if (variant <= 1) headers['authorization'] = `${scheme}${token}`;
    if (variant === 2 || chance(g, 20))
      headers['x-hasura-role'] = pick(g, [
        'admin',
        'administrator',
        'manager',
        'user',
        'anonymous',
        'ADMIN',
        '',
        ' user',
        "user' --",
        'x'.repeat(8000),
      ]);
    if (variant === 3)
      headers['x-hasura-admin-secret'] = pick(g, [
        '',
        'dev-only-hasura-admin-secret',
        'test-admin-secret ',
        'TEST-ADMIN-SECRET',
        'x'.repeat(10_000),
      ]);
    if (variant === 4) {
      headers['x-hasura-user-id'] = pick(g, [id, "'; --", '']);
      headers['x-hasura-use-backend-only-permissions'] = 'true';
      headers['x-hasura-allowed-roles'] = '{administrator}';
      for (let i = 0; i < g(fc.integer, { min: 0, max: 80 }); i += 1)
        headers[`x-hasura-h${i}`] = 'v'.repeat(100);
    }
    return withShortPrint({
      kind: 'headers',
      role,
      method: 'POST',
      path: '/v1/graphql',
      headers,
      credentials: chance(g, 30),
      body: request(
        pick(g, ['{ __typename }', '{ currencies(limit: 1) { code } }', 'mutation { __typename }']),
      ),
    });
  });
}

export interface Signer {
  sign: (claims: object, key?: string, alg?: 'HS256' | 'none') => string;
  claims: (id: string, roles: string[], expiresIn?: number) => object;
}

/** Every kind of hostile request, weighted so that each is well represented. */
export function graphqlShot(context: ShotContext, signer: Signer): fc.Arbitrary<Shot> {
  return fc.oneof(
    { weight: 30, arbitrary: schemaShot(context) },
    { weight: 8, arbitrary: deepNestingShot(context) },
    { weight: 3, arbitrary: aliasBombShot(context) },
    { weight: 5, arbitrary: fragmentBombShot },
    { weight: 4, arbitrary: hugeListShot(context) },
    { weight: 6, arbitrary: unknownShot(context) },
    { weight: 6, arbitrary: wrongVariablesShot(context) },
    { weight: 6, arbitrary: malformedJsonShot },
    { weight: 5, arbitrary: transportShot },
    { weight: 2, arbitrary: enormousStringShot(context) },
    { weight: 12, arbitrary: injectionShot(context) },
    { weight: 14, arbitrary: actionShot(context) },
    { weight: 4, arbitrary: batchShot(context) },
    { weight: 5, arbitrary: encodingShot },
    { weight: 5, arbitrary: headerShot(signer) },
  );
}

/** A hostile operation for a WebSocket `subscribe` (any kind that is one JSON request). */
export function operationPayload(context: ShotContext): fc.Arbitrary<unknown> {
  return fc
    .oneof(
      schemaShot(context, 'ws'),
      deepNestingShot(context),
      unknownShot(context),
      wrongVariablesShot(context),
      injectionShot(context),
      actionShot(context, 'ws'),
      fragmentBombShot,
    )
    .map((shot) => {
      try {
        return JSON.parse(typeof shot.body === 'string' ? shot.body : '{}') as unknown;
      } catch {
        return shot.body;
      }
    });
}

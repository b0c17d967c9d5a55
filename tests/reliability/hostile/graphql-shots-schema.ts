import fc from 'fast-check';
import {
  getNamedType,
  isInputObjectType,
  isNonNullType,
  isObjectType,
  type GraphQLObjectType,
} from 'graphql';

import { hostileString } from './values.ts';
import { ROLES, chance, pick, post, request, type ShotContext } from './graphql-shot-kit.ts';
import {
  fieldArguments,
  isTableMutation,
  literal,
  neverWrites,
  orderByOf,
  selectionSet,
  type Arguments,
  type ValueOptions,
  unknownName,
} from './graphql-shot-arguments.ts';

/*
 * Hostile requests shaped by the schema: valid-looking operations, deep nesting, alias and
 * fragment bombs, huge lists, unknown names and wrong variables.
 */

/** A request built from the role's schema: random fields, arguments, depth and aliases. */
export function schemaShot(context: ShotContext, kind = 'schema', valueDepth = 4) {
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
export function deepNestingShot(context: ShotContext) {
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
export function aliasBombShot(context: ShotContext) {
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
export const fragmentBombShot = fc.gen().map((g) => {
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
export function hugeListShot(context: ShotContext) {
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
export function unknownShot(context: ShotContext) {
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
export function wrongVariablesShot(context: ShotContext) {
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

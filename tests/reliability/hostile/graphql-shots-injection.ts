import fc from 'fast-check';
import { getNamedType, isInputObjectType, isObjectType } from 'graphql';

import { longString, PATTERNS, SQL_INJECTIONS } from './values.ts';
import { ROLES, chance, pick, post, request, type ShotContext } from './graphql-shot-kit.ts';
import { NAME, fieldArguments, literal, orderByOf } from './graphql-shot-arguments.ts';

/*
 * Hostile values in otherwise valid requests: enormous strings, SQL injections and the action
 * arguments' strings.
 */

/** Enormous strings: in variables up to just under the body limit, in literals, in names. */
export function enormousStringShot(context: ShotContext) {
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
export function injectionShot(context: ShotContext) {
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
export function actionShot(context: ShotContext, kind = 'action-strings') {
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

import fc from 'fast-check';

import {
  JSON_TYPE,
  ROLES,
  chance,
  pick,
  post,
  request,
  type Shot,
  type ShotContext,
  withShortPrint,
} from './graphql-shot-kit.ts';
import { schemaShot, unknownShot, wrongVariablesShot } from './graphql-shots-schema.ts';
import { actionShot } from './graphql-shots-injection.ts';

/*
 * Hostile envelopes around a request: malformed JSON, the wrong method, path or content type,
 * batches, odd encodings and forged headers.
 */

/** Bodies that are not JSON, or JSON that is not a request. */
export const malformedJsonShot = fc.gen().map((g) => {
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
export const transportShot = fc.gen().map((g): Shot => {
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

/** Batched requests: arrays of requests (some malformed), empty, nested, huge. */
export function batchShot(context: ShotContext) {
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
export const encodingShot = fc.gen().map((g) => {
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
export function headerShot(secrets: {
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

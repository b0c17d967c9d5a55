/**
 * JWT mode beyond the corpus cases: which headers and claims make the session, the role checks,
 * malformed headers and tokens, claims namespaces, formats and maps, expiry and the token cache,
 * and every key type end to end.
 */
import { describe, expect, it } from 'vitest';

import { parseJwtConfig } from './jwt-config.ts';
import { signJwt } from './jwt-sign.ts';
import {
  ADMIN_SECRET,
  bearer,
  ec,
  ed,
  errorOf,
  expectError,
  hasuraClaims,
  HS_SECRET,
  jwtServer,
  NOW,
  NOW_MS,
  NS,
  payload,
  pem,
  rs512,
  rsa,
  userSession,
} from './resolve-session-harness.ts';
import { createSessionResolver } from './resolve-session.ts';

describe('JWT mode', () => {
  it('ignores request x-hasura-* headers except the role', () => {
    const token = rs512(payload());
    const session = jwtServer()(bearer(token, { 'x-hasura-user-id': '2', 'x-hasura-org-id': '9' }));
    expect(session.variables).toEqual({ 'x-hasura-user-id': '1', 'x-hasura-role': 'user' });
  });

  it('uses the default role without a role header (or with an empty one), and any allowed role with one', () => {
    const resolve = jwtServer();
    const token = rs512(payload());
    expect(resolve({ authorization: `Bearer ${token}` }).role).toBe('user');
    expect(resolve({ authorization: `Bearer ${token}`, 'x-hasura-role': '' }).role).toBe('user');
    expect(resolve(bearer(token, { 'x-hasura-role': 'editor' }))).toMatchObject({
      role: 'editor',
      variables: { 'x-hasura-role': 'editor', 'x-hasura-user-id': '1' },
    });
  });

  it('refuses a default role that is not among the allowed roles', () => {
    const token = rs512(payload({ [NS]: hasuraClaims({ 'x-hasura-default-role': 'admin' }) }));
    expectError(
      () => jwtServer()({ authorization: `Bearer ${token}` }),
      'access-denied',
      'Your requested role is not in allowed roles',
    );
  });

  it('lets a valid admin secret win over the token, and refuses a wrong one', () => {
    const resolve = jwtServer();
    expect(
      resolve({ authorization: 'Bearer garbage', 'x-hasura-admin-secret': ADMIN_SECRET }),
    ).toMatchObject({
      role: 'admin',
      isAdmin: true,
    });
    expectError(
      () => resolve(bearer(rs512(payload()), { 'x-hasura-admin-secret': 'wrong' })),
      'access-denied',
      'invalid "x-hasura-admin-secret"/"x-hasura-access-key"',
      401,
    );
  });

  it('refuses a malformed Authorization header', () => {
    const token = rs512(payload());
    for (const authorization of [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      `bearer ${token}`,
      `Bearer ${token} extra`,
      '',
    ]) {
      expectError(
        () => jwtServer()({ authorization }),
        'invalid-headers',
        'Malformed Authorization header',
      );
    }
    expect(jwtServer()({ authorization: `  Bearer \t${token} ` }).role).toBe('user');
  });

  it('refuses a token that is not a JWS', () => {
    expectError(
      () => jwtServer()({ authorization: 'Bearer not-a-token' }),
      'invalid-jwt',
      'Could not verify JWT: JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)',
    );
  });

  it('refuses alg none', () => {
    expectError(
      () => jwtServer()(bearer(signJwt(payload(), 'none', undefined))),
      'invalid-jwt',
      'Could not verify JWT: JWSError JWSNoSignatures',
    );
  });

  it('ignores the Authorization header in cookie mode', () => {
    const resolve = jwtServer({ header: { type: 'Cookie', name: 'hasura_user' } });
    expectError(
      () => resolve(bearer(rs512(payload()))),
      'invalid-headers',
      "Missing 'Authorization' or 'Cookie' header in JWT authentication mode",
    );
    expectError(
      () => resolve({ cookie: `hasura_user=a; hasura_user=b` }),
      'invalid-headers',
      'Could not verify JWT: Multiple JWTs found',
    );
  });

  it('reads the bare token from a CustomHeader', () => {
    const resolve = jwtServer({ header: { type: 'CustomHeader', name: 'X-Auth-Token' } });
    expect(resolve({ 'x-auth-token': rs512(payload()) }).role).toBe('user');
  });

  it('refuses session variable claims that are not strings (no conversion, as Hasura v2)', () => {
    for (const [value, type] of [
      [1, 'Number'],
      [['a', 'b'], 'Array'],
      [true, 'Boolean'],
      [{ a: 1 }, 'Object'],
      [null, 'Null'],
    ] as const) {
      expectError(
        () =>
          jwtServer()(
            bearer(rs512(payload({ [NS]: hasuraClaims({ 'x-hasura-user-id': value }) }))),
          ),
        'jwt-invalid-claims',
        `x-hasura-* claims: parsing Text failed, expected String, but encountered ${type}`,
      );
    }
    // array values travel as Postgres literals in strings
    const token = rs512(payload({ [NS]: hasuraClaims({ 'x-hasura-allowed-ids': '{1,2}' }) }));
    expect(jwtServer()(bearer(token)).variables['x-hasura-allowed-ids']).toBe('{1,2}');
  });

  it('checks the role before the types of the other claims', () => {
    const token = rs512(payload({ [NS]: hasuraClaims({ 'x-hasura-user-id': 1 }) }));
    expectError(
      () => jwtServer()(bearer(token, { 'x-hasura-role': 'admin' })),
      'access-denied',
      'Your requested role is not in allowed roles',
    );
  });

  it('reports bad role claims with Hasura messages', () => {
    const bad = (claims: Record<string, unknown>) => () =>
      jwtServer()(bearer(rs512(payload({ [NS]: hasuraClaims(claims) }))));
    expectError(
      bad({ 'x-hasura-allowed-roles': ['user', 3] }),
      'jwt-invalid-claims',
      'invalid x-hasura-allowed-roles; should be a list of roles: parsing String failed, expected String, but encountered Number',
    );
    expectError(
      bad({ 'x-hasura-allowed-roles': ['user', ''] }),
      'jwt-invalid-claims',
      'invalid x-hasura-allowed-roles; should be a list of roles: empty string not allowed',
    );
    expectError(
      bad({ 'x-hasura-default-role': ['user'] }),
      'jwt-invalid-claims',
      'invalid x-hasura-default-role; should be a single role name: parsing String failed, expected String, but encountered Array',
    );
  });

  it('keeps only x-hasura-* claims, lower-cased, and drops admin secret claims', () => {
    const token = rs512(
      payload({
        [NS]: {
          ...hasuraClaims(),
          'X-Hasura-Org-Id': '5',
          email: 'a@b.c',
          'x-hasura-admin-secret': 'x',
        },
      }),
    );
    expect(jwtServer()(bearer(token)).variables).toEqual({
      'x-hasura-user-id': '1',
      'x-hasura-org-id': '5',
      'x-hasura-role': 'user',
    });
  });

  it('finds the claims in a custom namespace or at a nested path', () => {
    const custom = rs512(payload({ 'https://example.com/claims': hasuraClaims() }));
    expect(jwtServer({ claims_namespace: 'https://example.com/claims' })(bearer(custom))).toEqual(
      userSession(),
    );
    const nested = rs512(payload({ hasura: { claims: hasuraClaims() } }));
    expect(jwtServer({ claims_namespace_path: '$.hasura.claims' })(bearer(nested))).toEqual(
      userSession(),
    );
  });

  it('reports claims that are missing or in the wrong format', () => {
    const { [NS]: _ns, ...bare } = payload();
    expectError(
      () => jwtServer()(bearer(rs512(bare))),
      'jwt-invalid-claims',
      "claims key: 'https://hasura.io/jwt/claims' not found",
    );
    expectError(
      () => jwtServer({ claims_namespace_path: '$.hasura.claims' })(bearer(rs512(bare))),
      'jwt-invalid-claims',
      "claims not found at claims_namespace_path: '$.hasura.claims'",
    );
    expectError(
      () => jwtServer()(bearer(rs512(payload({ [NS]: JSON.stringify(hasuraClaims()) })))),
      'jwt-invalid-claims',
      'expecting a json object when claims_format is json',
    );
    expectError(
      () => jwtServer({ claims_format: 'stringified_json' })(bearer(rs512(payload()))),
      'jwt-invalid-claims',
      'expecting a string when claims_format is stringified_json',
    );
    expectError(
      () =>
        jwtServer({ claims_format: 'stringified_json' })(bearer(rs512(payload({ [NS]: '{oops' })))),
      'jwt-invalid-claims',
      "expecting stringified json at: 'claims_namespace https://hasura.io/jwt/claims', but found: {oops",
    );
  });

  it('applies a claims_map: paths into the whole payload, defaults and literals', () => {
    const resolve = jwtServer({
      claims_map: {
        'x-hasura-allowed-roles': { path: '$.roles' },
        'x-hasura-default-role': { path: '$.role', default: 'user' },
        'x-hasura-user-id': { path: '$.sub' },
        'x-hasura-tenant': 'acme',
        'x-hasura-plan': { path: '$.plan', default: 'free' },
      },
    });
    const session = resolve({
      authorization: `Bearer ${rs512({ sub: 'u-7', exp: NOW + 60, roles: ['user', 'editor'] })}`,
    });
    expect(session).toEqual({
      role: 'user',
      variables: {
        'x-hasura-role': 'user',
        'x-hasura-user-id': 'u-7',
        'x-hasura-tenant': 'acme',
        'x-hasura-plan': 'free',
      },
      isAdmin: false,
      expiresAt: new Date((NOW + 60) * 1000),
    });
    expectError(
      () => resolve({ authorization: `Bearer ${rs512({ sub: 'u-7', exp: NOW + 60 })}` }),
      'jwt-missing-role-claims',
      'JWT claim does not contain x-hasura-allowed-roles',
    );
    expectError(
      () => resolve({ authorization: `Bearer ${rs512({ exp: NOW + 60, roles: ['user'] })}` }),
      'jwt-invalid-claims',
      'JWT claim from claims_map, x-hasura-user-id not found',
    );
    expectError(
      () => resolve({ authorization: `Bearer ${rs512({ sub: 'u', roles: ['user'], role: 7 })}` }),
      'jwt-invalid-claims',
      'invalid x-hasura-default-role; should be a role: parsing String failed, expected String, but encountered Number',
    );
  });

  it('has no expiry without exp', () => {
    const { exp: _exp, ...noExp } = payload();
    const session = jwtServer()(bearer(rs512(noExp)));
    expect(session.expiresAt).toBeUndefined();
    expect('expiresAt' in session).toBe(false);
  });

  it('hands out independent sessions for a cached token, and never revives an expired one', () => {
    let now = NOW_MS;
    const resolve = jwtServer({}, { now: () => now });
    const token = rs512(payload({ exp: NOW + 5 }));
    const first = resolve(bearer(token));
    first.variables['x-hasura-user-id'] = 'tampered';
    first.expiresAt?.setTime(0);
    expect(resolve(bearer(token))).toEqual(userSession(NOW + 5));
    now = NOW_MS + 5_000;
    expectError(() => resolve(bearer(token)), 'invalid-jwt', 'Could not verify JWT: JWTExpired');
  });

  it('caches claim errors as well as successes without changing them', () => {
    const resolve = jwtServer();
    const token = rs512(payload({ [NS]: hasuraClaims({ 'x-hasura-allowed-roles': 'user' }) }));
    const first = errorOf(() => resolve(bearer(token)));
    expect(errorOf(() => resolve(bearer(token)))).toEqual(first);
  });

  it.each([
    [
      'HS256',
      () => parseJwtConfig({ type: 'HS256', key: HS_SECRET }),
      (c: unknown) => signJwt(c, 'HS256', HS_SECRET),
    ],
    [
      'ES256',
      () => parseJwtConfig({ type: 'ES256', key: pem(ec.publicKey) }),
      (c: unknown) => signJwt(c, 'ES256', ec.privateKey),
    ],
    [
      'Ed25519',
      () => parseJwtConfig({ type: 'Ed25519', key: pem(ed.publicKey) }),
      (c: unknown) => signJwt(c, 'EdDSA', ed.privateKey),
    ],
  ])('works end to end with %s keys', (_type, config, sign) => {
    const resolve = createSessionResolver({
      adminSecret: ADMIN_SECRET,
      jwt: config(),
      now: () => NOW_MS,
    });
    expect(resolve(bearer(sign(payload())))).toEqual(userSession());
    expectError(
      () => resolve(bearer(signJwt(payload(), 'RS512', rsa.privateKey))),
      'invalid-jwt',
      'Could not verify JWT: JWSError JWSInvalidSignature',
    );
  });
});

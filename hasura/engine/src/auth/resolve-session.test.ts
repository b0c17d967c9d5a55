/**
 * Session resolution. The first blocks replay the conformance corpus cases
 * (../shared/conformance/hasura/groups/auth_jwt, auth_admin_secret, unauthorized_role) at the
 * auth layer: same server configuration, token claims, headers and expected error.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { HasuraError } from '../errors.ts';
import { parseJwtConfig } from './jwt-config.ts';
import { signJwt } from './jwt-sign.ts';
import {
  AuthConfigError,
  createSessionResolver,
  type RequestHeaders,
  type SessionResolverConfig,
} from './resolve-session.ts';
import type { Session } from './session.ts';

const NOW_MS = 1_800_000_000_000;
const NOW = NOW_MS / 1000;
const ADMIN_SECRET = 'the-admin-secret';
const NS = 'https://hasura.io/jwt/claims';
const HS_SECRET = 'a-shared-secret-of-at-least-32-characters!';

const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }) as string;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
/** pytest's "other key": HS256 with a random RSA PEM string as secret. */
const OTHER_SECRET = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);

const hasuraClaims = (extra: Record<string, unknown> = {}) => ({
  'x-hasura-user-id': '1',
  'x-hasura-allowed-roles': ['user', 'editor'],
  'x-hasura-default-role': 'user',
  ...extra,
});
const payload = (extra: Record<string, unknown> = {}) => ({
  sub: '1234567890',
  name: 'John Doe',
  iat: NOW,
  exp: NOW + 36000,
  [NS]: hasuraClaims(),
  ...extra,
});

/** The auth_jwt group's server: admin secret + RS512, merged with the case's server_jwt_config. */
function jwtServer(
  jwtOptions: Record<string, unknown> = {},
  extra: Partial<SessionResolverConfig> = {},
) {
  return createSessionResolver({
    adminSecret: ADMIN_SECRET,
    jwt: parseJwtConfig({ type: 'RS512', key: pem(rsa.publicKey), ...jwtOptions }),
    now: () => NOW_MS,
    ...extra,
  });
}
const rs512 = (claims: unknown) => signJwt(claims, 'RS512', rsa.privateKey);
const bearer = (token: string, headers: Record<string, string> = {}): RequestHeaders => ({
  authorization: `Bearer ${token}`,
  'x-hasura-role': 'user',
  'x-hasura-user-id': '1',
  ...headers,
});

function errorOf(fn: () => unknown): ReturnType<HasuraError['toJSON']> & { status: number } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HasuraError);
    const e = error as HasuraError;
    return { ...e.toJSON(), status: e.status };
  }
  throw new Error('expected a HasuraError');
}
const expectError = (fn: () => unknown, code: string, message: string, status = 400) => {
  expect(errorOf(fn)).toEqual({ message, extensions: { path: '$', code }, status });
};

const userSession = (exp = NOW + 36000): Session => ({
  role: 'user',
  variables: { 'x-hasura-user-id': '1', 'x-hasura-role': 'user' },
  isAdmin: false,
  expiresAt: new Date(exp * 1000),
});

describe('auth_jwt corpus cases', () => {
  it('jwt_valid_claims: role from X-Hasura-Role, variables from the claims', () => {
    expect(jwtServer()(bearer(rs512(payload())))).toEqual(userSession());
  });

  it('jwt_valid_claims_stringified: claims_format stringified_json', () => {
    const token = rs512(payload({ [NS]: JSON.stringify(hasuraClaims()) }));
    expect(jwtServer({ claims_format: 'stringified_json' })(bearer(token))).toEqual(userSession());
  });

  it('jwt_valid_claims_namespace_path_root: claims_namespace_path $', () => {
    const { [NS]: _ns, ...rest } = payload();
    const token = rs512({ ...rest, ...hasuraClaims() });
    expect(jwtServer({ claims_namespace_path: '$' })(bearer(token))).toEqual(userSession());
  });

  it('jwt_valid_claims_cookie: token in the configured cookie', () => {
    const token = rs512(payload());
    const resolve = jwtServer({ header: { type: 'Cookie', name: 'hasura_user' } });
    const headers = {
      cookie: `hasura_user=${token}`,
      'x-hasura-role': 'user',
      'x-hasura-user-id': '1',
    };
    expect(resolve(headers)).toEqual(userSession());
    expect(resolve({ ...headers, cookie: `theme=dark; hasura_user=${token}; lang=en` })).toEqual(
      userSession(),
    );
  });

  it('jwt_invalid_role_in_request_header', () => {
    const token = rs512(
      payload({
        [NS]: hasuraClaims({
          'x-hasura-allowed-roles': ['contractor', 'editor'],
          'x-hasura-default-role': 'contractor',
        }),
      }),
    );
    expectError(
      () => jwtServer()(bearer(token)),
      'access-denied',
      'Your requested role is not in allowed roles',
    );
  });

  it('jwt_no_allowed_roles_in_claim', () => {
    const { 'x-hasura-allowed-roles': _r, ...claims } = hasuraClaims();
    expectError(
      () => jwtServer()(bearer(rs512(payload({ [NS]: claims })))),
      'jwt-missing-role-claims',
      'JWT claim does not contain x-hasura-allowed-roles',
    );
  });

  it('jwt_invalid_allowed_roles_in_claim: a string, not a list', () => {
    expectError(
      () =>
        jwtServer()(
          bearer(rs512(payload({ [NS]: hasuraClaims({ 'x-hasura-allowed-roles': 'user' }) }))),
        ),
      'jwt-invalid-claims',
      'invalid x-hasura-allowed-roles; should be a list of roles: parsing [] failed, expected Array, but encountered String',
    );
  });

  it('jwt_no_default_role', () => {
    const { 'x-hasura-default-role': _d, ...claims } = hasuraClaims();
    expectError(
      () => jwtServer()(bearer(rs512(payload({ [NS]: claims })))),
      'jwt-missing-role-claims',
      'JWT claim does not contain x-hasura-default-role',
    );
  });

  it('jwt_expired', () => {
    expectError(
      () => jwtServer()(bearer(rs512(payload({ exp: NOW - 60 })))),
      'invalid-jwt',
      'Could not verify JWT: JWTExpired',
    );
  });

  it('jwt_invalid_signature: HS256 with another secret', () => {
    expectError(
      () => jwtServer()(bearer(signJwt(payload(), 'HS256', OTHER_SECRET))),
      'invalid-jwt',
      'Could not verify JWT: JWSError JWSInvalidSignature',
    );
  });

  it('jwt_valid_audience / jwt_invalid_audience', () => {
    const resolve = jwtServer({ audience: 'myapp-1234' });
    expect(resolve(bearer(rs512(payload({ aud: 'myapp-1234' }))))).toEqual(userSession());
    expectError(
      () => resolve(bearer(rs512(payload({ aud: 'rubbish_audience' })))),
      'invalid-jwt',
      'Could not verify JWT: JWTNotInAudience',
    );
  });

  it('jwt_valid_issuer / jwt_invalid_issuer', () => {
    const resolve = jwtServer({ issuer: 'https://hasura.com' });
    expect(resolve(bearer(rs512(payload({ iss: 'https://hasura.com' }))))).toEqual(userSession());
    expectError(
      () => resolve(bearer(rs512(payload({ iss: 'rubbish_issuer' })))),
      'invalid-jwt',
      'Could not verify JWT: JWTNotInIssuer',
    );
  });

  it('jwt_expiry_leeway: allowed_skew 60 accepts a token expired 30 s ago', () => {
    const token = rs512(payload({ exp: NOW - 30 }));
    expect(jwtServer({ allowed_skew: 60 })(bearer(token))).toEqual(userSession(NOW - 30));
    expectError(
      () => jwtServer()(bearer(token)),
      'invalid-jwt',
      'Could not verify JWT: JWTExpired',
    );
  });
});

describe('auth_admin_secret corpus cases', () => {
  const resolve = createSessionResolver({ adminSecret: ADMIN_SECRET });

  it('admin_secret_missing', () => {
    expectError(
      () => resolve({}),
      'access-denied',
      '"x-hasura-admin-secret"/"x-hasura-access-key" required, but not found',
      401,
    );
  });

  it('admin_secret_wrong', () => {
    expectError(
      () => resolve({ 'x-hasura-admin-secret': 'random-wrong-value' }),
      'access-denied',
      'invalid "x-hasura-admin-secret"/"x-hasura-access-key"',
      401,
    );
    // a prefix, the empty string, or the secret with different case are all wrong
    for (const wrong of ['the-admin', '', ADMIN_SECRET.toUpperCase(), `${ADMIN_SECRET} `]) {
      expect(errorOf(() => resolve({ 'x-hasura-admin-secret': wrong })).extensions.code).toBe(
        'access-denied',
      );
    }
  });

  it('admin_secret_ok', () => {
    expect(resolve({ 'x-hasura-admin-secret': ADMIN_SECRET })).toEqual({
      role: 'admin',
      variables: { 'x-hasura-role': 'admin' },
      isAdmin: true,
    });
  });

  it('admin_secret_ok_role_header: the role header picks the role, x-hasura-* headers are the variables', () => {
    expect(
      resolve({
        'x-hasura-admin-secret': ADMIN_SECRET,
        'x-hasura-role': 'anonymous',
        'x-hasura-user-id': '7',
        'content-type': 'application/json',
      }),
    ).toEqual({
      role: 'anonymous',
      variables: { 'x-hasura-role': 'anonymous', 'x-hasura-user-id': '7' },
      isAdmin: true,
    });
  });

  it('accepts the legacy x-hasura-access-key header', () => {
    expect(resolve({ 'x-hasura-access-key': ADMIN_SECRET }).role).toBe('admin');
    expectError(
      () => resolve({ 'x-hasura-access-key': 'nope' }),
      'access-denied',
      'invalid "x-hasura-admin-secret"/"x-hasura-access-key"',
      401,
    );
    // x-hasura-admin-secret takes precedence
    expect(
      errorOf(() =>
        resolve({ 'x-hasura-admin-secret': 'nope', 'x-hasura-access-key': ADMIN_SECRET }),
      ).status,
    ).toBe(401);
  });
});

describe('unauthorized_role corpus cases', () => {
  it('unauthorized_role: without credentials X-Hasura-Role is ignored', () => {
    const resolve = createSessionResolver({
      adminSecret: ADMIN_SECRET,
      unauthorizedRole: 'anonymous',
    });
    expect(resolve({ 'x-hasura-role': 'admin', 'x-hasura-user-id': '3' })).toEqual({
      role: 'anonymous',
      variables: { 'x-hasura-role': 'anonymous', 'x-hasura-user-id': '3' },
      isAdmin: false,
    });
    // the admin secret still works beside the unauthorized role
    expect(resolve({ 'x-hasura-admin-secret': ADMIN_SECRET }).role).toBe('admin');
  });

  it('cookie_header_absent_unauth_role_set, with and without a JWT secret', () => {
    for (const jwt of [undefined, parseJwtConfig({ type: 'RS512', key: pem(rsa.publicKey) })]) {
      const resolve = createSessionResolver({
        adminSecret: ADMIN_SECRET,
        jwt,
        unauthorizedRole: 'anonymous',
      });
      expect(resolve({ 'x-hasura-role': 'anonymous' }).role).toBe('anonymous');
      expect(resolve({ cookie: 'refresh_token=john_doe' }).role).toBe('anonymous');
    }
    const cookieJwt = jwtServer(
      { header: { type: 'Cookie', name: 'hasura_user' } },
      { unauthorizedRole: 'anonymous' },
    );
    expect(cookieJwt({ cookie: 'refresh_token=john_doe' }).role).toBe('anonymous');
  });

  it('cookie_header_absent_unauth_role_not_set: invalid-headers', () => {
    const message = "Missing 'Authorization' or 'Cookie' header in JWT authentication mode";
    expectError(
      () => jwtServer()({ cookie: 'refresh_token=john_doe' }),
      'invalid-headers',
      message,
    );
    expectError(
      () =>
        jwtServer({ header: { type: 'Cookie', name: 'hasura_user' } })({
          cookie: 'refresh_token=john_doe',
        }),
      'invalid-headers',
      message,
    );
    expectError(() => jwtServer()({}), 'invalid-headers', message);
  });
});

describe('no admin secret, no JWT', () => {
  const resolve = createSessionResolver({});
  it('every request is admin', () => {
    expect(resolve({})).toEqual({
      role: 'admin',
      variables: { 'x-hasura-role': 'admin' },
      isAdmin: true,
    });
  });
  it('x-hasura-role picks the role and x-hasura-* headers are the variables', () => {
    expect(
      resolve({
        'x-hasura-role': 'user',
        'X-Hasura-User-Id': '42',
        'x-hasura-admin-secret': 'whatever',
        accept: '*/*',
      }),
    ).toEqual({
      role: 'user',
      variables: { 'x-hasura-role': 'user', 'x-hasura-user-id': '42' },
      isAdmin: true,
    });
    expect(resolve({ 'x-hasura-role': '' }).role).toBe('admin');
  });
});

describe('configuration refused at start-up', () => {
  const jwt = parseJwtConfig({ type: 'HS256', key: HS_SECRET });
  it('a JWT secret without an admin secret', () => {
    expect(() => createSessionResolver({ jwt })).toThrow(AuthConfigError);
    expect(() => createSessionResolver({ jwt })).toThrow(
      /--jwt-secret \(HASURA_GRAPHQL_JWT_SECRET\) requires --admin-secret/,
    );
  });
  it('an unauthorized role without an admin secret', () => {
    expect(() => createSessionResolver({ unauthorizedRole: 'anonymous' })).toThrow(
      /--unauthorized-role/,
    );
  });
  it('empty values', () => {
    expect(() => createSessionResolver({ adminSecret: '' })).toThrow(/must not be empty/);
    expect(() =>
      createSessionResolver({ adminSecret: ADMIN_SECRET, unauthorizedRole: '' }),
    ).toThrow(/must not be empty/);
  });
});

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

/**
 * Session resolution. The first blocks replay the conformance corpus cases
 * (../shared/conformance/hasura/groups/auth_jwt, auth_admin_secret, unauthorized_role) at the
 * auth layer: same server configuration, token claims, headers and expected error. JWT mode
 * beyond the corpus is in resolve-session-jwt.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { parseJwtConfig } from './jwt-config.ts';
import { signJwt } from './jwt-sign.ts';
import {
  ADMIN_SECRET,
  bearer,
  errorOf,
  expectError,
  hasuraClaims,
  HS_SECRET,
  jwtServer,
  NOW,
  NS,
  OTHER_SECRET,
  payload,
  pem,
  rs512,
  rsa,
  userSession,
} from './resolve-session-harness.ts';
import { AuthConfigError, createSessionResolver } from './resolve-session.ts';

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

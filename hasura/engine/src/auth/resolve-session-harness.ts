/**
 * What the session resolution suites share: a fixed clock, an admin secret, keys of every kind
 * (generated once per file), the conformance corpus's token payload and server, and checks of
 * the HasuraError a resolution throws. resolve-session.test.ts replays the corpus cases,
 * resolve-session-jwt.test.ts goes further into JWT mode.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';

import { expect } from 'vitest';

import { HasuraError } from '../errors.ts';
import { parseJwtConfig } from './jwt-config.ts';
import { signJwt } from './jwt-sign.ts';
import {
  createSessionResolver,
  type RequestHeaders,
  type SessionResolverConfig,
} from './resolve-session.ts';
import type { Session } from './session.ts';

export const NOW_MS = 1_800_000_000_000;
export const NOW = NOW_MS / 1000;
export const ADMIN_SECRET = 'the-admin-secret';
export const NS = 'https://hasura.io/jwt/claims';
export const HS_SECRET = 'a-shared-secret-of-at-least-32-characters!';

export const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }) as string;
export const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const ed = generateKeyPairSync('ed25519');
/** pytest's "other key": HS256 with a random RSA PEM string as secret. */
export const OTHER_SECRET = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);

export const hasuraClaims = (extra: Record<string, unknown> = {}) => ({
  'x-hasura-user-id': '1',
  'x-hasura-allowed-roles': ['user', 'editor'],
  'x-hasura-default-role': 'user',
  ...extra,
});
export const payload = (extra: Record<string, unknown> = {}) => ({
  sub: '1234567890',
  name: 'John Doe',
  iat: NOW,
  exp: NOW + 36000,
  [NS]: hasuraClaims(),
  ...extra,
});

/** The auth_jwt group's server: admin secret + RS512, merged with the case's server_jwt_config. */
export function jwtServer(
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
export const rs512 = (claims: unknown) => signJwt(claims, 'RS512', rsa.privateKey);
export const bearer = (token: string, headers: Record<string, string> = {}): RequestHeaders => ({
  authorization: `Bearer ${token}`,
  'x-hasura-role': 'user',
  'x-hasura-user-id': '1',
  ...headers,
});

export function errorOf(fn: () => unknown): ReturnType<HasuraError['toJSON']> & { status: number } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HasuraError);
    const e = error as HasuraError;
    return { ...e.toJSON(), status: e.status };
  }
  throw new Error('expected a HasuraError');
}
export const expectError = (fn: () => unknown, code: string, message: string, status = 400) => {
  expect(errorOf(fn)).toEqual({ message, extensions: { path: '$', code }, status });
};

export const userSession = (exp = NOW + 36000): Session => ({
  role: 'user',
  variables: { 'x-hasura-user-id': '1', 'x-hasura-role': 'user' },
  isAdmin: false,
  expiresAt: new Date(exp * 1000),
});

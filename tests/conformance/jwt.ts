import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

import type { JsonObject, JwtSpec } from './corpus.ts';
import { substituteNow } from './transform.ts';

/*
 * JWTs for the auth_jwt cases: a runner-generated RS512 key pair whose public half goes into
 * HASURA_GRAPHQL_JWT_SECRET, tokens minted from a case's `jwt.claims` (`$now±N` resolved),
 * signed with that key (`server_key`) or with a different key and algorithm (`other_key`:
 * HS256 keyed with an unrelated RSA PEM, as pytest does), and delivered per `deliver`.
 */

export interface JwtKeys {
  publicKeyPem: string;
  privateKey: KeyObject;
  /** The `other_key` secret: an unrelated PEM string used as an HS256 key. */
  otherSecret: string;
}

export function generateJwtKeys(): JwtKeys {
  const server = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 1024 });
  return {
    publicKeyPem: server.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: server.privateKey,
    otherSecret: other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** HASURA_GRAPHQL_JWT_SECRET: `{type: RS512, key: <public PEM>}` merged with a case's config. */
export function serverJwtSecret(keys: JwtKeys, extra: JsonObject = {}): string {
  return JSON.stringify({ type: 'RS512', key: keys.publicKeyPem, ...extra });
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

export function signJwt(
  payload: unknown,
  algorithm: 'RS512' | 'HS256',
  key: KeyObject | string,
): string {
  const signingInput = `${base64url(JSON.stringify({ alg: algorithm, typ: 'JWT' }))}.${base64url(
    JSON.stringify(payload),
  )}`;
  const signature =
    algorithm === 'RS512'
      ? sign('sha512', Buffer.from(signingInput), key)
      : createHmac('sha256', key).update(signingInput).digest();
  return `${signingInput}.${base64url(signature)}`;
}

/** Mints the token a case describes (`$now` placeholders resolved against `nowSeconds`). */
export function mintJwt(
  spec: JwtSpec,
  keys: JwtKeys,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const claims = substituteNow(spec.claims, nowSeconds);
  return spec.sign === 'other_key'
    ? signJwt(claims, 'HS256', keys.otherSecret)
    : signJwt(claims, 'RS512', keys.privateKey);
}

/** Decodes a token's header and payload (no verification), for tests and diagnostics. */
export function decodeJwt(token: string): { header: unknown; payload: unknown } {
  const [header = '', payload = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as unknown,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown,
  };
}

/**
 * Adds the token to HTTP headers per `deliver`: `Authorization: Bearer` by default,
 * `cookie:NAME` -> `Cookie: NAME=<token>` (after any cookies the case already sends).
 * `connection_init_payload_headers` leaves headers alone (the steps carry `<token>`).
 */
export function deliverJwt(
  token: string,
  deliver: string | undefined,
  headers: Record<string, string>,
): Record<string, string> {
  const result = { ...headers };
  if (deliver === 'connection_init_payload_headers') return result;
  const cookie = deliver?.startsWith('cookie:') ? deliver.slice('cookie:'.length) : undefined;
  if (cookie) {
    const existingKey = Object.keys(result).find((key) => key.toLowerCase() === 'cookie');
    const existing = existingKey ? result[existingKey] : undefined;
    if (existingKey) delete result[existingKey];
    result['Cookie'] = existing ? `${existing}; ${cookie}=${token}` : `${cookie}=${token}`;
    return result;
  }
  result['Authorization'] = `Bearer ${token}`;
  return result;
}

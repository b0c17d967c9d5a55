/**
 * Minting compact JWS tokens with node:crypto, for tests and the conformance runner (the
 * engine itself only verifies; production tokens come from auth-service).
 */
import { createHmac, createPrivateKey, sign, type KeyObject } from 'node:crypto';

import type { JwsAlgorithm } from './jwt-config.ts';

const HASH_OF: Record<string, string> = {
  HS256: 'sha256',
  HS384: 'sha384',
  HS512: 'sha512',
  RS256: 'sha256',
  RS384: 'sha384',
  RS512: 'sha512',
  ES256: 'sha256',
  ES384: 'sha384',
  ES512: 'sha512',
};

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/**
 * Signs `claims` with `alg`. `key` is the HMAC secret (HS*) or the private key (RS*, ES*,
 * EdDSA); `none` yields an unsigned token (to test that it is refused). `header` adds to or
 * overrides the protected header.
 */
export function signJwt(
  claims: unknown,
  alg: JwsAlgorithm | 'none' | (string & {}),
  key: KeyObject | string | Buffer | undefined,
  header: Record<string, unknown> = {},
): string {
  const input = `${b64url(JSON.stringify({ alg, typ: 'JWT', ...header }))}.${b64url(JSON.stringify(claims))}`;
  if (alg === 'none') return `${input}.`;
  if (key === undefined) throw new Error(`signJwt: ${alg} needs a key`);
  if (alg.startsWith('HS')) {
    return `${input}.${b64url(
      createHmac(HASH_OF[alg] ?? 'sha256', key)
        .update(input)
        .digest(),
    )}`;
  }
  const privateKey = typeof key === 'string' || Buffer.isBuffer(key) ? createPrivateKey(key) : key;
  const data = Buffer.from(input);
  let signature: Buffer;
  if (alg === 'EdDSA') signature = sign(null, data, privateKey);
  else if (alg.startsWith('ES'))
    signature = sign(HASH_OF[alg], data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  else signature = sign(HASH_OF[alg], data, privateKey);
  return `${input}.${b64url(signature)}`;
}

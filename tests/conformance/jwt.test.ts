import { createHmac, createPublicKey, verify } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import type { JwtSpec } from './corpus.ts';
import {
  decodeJwt,
  deliverJwt,
  generateJwtKeys,
  mintJwt,
  serverJwtSecret,
  type JwtKeys,
} from './jwt.ts';

let keys: JwtKeys;
beforeAll(() => {
  keys = generateJwtKeys();
});

const spec: JwtSpec = {
  claims: {
    sub: '1234567890',
    iat: '$now',
    exp: '$now-60',
    'https://hasura.io/jwt/claims': {
      'x-hasura-user-id': '1',
      'x-hasura-allowed-roles': ['user', 'editor'],
      'x-hasura-default-role': 'user',
    },
  },
  sign: 'server_key',
};

describe('mintJwt', () => {
  it('signs RS512 with the server key, which the configured public key verifies', () => {
    const token = mintJwt(spec, keys, 1_000);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(decodeJwt(token)).toEqual({
      header: { alg: 'RS512', typ: 'JWT' },
      payload: { ...spec.claims, iat: 1_000, exp: 940 },
    });
    const secret = JSON.parse(serverJwtSecret(keys)) as { type: string; key: string };
    expect(secret.type).toBe('RS512');
    const ok = verify(
      'sha512',
      Buffer.from(`${header}.${payload}`),
      createPublicKey(secret.key),
      Buffer.from(signature, 'base64url'),
    );
    expect(ok).toBe(true);
  });

  it('signs other_key tokens with HS256 and an unrelated secret', () => {
    const token = mintJwt({ ...spec, sign: 'other_key' }, keys, 1_000);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(decodeJwt(token).header).toEqual({ alg: 'HS256', typ: 'JWT' });
    const expected = createHmac('sha256', keys.otherSecret)
      .update(`${header}.${payload}`)
      .digest('base64url');
    expect(signature).toBe(expected);
    const secret = JSON.parse(serverJwtSecret(keys)) as { key: string };
    expect(
      verify(
        'sha512',
        Buffer.from(`${header}.${payload}`),
        createPublicKey(secret.key),
        Buffer.from(signature, 'base64url'),
      ),
    ).toBe(false);
  });
});

describe('serverJwtSecret', () => {
  it("merges the case's server_jwt_config into the RS512 config", () => {
    const config = JSON.parse(
      serverJwtSecret(keys, {
        claims_format: 'stringified_json',
        header: { type: 'Cookie', name: 'hasura_user' },
      }),
    ) as Record<string, unknown>;
    expect(config).toMatchObject({
      type: 'RS512',
      claims_format: 'stringified_json',
      header: { type: 'Cookie', name: 'hasura_user' },
    });
    expect(config['key']).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });
});

describe('deliverJwt', () => {
  it('uses Authorization: Bearer by default', () => {
    expect(deliverJwt('t', undefined, { 'X-Hasura-Role': 'user' })).toEqual({
      'X-Hasura-Role': 'user',
      Authorization: 'Bearer t',
    });
  });

  it('puts it in the named cookie for cookie:NAME', () => {
    expect(deliverJwt('t', 'cookie:hasura_user', {})).toEqual({ Cookie: 'hasura_user=t' });
    expect(deliverJwt('t', 'cookie:hasura_user', { cookie: 'a=b' })).toEqual({
      Cookie: 'a=b; hasura_user=t',
    });
  });

  it('leaves headers alone when the token goes into connection_init', () => {
    expect(deliverJwt('t', 'connection_init_payload_headers', { a: 'b' })).toEqual({ a: 'b' });
  });
});

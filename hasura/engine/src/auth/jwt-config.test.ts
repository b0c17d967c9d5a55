import { generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { DEFAULT_CLAIMS_NAMESPACE, JwtConfigError, parseJwtConfig } from './jwt-config.ts';

const HS_SECRET = 'a-shared-secret-of-at-least-32-characters!';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaSpki = rsa.publicKey.export({ type: 'spki', format: 'pem' });
const rsaPkcs1 = rsa.publicKey.export({ type: 'pkcs1', format: 'pem' });
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
  type: 'spki',
  format: 'pem',
});
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({
  type: 'spki',
  format: 'pem',
});
const p521 = generateKeyPairSync('ec', { namedCurve: 'P-521' }).publicKey.export({
  type: 'spki',
  format: 'pem',
});
const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' });

/** A self-signed RSA certificate (its private key was thrown away). */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIDCTCCAfGgAwIBAgIUMHeIwa6nwHAHC+zNz00PjBBjxjEwDQYJKoZIhvcNAQEL
BQAwEzERMA8GA1UEAwwIand0LXRlc3QwIBcNMjYxMTIxMjE1MDAxWhgPMjEyNjEw
MjgyMTUwMDFaMBMxETAPBgNVBAMMCGp3dC10ZXN0MIIBIjANBgkqhkiG9w0BAQEF
AAOCAQ8AMIIBCgKCAQEA0taaq2Wt6fVpPonMN9qor7RLE8ANt23kiXaZsZQC75r2
m7HwPiPsr8zTjsHXToovoKApYCm76aaetdt0i1sFylDTZV3Hd85ZKVuAbxso885c
20vXsp+pKBkZWmnSrjZGrC+ezJrEXpqgsOfZrPZGsVp2hmOjlwSpt0lals4q2wg+
S6xSyOys2eZsDXlE8taNp2U7Z0iHqauad26UoqeN8cLRJ3f2Bkjrt0JbKuFTem9w
p2DnqPdEjuyQUOsLs8ZpSxGPdXotHIJcJWZ5cm+/bTJA8JI7N+tXvOhin3Puo7Vg
SUGC1PROCy5FfL0AuwsUo2sUJk6w4HWxJtTLQBof8wIDAQABo1MwUTAdBgNVHQ4E
FgQUiLmpDOP2q4mYoWaljeLw4VDFVgUwHwYDVR0jBBgwFoAUiLmpDOP2q4mYoWal
jeLw4VDFVgUwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAKmpN
Zhm+mOs9qdF/d+G1xgoK2oP0kxwgTEmfodAYlHNw1BEzEuso7HaQtjBLMmmGZG9+
mMuT6lBAQcWFlw3lWQYivmtM5lGtA8va8xm43qUbtUeNKG/jDM0cOs5yePVPylJi
F1iBypUYR8hhoGcn34rbZ8+ZLfz6eiSw2zU8KwDR0kP8Fy7GqBAR+tO4SMbwTmwf
NkT/3iN6k8VKOx9LWMpQ3S6U6/UZJRxRXks2rvK6aOFWTq5hw2Xjkq6lJVbNEHCo
P4d9XuVsvXsxndIenCOXi28Dx6EeNrIbgqaieIiASBRyq3qx/RPe1F1nitkNrOy6
s/40hyOtDeJyDy2Isg==
-----END CERTIFICATE-----`;

const fails = (input: unknown, message: RegExp) => {
  expect(() => parseJwtConfig(input)).toThrow(JwtConfigError);
  expect(() => parseJwtConfig(input)).toThrow(message);
};

describe('parseJwtConfig', () => {
  it('reads the env JSON string with Hasura defaults', () => {
    const config = parseJwtConfig(JSON.stringify({ type: 'HS256', key: HS_SECRET }));
    expect(config).toMatchObject({
      type: 'HS256',
      algorithm: 'HS256',
      claims: { kind: 'namespace', namespace: DEFAULT_CLAIMS_NAMESPACE, format: 'json' },
      allowedSkewSeconds: 0,
      header: { type: 'Authorization' },
    });
    expect(config.audience).toBeUndefined();
    expect(config.issuer).toBeUndefined();
    expect(config.key.type).toBe('secret');
    expect(DEFAULT_CLAIMS_NAMESPACE).toBe('https://hasura.io/jwt/claims');
  });

  it('accepts an already parsed object and every option', () => {
    const config = parseJwtConfig({
      type: 'HS512',
      key: HS_SECRET.repeat(2),
      claims_namespace: 'https://example.com/claims',
      claims_format: 'stringified_json',
      audience: ['a', 'b'],
      issuer: 'https://issuer.example',
      allowed_skew: 30,
      header: { type: 'Cookie', name: 'hasura_user' },
      some_unknown_key: true,
    });
    expect(config).toMatchObject({
      algorithm: 'HS512',
      claims: {
        kind: 'namespace',
        namespace: 'https://example.com/claims',
        format: 'stringified_json',
      },
      audience: ['a', 'b'],
      issuer: 'https://issuer.example',
      allowedSkewSeconds: 30,
      header: { type: 'Cookie', name: 'hasura_user' },
    });
  });

  it('takes a single audience as a list, and the skew in absolute terms', () => {
    expect(
      parseJwtConfig({ type: 'HS256', key: HS_SECRET, audience: 'myapp-1234' }).audience,
    ).toEqual(['myapp-1234']);
    expect(
      parseJwtConfig({ type: 'HS256', key: HS_SECRET, allowed_skew: -5 }).allowedSkewSeconds,
    ).toBe(5);
  });

  it('reads claims_namespace_path', () => {
    expect(
      parseJwtConfig({ type: 'HS256', key: HS_SECRET, claims_namespace_path: '$' }).claims,
    ).toEqual({
      kind: 'namespace_path',
      path: [],
      format: 'json',
    });
    expect(
      parseJwtConfig({ type: 'HS256', key: HS_SECRET, claims_namespace_path: '$.hasura.claims' })
        .claims,
    ).toMatchObject({ path: ['hasura', 'claims'] });
  });

  it('reads header types case-insensitively, CustomHeader names lower-cased', () => {
    expect(
      parseJwtConfig({ type: 'HS256', key: HS_SECRET, header: { type: 'authorization' } }).header,
    ).toEqual({
      type: 'Authorization',
    });
    expect(
      parseJwtConfig({
        type: 'HS256',
        key: HS_SECRET,
        header: { type: 'CustomHeader', name: 'X-Auth-Token' },
      }).header,
    ).toEqual({ type: 'CustomHeader', name: 'x-auth-token' });
  });

  it.each([
    ['RS256', rsaSpki],
    ['RS384', rsaPkcs1],
    ['RS512', CERTIFICATE],
    ['ES256', p256],
    ['ES384', p384],
    ['ES512', p521],
  ])('accepts a %s public key', (type, key) => {
    const config = parseJwtConfig({ type, key });
    expect(config.algorithm).toBe(type);
    expect(config.key.type).toBe('public');
  });

  it('signs Ed25519 keys with EdDSA', () => {
    expect(parseJwtConfig({ type: 'Ed25519', key: ed }).algorithm).toBe('EdDSA');
  });

  it('reads claims_map', () => {
    const config = parseJwtConfig({
      type: 'HS256',
      key: HS_SECRET,
      claims_map: {
        'x-hasura-allowed-roles': { path: '$.roles', default: ['user'] },
        'x-hasura-default-role': 'user',
        'X-Hasura-User-Id': { path: '$.sub' },
        'x-hasura-org': 'acme',
      },
    });
    expect(config.claims).toEqual({
      kind: 'claims_map',
      map: {
        allowedRoles: { kind: 'path', path: ['roles'], default: ['user'] },
        defaultRole: { kind: 'static', value: 'user' },
        other: {
          'x-hasura-user-id': { kind: 'path', path: ['sub'], default: undefined },
          'x-hasura-org': { kind: 'static', value: 'acme' },
        },
      },
    });
  });

  describe('refuses to start with', () => {
    it('text that is not JSON, or not an object', () => {
      fails('{type: HS256}', /not valid JSON/);
      fails('[]', /expected a JSON object/);
    });
    it('no key, or a jwk_url', () => {
      fails({ type: 'HS256' }, /key and jwk_url both cannot be empty/);
      fails({ type: 'RS256', jwk_url: 'https://example.com/jwks' }, /jwk_url is not supported/);
      fails(
        { type: 'RS256', key: rsaSpki, jwk_url: 'https://example.com/jwks' },
        /key, jwk_url both cannot be present/,
      );
    });
    it('a missing or unsupported type', () => {
      fails({ key: HS_SECRET }, /"type" is required/);
      fails({ type: 'PS256', key: rsaSpki }, /Invalid JWK: Key type: PS256 is not supported/);
      fails({ type: 'none', key: HS_SECRET }, /Key type: none is not supported/);
    });
    it('an HMAC secret shorter than the hash', () => {
      fails(
        { type: 'HS256', key: 'x'.repeat(31) },
        /Key size too small; should be atleast 32 characters/,
      );
      fails({ type: 'HS384', key: 'x'.repeat(47) }, /atleast 48 characters/);
      fails({ type: 'HS512', key: 'x'.repeat(63) }, /atleast 64 characters/);
      expect(parseJwtConfig({ type: 'HS256', key: 'x'.repeat(32) }).algorithm).toBe('HS256');
    });
    it('a key that is not a PEM public key of the right kind', () => {
      fails({ type: 'RS256', key: 'not a pem' }, /Could not decode PEM/);
      fails(
        { type: 'RS256', key: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) },
        /must be a public key or certificate, not a private key/,
      );
      fails({ type: 'RS256', key: p256 }, /RS256 needs an RSA public key/);
      fails({ type: 'ES256', key: p384 }, /ES256 needs an EC public key on curve prime256v1/);
      fails({ type: 'ES256', key: rsaSpki }, /ES256 needs an EC public key/);
      fails({ type: 'Ed25519', key: p256 }, /Ed25519 needs an Ed25519 public key/);
    });
    it('both claims_namespace and claims_namespace_path, or a bad path', () => {
      fails(
        { type: 'HS256', key: HS_SECRET, claims_namespace: 'a', claims_namespace_path: '$.a' },
        /claims_namespace and claims_namespace_path both cannot be set/,
      );
      fails(
        { type: 'HS256', key: HS_SECRET, claims_namespace_path: '$..a' },
        /invalid JSON path claims_namespace_path/,
      );
    });
    it('a bad claims_format, header, audience, issuer or allowed_skew', () => {
      fails(
        { type: 'HS256', key: HS_SECRET, claims_format: 'yaml' },
        /"json" or "stringified_json"/,
      );
      fails(
        { type: 'HS256', key: HS_SECRET, header: { type: 'Query' } },
        /'Authorization' or 'Cookie'/,
      );
      fails(
        { type: 'HS256', key: HS_SECRET, header: { type: 'Cookie' } },
        /"header.name" is required/,
      );
      fails(
        { type: 'HS256', key: HS_SECRET, audience: [1] },
        /"audience" must be a string or a list/,
      );
      fails({ type: 'HS256', key: HS_SECRET, issuer: 5 }, /"issuer" must be a string/);
      fails(
        { type: 'HS256', key: HS_SECRET, allowed_skew: '60' },
        /"allowed_skew" must be a number/,
      );
    });
    it('a claims_map without the role claims or with bad values', () => {
      fails(
        { type: 'HS256', key: HS_SECRET, claims_map: { 'x-hasura-default-role': 'user' } },
        /x-hasura-allowed-roles is expected but not found/,
      );
      fails(
        { type: 'HS256', key: HS_SECRET, claims_map: { 'x-hasura-allowed-roles': ['user'] } },
        /x-hasura-default-role is expected but not found/,
      );
      fails(
        {
          type: 'HS256',
          key: HS_SECRET,
          claims_map: { 'x-hasura-allowed-roles': 'user', 'x-hasura-default-role': 'user' },
        },
        /x-hasura-allowed-roles must be a list of role names/,
      );
      fails(
        {
          type: 'HS256',
          key: HS_SECRET,
          claims_map: {
            'x-hasura-allowed-roles': { path: '$..x' },
            'x-hasura-default-role': 'user',
          },
        },
        /invalid JSON path/,
      );
    });
  });
});

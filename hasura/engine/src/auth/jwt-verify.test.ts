import { generateKeyPairSync, type KeyObject } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { HasuraError } from '../errors.ts';
import { parseJwtConfig, type JwtConfig } from './jwt-config.ts';
import { signJwt } from './jwt-sign.ts';
import { createJwtVerifier, verifyJwt } from './jwt-verify.ts';

const NOW_MS = 1_800_000_000_000;
const NOW = NOW_MS / 1000;
const HS_SECRET = 'a-shared-secret-of-at-least-32-characters!';

const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }) as string;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaOther = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ec521 = generateKeyPairSync('ec', { namedCurve: 'P-521' });
const ed = generateKeyPairSync('ed25519');
const edOther = generateKeyPairSync('ed25519');
const ecOther = generateKeyPairSync('ec', { namedCurve: 'P-256' });

const claims = (extra: Record<string, unknown> = {}) => ({
  sub: '1234567890',
  iat: NOW,
  exp: NOW + 3600,
  'https://hasura.io/jwt/claims': {
    'x-hasura-user-id': '1',
    'x-hasura-allowed-roles': ['user', 'editor'],
    'x-hasura-default-role': 'user',
  },
  ...extra,
});

/** Expects `fn` to throw HasuraError invalid-jwt with exactly `message`. */
const rejects = (fn: () => unknown, message: string) => {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(HasuraError);
  expect((thrown as HasuraError).toJSON()).toEqual({
    message,
    extensions: { path: '$', code: 'invalid-jwt' },
  });
};

interface Case {
  type: string;
  alg: string;
  configKey: string;
  signKey: KeyObject | string;
  otherKey: KeyObject | string;
}
const CASES: Case[] = [
  {
    type: 'HS256',
    alg: 'HS256',
    configKey: HS_SECRET,
    signKey: HS_SECRET,
    otherKey: `${HS_SECRET}-other`,
  },
  {
    type: 'HS384',
    alg: 'HS384',
    configKey: HS_SECRET.repeat(2),
    signKey: HS_SECRET.repeat(2),
    otherKey: HS_SECRET.repeat(3),
  },
  {
    type: 'HS512',
    alg: 'HS512',
    configKey: HS_SECRET.repeat(2),
    signKey: HS_SECRET.repeat(2),
    otherKey: HS_SECRET.repeat(3),
  },
  {
    type: 'RS256',
    alg: 'RS256',
    configKey: pem(rsa.publicKey),
    signKey: rsa.privateKey,
    otherKey: rsaOther.privateKey,
  },
  {
    type: 'RS512',
    alg: 'RS512',
    configKey: pem(rsa.publicKey),
    signKey: rsa.privateKey,
    otherKey: rsaOther.privateKey,
  },
  {
    type: 'ES256',
    alg: 'ES256',
    configKey: pem(ec256.publicKey),
    signKey: ec256.privateKey,
    otherKey: ecOther.privateKey,
  },
  {
    type: 'ES384',
    alg: 'ES384',
    configKey: pem(ec384.publicKey),
    signKey: ec384.privateKey,
    otherKey: ec384.privateKey,
  },
  {
    type: 'ES512',
    alg: 'ES512',
    configKey: pem(ec521.publicKey),
    signKey: ec521.privateKey,
    otherKey: ec521.privateKey,
  },
  {
    type: 'Ed25519',
    alg: 'EdDSA',
    configKey: pem(ed.publicKey),
    signKey: ed.privateKey,
    otherKey: edOther.privateKey,
  },
];

const rs512 = parseJwtConfig({ type: 'RS512', key: pem(rsa.publicKey) });
const hs256 = parseJwtConfig({ type: 'HS256', key: HS_SECRET });
const withOptions = (options: Record<string, unknown>): JwtConfig =>
  parseJwtConfig({ type: 'HS256', key: HS_SECRET, ...options });
const hsToken = (payload: unknown, header: Record<string, unknown> = {}) =>
  signJwt(payload, 'HS256', HS_SECRET, header);

describe('verifyJwt: signatures', () => {
  for (const c of CASES) {
    describe(c.type, () => {
      const config = parseJwtConfig({ type: c.type, key: c.configKey });
      it('accepts a token signed with the configured key', () => {
        const verified = verifyJwt(config, signJwt(claims(), c.alg, c.signKey), NOW_MS);
        expect(verified.claims['sub']).toBe('1234567890');
        expect(verified.exp).toBe(NOW + 3600);
      });
      it('refuses a tampered payload', () => {
        const [h, , s] = signJwt(claims(), c.alg, c.signKey).split('.');
        const forged = Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url');
        rejects(
          () => verifyJwt(config, `${h}.${forged}.${s}`, NOW_MS),
          'Could not verify JWT: JWSError JWSInvalidSignature',
        );
      });
      if (c.otherKey !== c.signKey) {
        it('refuses a token signed with another key', () => {
          rejects(
            () => verifyJwt(config, signJwt(claims(), c.alg, c.otherKey), NOW_MS),
            'Could not verify JWT: JWSError JWSInvalidSignature',
          );
        });
      }
    });
  }

  it('refuses alg none, with or without a signature', () => {
    const unsigned = signJwt(claims(), 'none', undefined);
    rejects(
      () => verifyJwt(rs512, unsigned, NOW_MS),
      'Could not verify JWT: JWSError JWSNoSignatures',
    );
    rejects(
      () => verifyJwt(hs256, `${unsigned}c2ln`, NOW_MS),
      'Could not verify JWT: JWSError JWSNoSignatures',
    );
  });

  it('refuses HS256 signed with the RSA public key as secret (algorithm confusion)', () => {
    const token = signJwt(claims(), 'HS256', pem(rsa.publicKey));
    rejects(
      () => verifyJwt(rs512, token, NOW_MS),
      'Could not verify JWT: JWSError JWSInvalidSignature',
    );
  });

  it('refuses any alg other than the configured one, even with the right key', () => {
    rejects(
      () => verifyJwt(rs512, signJwt(claims(), 'RS256', rsa.privateKey), NOW_MS),
      'Could not verify JWT: JWSError JWSInvalidSignature',
    );
    rejects(
      () => verifyJwt(hs256, signJwt(claims(), 'HS512', HS_SECRET), NOW_MS),
      'Could not verify JWT: JWSError JWSInvalidSignature',
    );
  });

  it('refuses an ECDSA signature in DER instead of raw r||s', () => {
    const es = parseJwtConfig({ type: 'ES256', key: pem(ec256.publicKey) });
    const [h, p] = signJwt(claims(), 'ES256', ec256.privateKey).split('.');
    const der = signJwt(claims(), 'RS256', rsa.privateKey).split('.')[2]; // any wrong-length bytes
    rejects(
      () => verifyJwt(es, `${h}.${p}.${der}`, NOW_MS),
      'Could not verify JWT: JWSError JWSInvalidSignature',
    );
  });
});

describe('verifyJwt: malformed tokens', () => {
  it('needs three parts', () => {
    rejects(
      () => verifyJwt(hs256, 'abc', NOW_MS),
      'Could not verify JWT: JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)',
    );
    rejects(
      () => verifyJwt(hs256, 'a.b.c.d.e', NOW_MS),
      'Could not verify JWT: JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 5)',
    );
  });
  it('needs base64url JSON in the header and payload', () => {
    const [h, p, s] = hsToken(claims()).split('.');
    expect(() => verifyJwt(hs256, `${h}!.${p}.${s}`, NOW_MS)).toThrow(/JSONDecodeError/);
    expect(() =>
      verifyJwt(hs256, `${Buffer.from('{alg').toString('base64url')}.${p}.${s}`, NOW_MS),
    ).toThrow(/protected header contains invalid JSON/);
    expect(() =>
      verifyJwt(hs256, `${Buffer.from('{}').toString('base64url')}.${p}.${s}`, NOW_MS),
    ).toThrow(/key \\"alg\\" not found/);
    expect(() =>
      verifyJwt(hs256, `${h}.${Buffer.from('nope').toString('base64url')}.${s}`, NOW_MS),
    ).toThrow(/JWTClaimsSetDecodeError/);
  });
  it('refuses critical header extensions', () => {
    expect(() => verifyJwt(hs256, hsToken(claims(), { crit: ['exp'] }), NOW_MS)).toThrow(/crit/);
  });
  it('needs the payload to be an object with well-typed registered claims', () => {
    rejects(
      () => verifyJwt(hs256, hsToken([1, 2]), NOW_MS),
      'Could not verify JWT: JWTClaimsSetDecodeError "Error in $: parsing JWT Claims Set failed, expected Object, but encountered Array"',
    );
    rejects(
      () => verifyJwt(hs256, hsToken(claims({ sub: 1 })), NOW_MS),
      'Could not verify JWT: JWTClaimsSetDecodeError "Error in $.sub: parsing StringOrURI failed, expected String, but encountered Number"',
    );
    rejects(
      () => verifyJwt(hs256, hsToken(claims({ exp: String(NOW + 10) })), NOW_MS),
      'Could not verify JWT: JWTClaimsSetDecodeError "Error in $.exp: parsing NumericDate failed, expected Number, but encountered String"',
    );
    expect(() => verifyJwt(hs256, hsToken(claims({ aud: [1] })), NOW_MS)).toThrow(/\$\.aud/);
    // null registered claims count as absent
    expect(verifyJwt(hs256, hsToken(claims({ iss: null, exp: null })), NOW_MS).exp).toBeUndefined();
  });
});

describe('verifyJwt: claims', () => {
  it('refuses an expired token, accepts it within allowed_skew', () => {
    const expired30 = hsToken(claims({ exp: NOW - 30 }));
    const expired60 = hsToken(claims({ exp: NOW - 60 }));
    rejects(() => verifyJwt(hs256, expired60, NOW_MS), 'Could not verify JWT: JWTExpired');
    rejects(
      () => verifyJwt(hs256, hsToken(claims({ exp: NOW })), NOW_MS),
      'Could not verify JWT: JWTExpired',
    );
    const skewed = withOptions({ allowed_skew: 60 });
    expect(verifyJwt(skewed, expired30, NOW_MS).exp).toBe(NOW - 30);
    rejects(() => verifyJwt(skewed, expired60, NOW_MS), 'Could not verify JWT: JWTExpired');
  });

  it('accepts a token without exp', () => {
    const { exp: _exp, ...rest } = claims();
    expect(verifyJwt(hs256, hsToken(rest), NOW_MS).exp).toBeUndefined();
  });

  it('refuses a token before nbf, accepts it within allowed_skew', () => {
    const early = hsToken(claims({ nbf: NOW + 30 }));
    rejects(() => verifyJwt(hs256, early, NOW_MS), 'Could not verify JWT: JWTNotYetValid');
    expect(verifyJwt(hs256, hsToken(claims({ nbf: NOW })), NOW_MS).nbf).toBe(NOW);
    expect(verifyJwt(withOptions({ allowed_skew: 60 }), early, NOW_MS).nbf).toBe(NOW + 30);
  });

  it('checks the audience when one is configured', () => {
    const config = withOptions({ audience: 'myapp-1234' });
    expect(() => verifyJwt(config, hsToken(claims({ aud: 'myapp-1234' })), NOW_MS)).not.toThrow();
    expect(() =>
      verifyJwt(config, hsToken(claims({ aud: ['other', 'myapp-1234'] })), NOW_MS),
    ).not.toThrow();
    rejects(
      () => verifyJwt(config, hsToken(claims({ aud: 'rubbish_audience' })), NOW_MS),
      'Could not verify JWT: JWTNotInAudience',
    );
    rejects(
      () => verifyJwt(config, hsToken(claims({ aud: [] })), NOW_MS),
      'Could not verify JWT: JWTNotInAudience',
    );
    // as in Hasura (jose): a token without `aud` is not refused
    expect(() => verifyJwt(config, hsToken(claims()), NOW_MS)).not.toThrow();
    // and without a configured audience any `aud` passes
    expect(() => verifyJwt(hs256, hsToken(claims({ aud: 'anything' })), NOW_MS)).not.toThrow();
    expect(() =>
      verifyJwt(withOptions({ audience: ['a', 'b'] }), hsToken(claims({ aud: 'b' })), NOW_MS),
    ).not.toThrow();
  });

  it('checks the issuer when one is configured', () => {
    const config = withOptions({ issuer: 'https://hasura.com' });
    expect(() =>
      verifyJwt(config, hsToken(claims({ iss: 'https://hasura.com' })), NOW_MS),
    ).not.toThrow();
    rejects(
      () => verifyJwt(config, hsToken(claims({ iss: 'rubbish_issuer' })), NOW_MS),
      'Could not verify JWT: JWTNotInIssuer',
    );
    // Hasura matches the issuer before the signature
    rejects(
      () =>
        verifyJwt(
          config,
          signJwt(claims({ iss: 'rubbish_issuer' }), 'HS256', `${HS_SECRET}x`),
          NOW_MS,
        ),
      'Could not verify JWT: JWTNotInIssuer',
    );
    // a token without `iss` is not refused (jose)
    expect(() => verifyJwt(config, hsToken(claims()), NOW_MS)).not.toThrow();
  });
});

describe('createJwtVerifier: cache', () => {
  it('returns the cached verification for a repeated token', () => {
    const verifier = createJwtVerifier(hs256, { now: () => NOW_MS });
    const token = hsToken(claims());
    const first = verifier.verify(token);
    expect(verifier.verify(token)).toBe(first);
    expect(verifier.cacheSize).toBe(1);
    verifier.clearCache();
    expect(verifier.cacheSize).toBe(0);
    expect(verifier.verify(token)).not.toBe(first);
  });

  it('does not make an expired token valid', () => {
    let now = NOW_MS;
    const verifier = createJwtVerifier(hs256, { now: () => now });
    const token = hsToken(claims({ exp: NOW + 10 }));
    expect(verifier.verify(token).exp).toBe(NOW + 10);
    now = NOW_MS + 9_999;
    expect(verifier.verify(token).exp).toBe(NOW + 10);
    now = NOW_MS + 10_000;
    rejects(() => verifier.verify(token), 'Could not verify JWT: JWTExpired');
    expect(verifier.cacheSize).toBe(0);
    rejects(() => verifier.verify(token), 'Could not verify JWT: JWTExpired');
  });

  it('keeps honouring allowed_skew on a cache hit', () => {
    let now = NOW_MS;
    const verifier = createJwtVerifier(withOptions({ allowed_skew: 60 }), { now: () => now });
    const token = hsToken(claims({ exp: NOW + 10 }));
    verifier.verify(token);
    now = NOW_MS + 69_000;
    expect(() => verifier.verify(token)).not.toThrow();
    now = NOW_MS + 70_000;
    rejects(() => verifier.verify(token), 'Could not verify JWT: JWTExpired');
  });

  it('never caches a failure', () => {
    const verifier = createJwtVerifier(hs256, { now: () => NOW_MS });
    const bad = signJwt(claims(), 'HS256', `${HS_SECRET}x`);
    rejects(() => verifier.verify(bad), 'Could not verify JWT: JWSError JWSInvalidSignature');
    rejects(() => verifier.verify(bad), 'Could not verify JWT: JWSError JWSInvalidSignature');
    expect(verifier.cacheSize).toBe(0);
  });

  it('is bounded and evicts the least recently used token', () => {
    const verifier = createJwtVerifier(hs256, { cacheSize: 2, now: () => NOW_MS });
    const [a, b, c] = ['a', 'b', 'c'].map((sub) => hsToken(claims({ sub }))) as [
      string,
      string,
      string,
    ];
    const va = verifier.verify(a);
    const vb = verifier.verify(b);
    expect(verifier.verify(a)).toBe(va); // a is now the most recent
    verifier.verify(c); // evicts b
    expect(verifier.cacheSize).toBe(2);
    expect(verifier.verify(a)).toBe(va);
    expect(verifier.verify(b)).not.toBe(vb);
  });

  it('can be disabled', () => {
    const verifier = createJwtVerifier(hs256, { cacheSize: 0, now: () => NOW_MS });
    const token = hsToken(claims());
    expect(verifier.verify(token)).not.toBe(verifier.verify(token));
    expect(verifier.cacheSize).toBe(0);
  });
});

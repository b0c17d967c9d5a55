/**
 * Synchronous verification of compact JWS tokens with node:crypto, checked the way Hasura v2
 * (through the Haskell `jose` library) checks them, plus a bounded cache of verified tokens.
 *
 * Error messages are Hasura's: `Could not verify JWT: <jose error>` with code `invalid-jwt`.
 * The algorithm is pinned to the configured key type: `alg: none` and every other `alg` are
 * refused before any signature work.
 */
import { createHmac, hash, timingSafeEqual, verify as verifySignature } from 'node:crypto';

import { jsonTypeName } from '../json-type-name.ts';
import { HasuraError } from '../errors.ts';
import type { JwtConfig } from './jwt-config.ts';

/** A token that passed signature and claim checks. Treat it as read-only: it is shared. */
export interface VerifiedJwt {
  /** The whole payload (registered and private claims). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** `exp` in seconds since the epoch, when present. */
  readonly exp?: number | undefined;
  /** `nbf` in seconds since the epoch, when present. */
  readonly nbf?: number | undefined;
}

export interface JwtVerifier {
  /** Verifies `token` (no `Bearer ` prefix); throws HasuraError `invalid-jwt`. */
  verify(token: string): VerifiedJwt;
  /** Number of cached verified tokens. */
  readonly cacheSize: number;
  clearCache(): void;
}

export interface JwtVerifierOptions {
  /** Most verified tokens kept (least recently used evicted first). Default 10,000; 0 disables. */
  cacheSize?: number;
  /** Clock in milliseconds (tests). Default `Date.now`. */
  now?: () => number;
}

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
/** Raw `r || s` signature length of each ECDSA algorithm (JWS uses IEEE P1363, not DER). */
const ECDSA_SIG_BYTES: Record<string, number> = { ES256: 64, ES384: 96, ES512: 132 };

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function invalidJwt(detail: string): HasuraError {
  return new HasuraError('invalid-jwt', `Could not verify JWT: ${detail}`);
}

/** Aeson's name for a JSON value's type, as used in its "expected X, but encountered Y" errors. */

/** Shows a Haskell String (as `show` would) inside an error message. */
function hsShow(text: string): string {
  return JSON.stringify(text);
}

function decodeSegment(segment: string, what: string): Buffer {
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) {
    throw invalidJwt(
      `JWSError (JSONDecodeError ${hsShow(`Error in $: invalid base64url in ${what}`)})`,
    );
  }
  return Buffer.from(segment, 'base64url');
}

function claimsDecodeError(detail: string): HasuraError {
  return invalidJwt(`JWTClaimsSetDecodeError ${hsShow(detail)}`);
}

/** Checks the types jose gives the registered claims; `null` counts as absent. */
function checkRegisteredClaims(claims: Record<string, unknown>): void {
  const expect = (
    name: string,
    ok: (v: unknown) => boolean,
    parser: string,
    expected: string,
  ): void => {
    const v = claims[name];
    if (v === undefined || v === null || ok(v)) return;
    throw claimsDecodeError(
      `Error in $.${name}: parsing ${parser} failed, expected ${expected}, but encountered ${jsonTypeName(v)}`,
    );
  };
  const isString = (v: unknown) => typeof v === 'string';
  const isNumber = (v: unknown) => typeof v === 'number';
  expect('iss', isString, 'StringOrURI', 'String');
  expect('sub', isString, 'StringOrURI', 'String');
  expect(
    'aud',
    (v) => isString(v) || (Array.isArray(v) && v.every(isString)),
    'StringOrURI',
    'String',
  );
  expect('exp', isNumber, 'NumericDate', 'Number');
  expect('nbf', isNumber, 'NumericDate', 'Number');
  expect('iat', isNumber, 'NumericDate', 'Number');
  expect('jti', isString, 'Text', 'String');
}

function checkSignature(config: JwtConfig, signingInput: string, signature: Buffer): boolean {
  const alg = config.algorithm;
  try {
    if (alg.startsWith('HS')) {
      const expected = createHmac(HASH_OF[alg]!, config.key).update(signingInput).digest();
      // Lengths are public (fixed per algorithm); the comparison of the bytes is constant-time.
      return expected.length === signature.length && timingSafeEqual(expected, signature);
    }
    const data = Buffer.from(signingInput, 'latin1');
    if (alg === 'EdDSA') return verifySignature(null, data, config.key, signature);
    if (alg.startsWith('ES')) {
      if (signature.length !== ECDSA_SIG_BYTES[alg]) return false;
      return verifySignature(
        HASH_OF[alg],
        data,
        { key: config.key, dsaEncoding: 'ieee-p1363' },
        signature,
      );
    }
    return verifySignature(HASH_OF[alg], data, config.key, signature);
  } catch {
    return false;
  }
}

/** `exp` and `nbf` against the clock, with the configured skew. */
function checkTimes(
  config: JwtConfig,
  exp: number | undefined,
  nbf: number | undefined,
  nowMs: number,
): void {
  const now = nowMs / 1000;
  const skew = config.allowedSkewSeconds;
  // jose: valid while now < exp + skew, and from nbf - skew on.
  if (exp !== undefined && !(now < exp + skew)) throw invalidJwt('JWTExpired');
  if (nbf !== undefined && !(now >= nbf - skew)) throw invalidJwt('JWTNotYetValid');
}

/** Full verification without the cache. */
export function verifyJwt(
  config: JwtConfig,
  token: string,
  nowMs: number = Date.now(),
): VerifiedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw invalidJwt(
      `JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got ${parts.length})`,
    );
  }
  const [headerB64, payloadB64, signatureB64] = parts as [string, string, string];

  // Header: must be a JSON object naming the configured algorithm.
  let header: unknown;
  try {
    header = JSON.parse(decodeSegment(headerB64, 'protected header').toString('utf8'));
  } catch (error) {
    if (HasuraError.is(error)) throw error;
    throw invalidJwt(
      `JWSError (JSONDecodeError ${hsShow('protected header contains invalid JSON')})`,
    );
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) {
    throw invalidJwt(
      `JWSError (JSONDecodeError ${hsShow(`Error in $: expected Object, but encountered ${jsonTypeName(header)}`)})`,
    );
  }
  const { alg, crit } = header as Record<string, unknown>;
  if (typeof alg !== 'string') {
    throw invalidJwt(`JWSError (JSONDecodeError ${hsShow('Error in $: key "alg" not found')})`);
  }
  if (crit !== undefined) {
    // No JWS extension is understood here, so any critical one must be refused (RFC 7515 §4.1.11).
    throw invalidJwt(`JWSError (JSONDecodeError ${hsShow('unsupported "crit" header parameter')})`);
  }

  // Payload: decoded before the signature is checked, as jose does.
  let claims: unknown;
  try {
    claims = JSON.parse(decodeSegment(payloadB64, 'payload').toString('utf8'));
  } catch (error) {
    if (HasuraError.is(error)) throw error;
    throw claimsDecodeError('Error in $: Failed reading: not a valid json value');
  }

  // Hasura compares a configured issuer with the token's (unverified) `iss` before anything else.
  const iss = (claims as Record<string, unknown> | null)?.['iss'];
  if (config.issuer !== undefined && typeof iss === 'string' && iss !== config.issuer) {
    throw invalidJwt('JWTNotInIssuer');
  }

  // Pinned algorithm: `none` leaves jose with no signature to check; any other mismatch fails it.
  if (alg === 'none') throw invalidJwt('JWSError JWSNoSignatures');
  if (alg !== config.algorithm) throw invalidJwt('JWSError JWSInvalidSignature');
  const signature = decodeSegment(signatureB64, 'signature');
  if (!checkSignature(config, `${headerB64}.${payloadB64}`, signature)) {
    throw invalidJwt('JWSError JWSInvalidSignature');
  }

  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    throw claimsDecodeError(
      `Error in $: parsing JWT Claims Set failed, expected Object, but encountered ${jsonTypeName(claims)}`,
    );
  }
  const set = claims as Record<string, unknown>;
  checkRegisteredClaims(set);
  const exp = typeof set['exp'] === 'number' ? set['exp'] : undefined;
  const nbf = typeof set['nbf'] === 'number' ? set['nbf'] : undefined;
  checkTimes(config, exp, nbf, nowMs);

  // (`iss` was compared above; jose, like Hasura, lets a token without `iss` pass.)
  // jose: an absent `aud` passes; a present one must share a value with the configured list
  // (an empty list never does). Without a configured audience any value passes.
  const aud = set['aud'];
  if (aud !== undefined && aud !== null) {
    const auds = Array.isArray(aud) ? (aud as string[]) : [aud as string];
    const ok =
      config.audience === undefined
        ? auds.length > 0
        : auds.some((a) => config.audience!.includes(a));
    if (!ok) throw invalidJwt('JWTNotInAudience');
  }
  return Object.freeze({ claims: Object.freeze(set), exp, nbf });
}

/**
 * A verifier that remembers verified tokens, keyed by the SHA-256 of the token, until they
 * expire (bounded LRU). A hit re-checks `exp`/`nbf` against the clock, so the cache never
 * extends a token's life; failures are never cached.
 */
export function createJwtVerifier(
  config: JwtConfig,
  options: JwtVerifierOptions = {},
): JwtVerifier {
  const maxEntries = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, VerifiedJwt>();

  return {
    verify(token: string): VerifiedJwt {
      const nowMs = now();
      if (maxEntries <= 0) return verifyJwt(config, token, nowMs);
      const key = hash('sha256', token, 'base64');
      const hit = cache.get(key);
      if (hit !== undefined) {
        try {
          checkTimes(config, hit.exp, hit.nbf, nowMs);
        } catch (error) {
          cache.delete(key);
          throw error;
        }
        // Refresh its place in the LRU order.
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const verified = verifyJwt(config, token, nowMs);
      if (cache.size >= maxEntries) {
        const oldest = cache.keys().next();
        if (oldest.done !== true) cache.delete(oldest.value);
      }
      cache.set(key, verified);
      return verified;
    },
    get cacheSize() {
      return cache.size;
    },
    clearCache() {
      cache.clear();
    },
  };
}

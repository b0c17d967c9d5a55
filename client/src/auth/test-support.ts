import type { TokenStorage } from './tokens.ts';

/*
 * Helpers for the session's unit tests (no DOM here): an in-memory Storage and unsigned JWTs
 * with the claims the client reads.
 */

export function memoryStorage(initial: Record<string, string> = {}): TokenStorage & {
  data: Map<string, string>;
} {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT-shaped token (the signature is not checked by the client). */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.c2lnbmF0dXJl`;
}

/** An access token for `userId` issued at `nowMs`, living `ttlSeconds`. */
export function accessToken(userId: string, nowMs: number, ttlSeconds = 900): string {
  const iat = Math.floor(nowMs / 1000);
  return fakeJwt({ userId, sub: userId, iat, exp: iat + ttlSeconds });
}

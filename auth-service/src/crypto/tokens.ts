import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 256 random bits as base64url (43 characters): refresh tokens, tickets, reset tokens. */
export const newOpaqueToken = (): string => randomBytes(32).toString('base64url');

/** Only this is stored: a leaked table yields no usable token. */
export const sha256 = (token: string): Buffer => createHash('sha256').update(token).digest();

/** A 6-digit code, uniformly drawn (crypto.randomInt has no modulo bias). */
export const newLoginCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

/**
 * The stored form of an e-mailed code: HMAC under a server pepper, bound to the challenge row
 * and its purpose, so a copied hash is useless for another challenge and, without the pepper,
 * the 10^6 codes cannot be tried offline.
 */
export function codeHash(pepper: string, challengeId: string, purpose: string, code: string) {
  return createHmac('sha256', pepper).update(`${challengeId}\n${purpose}\n${code}`).digest();
}

/** Constant-time equality of two digests (lengths are fixed, so not secret). */
export const sameDigest = (a: Buffer, b: Buffer): boolean =>
  a.length === b.length && timingSafeEqual(a, b);

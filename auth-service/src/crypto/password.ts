import { randomBytes } from 'node:crypto';

import { hash, verify, type Options } from '@node-rs/argon2';

/*
 * argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1). The native binding hashes off the
 * event loop, so other requests keep flowing while it works. Why @node-rs/argon2 and not the
 * `argon2` package: docs/decisions/004-argon2-binding.md.
 */
const OWASP_ARGON2ID: Options = {
  // Algorithm.Argon2id; the package exports it as a const enum, which isolated modules
  // cannot read, so its value is spelled out (the test checks the PHC prefix).
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** Longest password accepted; bounds the work one request can ask for. */
export const MAX_PASSWORD_LENGTH = 128;

/*
 * Unicode passwords are compared in NFC, so "й" typed as one code point or as "и" + combining
 * breve is the same password (NIST SP 800-63B 5.1.1.2). ASCII is unchanged by it.
 */
const normalize = (password: string) => password.normalize('NFC');

/** A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`) for the users table. */
export function hashPassword(password: string): Promise<string> {
  return hash(normalize(password), OWASP_ARGON2ID);
}

/** Constant-time check of a password against a stored PHC string. */
export function verifyPassword(phcString: string, password: string): Promise<boolean> {
  return verify(phcString, normalize(password));
}

/**
 * Verifies against a throwaway hash and always fails: run when the e-mail is unknown or has
 * no password, so that answer takes as long as a wrong password for a real account.
 */
export function createDummyVerifier(): () => Promise<false> {
  const dummy = hashPassword(randomBytes(24).toString('base64url'));
  return async () => {
    await verify(await dummy, randomBytes(24).toString('base64url')).catch(() => false);
    return false;
  };
}

import argon2 from 'argon2';

/*
 * argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1): about 35 ms here. The native
 * binding hashes on libuv's thread pool, so the event loop stays free while it works.
 */
const OWASP_ARGON2ID = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Longest password accepted; bounds the work one request can ask for. */
export const MAX_PASSWORD_LENGTH = 128;

/** A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`) for the users table. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OWASP_ARGON2ID);
}

/** Constant-time check of a password against a stored PHC string. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return argon2.verify(hash, password);
}

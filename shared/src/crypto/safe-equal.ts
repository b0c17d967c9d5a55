import { timingSafeEqual } from 'node:crypto';

/*
 * Server-only (node:crypto): the one comparison of a shared secret a caller sent with the one
 * the service holds (the engine's action and event secrets, the metrics bearer).
 */

/**
 * Whether `given` is `expected`, compared in constant time so the time taken does not reveal
 * how much of a guess was right. A missing value never matches; only the length may leak.
 */
export function safeEqual(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

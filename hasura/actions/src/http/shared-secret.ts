import { timingSafeEqual } from 'node:crypto';

/** The header the engine sends with the secret (metadata: `value_from_env: ACTIONS_SECRET`). */
export const SECRET_HEADER = 'x-actions-secret';

/** Whether a request's secret is the expected one, compared in constant time. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

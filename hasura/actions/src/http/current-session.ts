import type pg from 'pg';

import { ActionFailure } from './errors.ts';
import { callerOf, type ActionPayload } from './payload.ts';

/*
 * Hasura checks an access token's signature and expiry, nothing else, so a token outlives a
 * logout, a reset, the owner's first proof of an unproven address and the account being
 * disabled by up to its 15 minutes. Every action called in a user's session therefore checks
 * what the token claims against the account now (docs/decisions/016-unproven-accounts-and-revocation.md):
 *
 * - the account exists and is not disabled;
 * - `x-hasura-session-epoch` is the account's current `session_epoch` (raised when every
 *   session ends at once: first proof, reset, logout everywhere, disabling);
 * - `x-hasura-session-id`, the sign-in, still has a live refresh token (a logout of that one
 *   session revokes them all).
 *
 * A token without the two claims was signed before they existed (the auth service adds them
 * to every token it signs), so it expires within 15 minutes of the change; it gets the
 * account checks only.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SESSION_ENDED = () =>
  new ActionFailure('invalid-jwt', 'Your session has ended. Please sign in again.', 400);

export async function checkCurrentSession(
  pool: Pick<pg.Pool, 'query'>,
  payload: ActionPayload,
): Promise<void> {
  const { userId } = callerOf(payload);
  if (userId === null) return;
  const variables = new Map(
    Object.entries(payload.session_variables).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const sessionId = variables.get('x-hasura-session-id');
  const epoch = variables.get('x-hasura-session-epoch');
  if (sessionId !== undefined && !UUID.test(sessionId)) throw SESSION_ENDED();
  if (epoch !== undefined && !/^\d{1,10}$/.test(epoch)) throw SESSION_ENDED();
  const { rows } = await pool.query<{ is_disabled: boolean; current: boolean }>(
    `SELECT u.is_disabled,
            ($2::int IS NULL OR u.session_epoch = $2::int)
            AND ($3::uuid IS NULL OR EXISTS (
                  SELECT 1 FROM auth.refresh_tokens t
                   WHERE t.family_id = $3::uuid AND t.user_id = u.id
                     AND t.revoked_at IS NULL AND t.expires_at > now())) AS current
       FROM public.portal_users u WHERE u.id = $1`,
    [userId, epoch ?? null, sessionId ?? null],
  );
  const account = rows[0];
  if (!account) throw SESSION_ENDED();
  if (account.is_disabled)
    throw new ActionFailure('user-disabled', 'This account is disabled.', 403);
  if (!account.current) throw SESSION_ENDED();
}

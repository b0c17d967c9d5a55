import type { Db, DbClient } from './index.ts';

/**
 * Refresh tokens: only their SHA-256 is stored. A family is one sign-in; every use rotates
 * the token inside its family, and presenting an already rotated token outside the grace
 * window revokes the whole family (docs/decisions/005 and the README).
 */

export interface SessionContext {
  userAgent: string | null;
  ip: string | null;
}

export interface IssuedRow {
  user_id: string;
  family_id: string;
  roles: string[];
  /** The account's session_epoch now: the access token carries it (decision 016). */
  session_epoch: number;
}

/** Seconds a rotated token may still be presented (racing tabs) before it counts as reuse. */
export const REUSE_GRACE_SECONDS = 10;

const ROLES_OF = `COALESCE((SELECT array_agg(r.role_type ORDER BY r.role_type)
                             FROM public.roles r WHERE r.user_id = i.user_id), '{}')`;
const EPOCH_OF = `(SELECT u.session_epoch FROM public.portal_users u WHERE u.id = i.user_id)`;

/** Starts a new family (a sign-in) and returns the user's roles, in one statement. */
export async function insertFamily(
  db: Db | DbClient,
  userId: string,
  tokenHash: Buffer,
  ttlSeconds: number,
  context: SessionContext,
): Promise<IssuedRow> {
  const { rows } = await db.query<IssuedRow>(
    `WITH i AS (
       INSERT INTO auth.refresh_tokens (user_id, family_id, token_hash, expires_at, user_agent, ip)
       VALUES ($1, gen_random_uuid(), $2, now() + make_interval(secs => $3), $4, $5)
       RETURNING user_id, family_id)
     SELECT i.user_id, i.family_id, ${ROLES_OF} AS roles, ${EPOCH_OF} AS session_epoch FROM i`,
    [userId, tokenHash, ttlSeconds, context.userAgent, context.ip],
  );
  return rows[0]!;
}

/**
 * The common case in one round trip: marks the presented token rotated, only if it is live
 * and its user enabled, and inserts its successor. Two concurrent calls with one token cannot
 * both succeed: the second UPDATE re-checks `rotated_at IS NULL` after the first commits.
 */
export async function rotate(
  db: Db,
  tokenHash: Buffer,
  nextHash: Buffer,
  ttlSeconds: number,
  context: SessionContext,
): Promise<IssuedRow | undefined> {
  const { rows } = await db.query<IssuedRow>(
    `WITH rotated AS (
       UPDATE auth.refresh_tokens t SET rotated_at = now()
         FROM public.portal_users u
        WHERE t.token_hash = $1 AND t.rotated_at IS NULL AND t.revoked_at IS NULL
          AND t.expires_at > now() AND u.id = t.user_id AND NOT u.is_disabled
       RETURNING t.user_id, t.family_id),
     i AS (
       INSERT INTO auth.refresh_tokens (user_id, family_id, token_hash, expires_at, user_agent, ip)
       SELECT user_id, family_id, $2, now() + make_interval(secs => $3), $4, $5 FROM rotated
       RETURNING user_id, family_id)
     SELECT i.user_id, i.family_id, ${ROLES_OF} AS roles, ${EPOCH_OF} AS session_epoch FROM i`,
    [tokenHash, nextHash, ttlSeconds, context.userAgent, context.ip],
  );
  return rows[0];
}

export type RefreshFailure = 'unknown' | 'revoked' | 'expired' | 'disabled' | 'reused';

/**
 * Why {@link rotate} found nothing, with the consequences applied in one transaction: a token
 * rotated within the grace window gets a sibling in its family (the other tab won the race);
 * one rotated earlier is a replay, and its family is revoked.
 */
export async function explainOrGrace(
  client: DbClient,
  tokenHash: Buffer,
  nextHash: Buffer,
  ttlSeconds: number,
  context: SessionContext,
): Promise<{ issued: IssuedRow } | { failure: RefreshFailure; familyId?: string }> {
  const { rows } = await client.query<{
    family_id: string;
    user_id: string;
    revoked: boolean;
    expired: boolean;
    disabled: boolean;
    rotated: boolean;
    in_grace: boolean;
  }>(
    `SELECT t.family_id, t.user_id, t.revoked_at IS NOT NULL AS revoked,
            t.expires_at <= now() AS expired, u.is_disabled AS disabled,
            t.rotated_at IS NOT NULL AS rotated,
            t.rotated_at > now() - make_interval(secs => $2) AS in_grace
       FROM auth.refresh_tokens t JOIN public.portal_users u ON u.id = t.user_id
      WHERE t.token_hash = $1
      FOR UPDATE OF t`,
    [tokenHash, REUSE_GRACE_SECONDS],
  );
  const row = rows[0];
  if (!row) return { failure: 'unknown' };
  if (row.revoked) return { failure: 'revoked' };
  if (row.disabled) {
    await revokeFamily(client, row.family_id);
    return { failure: 'disabled', familyId: row.family_id };
  }
  if (row.expired) return { failure: 'expired' };
  if (row.rotated && row.in_grace) {
    const issued = await client.query<IssuedRow>(
      `WITH i AS (
         INSERT INTO auth.refresh_tokens (user_id, family_id, token_hash, expires_at, user_agent, ip)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6)
         RETURNING user_id, family_id)
       SELECT i.user_id, i.family_id, ${ROLES_OF} AS roles, ${EPOCH_OF} AS session_epoch FROM i`,
      [row.user_id, row.family_id, nextHash, ttlSeconds, context.userAgent, context.ip],
    );
    return { issued: issued.rows[0]! };
  }
  if (row.rotated) {
    await revokeFamily(client, row.family_id);
    return { failure: 'reused', familyId: row.family_id };
  }
  // Live but not rotated: a concurrent request changed it between the two statements.
  return { failure: 'unknown' };
}

export async function revokeFamily(db: Db | DbClient, familyId: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE auth.refresh_tokens SET revoked_at = now()
      WHERE family_id = $1 AND revoked_at IS NULL`,
    [familyId],
  );
  return rowCount ?? 0;
}

/** The family of a presented token, whatever its state (for logout). */
export async function familyOf(db: Db, tokenHash: Buffer): Promise<string | undefined> {
  const { rows } = await db.query<{ family_id: string }>(
    'SELECT family_id FROM auth.refresh_tokens WHERE token_hash = $1',
    [tokenHash],
  );
  return rows[0]?.family_id;
}

/** Revokes every session of a user, except one family when given (password change). */
export async function revokeUserSessions(
  db: Db | DbClient,
  userId: string,
  exceptFamilyId?: string,
): Promise<void> {
  await db.query(
    `UPDATE auth.refresh_tokens SET revoked_at = now()
      WHERE user_id = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $2::uuid`,
    [userId, exceptFamilyId ?? null],
  );
}

import type { Db, DbClient } from './index.ts';

export const RESET_TTL_SECONDS = 3600;

/** Stores a new reset token for the user and invalidates any older unused one. */
export async function createResetToken(db: Db, userId: string, tokenHash: Buffer) {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `UPDATE auth.password_reset_tokens SET consumed_at = now()
        WHERE user_id = $1 AND consumed_at IS NULL`,
      [userId],
    );
    await client.query(
      `INSERT INTO auth.password_reset_tokens (user_id, token_hash, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [userId, tokenHash, RESET_TTL_SECONDS],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The account a live reset token belongs to, without using the token up. */
export async function peekResetToken(db: Db, tokenHash: Buffer) {
  const { rows } = await db.query<{ user_id: string; email: string | null }>(
    `SELECT t.user_id, u.email FROM auth.password_reset_tokens t
       JOIN public.portal_users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.consumed_at IS NULL AND t.expires_at > now()
        AND NOT u.is_disabled`,
    [tokenHash],
  );
  return rows[0];
}

/** Uses the token up, atomically; undefined when it was already used, expired or unknown. */
export async function consumeResetToken(client: DbClient, tokenHash: Buffer) {
  const { rows } = await client.query<{ user_id: string }>(
    `UPDATE auth.password_reset_tokens SET consumed_at = now()
      WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [tokenHash],
  );
  return rows[0];
}

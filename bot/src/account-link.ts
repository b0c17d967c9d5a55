import { createHash } from 'node:crypto';

import type { Pool } from './db.ts';

/*
 * /start link_<token> (issue 22, decision 037): the auth service gave a signed-in portal
 * account a one-time link into this bot; whoever opens it in a private chat becomes that
 * account's Telegram. The token is looked up by its SHA-256 (only that is stored), and is
 * consumed only when the link is made: every refusal leaves everything as it was.
 */

/** `link_` and 43 base64url characters (256 bits, the auth service's opaque tokens). */
const LINK = /^link_([A-Za-z0-9_-]{43})$/;

/** The token of a `/start` payload that is a link, else undefined. */
export function linkTokenOf(payload: string): string | undefined {
  return LINK.exec(payload)?.[1];
}

export type LinkOutcome =
  /** Bound now. */
  | 'done'
  /** This Telegram was this account's already (the token is used up all the same). */
  | 'already'
  /** Unknown, expired or used token, or an account that may not link (disabled, unproven). */
  | 'invalid'
  /** This Telegram has an account of its own with something in it. */
  | 'taken'
  /** The account has another Telegram (linked since the token was made). */
  | 'otherTelegram';

interface Telegram {
  id: number;
  username: string | null;
}

export async function linkTelegram(
  pool: Pool,
  token: string,
  from: Telegram,
): Promise<LinkOutcome> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const outcome = await link(client, token, from);
    await client.query(outcome === 'done' || outcome === 'already' ? 'COMMIT' : 'ROLLBACK');
    return outcome;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

type Client = Pick<Pool, 'query'>;

async function link(client: Client, token: string, from: Telegram): Promise<LinkOutcome> {
  const hash = createHash('sha256').update(token).digest();
  // Consumed first (a concurrent second use waits on the row, then finds it used); rolled
  // back with everything else when the link is refused.
  const consumed = await client.query<{ user_id: string }>(
    `UPDATE auth.telegram_link_tokens SET consumed_at = now()
      WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [hash],
  );
  const userId = consumed.rows[0]?.user_id;
  if (!userId) return 'invalid';
  const target = await client.query<{ telegram_id: string | null }>(
    `SELECT telegram_id::text FROM public.portal_users
      WHERE id = $1 AND NOT is_disabled AND is_verified_email FOR UPDATE`,
    [userId],
  );
  const account = target.rows[0];
  if (!account) return 'invalid';
  if (account.telegram_id === String(from.id)) return 'already';
  if (account.telegram_id !== null) return 'otherTelegram';

  const own = await client.query<{ id: string; empty: boolean }>(
    `SELECT u.id,
            u.email IS NULL AND NOT u.is_disabled
              AND NOT EXISTS (SELECT 1 FROM public.transactions t WHERE t.user_id = u.id)
              AND NOT EXISTS (SELECT 1 FROM public.roles r WHERE r.user_id = u.id) AS empty
       FROM public.portal_users u WHERE u.telegram_id = $1 FOR UPDATE`,
    [from.id],
  );
  const existing = own.rows[0];
  if (existing && !existing.empty) return 'taken';
  if (existing) {
    // Opened the mini-app once and nothing more: that account is set aside (no address, no
    // Telegram, disabled, which ends its sessions), so the mini-app opens the linked one.
    await client.query(
      `UPDATE public.portal_users SET telegram_id = NULL, telegram_username = NULL,
              is_disabled = true
        WHERE id = $1`,
      [existing.id],
    );
  }
  await client.query(
    'UPDATE public.portal_users SET telegram_id = $2, telegram_username = $3 WHERE id = $1',
    [userId, from.id, from.username],
  );
  return 'done';
}

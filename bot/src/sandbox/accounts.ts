import type pg from 'pg';

import type { Locale } from '@app/shared/i18n';

/*
 * The sandbox's accounts (docs/decisions/014-telegram-bot.md, issue 19 point 2). Inside the
 * sandbox anyone can present any Telegram id (the development bot token is public), so the
 * sandbox's demo users are ordinary accounts made for it and recorded in bot.sandbox_accounts,
 * as are the accounts the auth service creates from launch data signed with the development
 * token. The database refuses a staff role for any of them. When the stack starts without the
 * sandbox, none of them keeps a way in.
 */

type Pool = Pick<pg.Pool, 'query' | 'connect'>;

export interface SandboxTelegramUser {
  id: number;
  username?: string;
  locale: Locale;
}

/** What became of the sandbox's accounts when the stack started without it. */
export interface RemovedSandboxAccounts {
  /** Deleted with everything that was theirs alone. */
  deleted: number;
  /** Kept for their orders' or referrals' history, without a Telegram link, disabled. */
  disabled: number;
}

/**
 * Makes each demo user's account, or takes over the one an earlier sandbox made (one without an
 * e-mail, a password or a role), and records it as the sandbox's. Returns the ids it could not
 * use because a real account has them (the sandbox then opens nothing as that user).
 */
export async function ensureSandboxAccounts(
  pool: Pool,
  users: SandboxTelegramUser[],
): Promise<number[]> {
  const unusable: number[] = [];
  for (const user of users) {
    await pool.query(
      `INSERT INTO public.portal_users (telegram_id, telegram_username, locale)
       VALUES ($1, $2, $3)
       ON CONFLICT (telegram_id) DO NOTHING`,
      [user.id, user.username ?? null, user.locale],
    );
    const { rows } = await pool.query<{ marked: boolean }>(
      `WITH account AS (
         SELECT u.id FROM public.portal_users u
          WHERE u.telegram_id = $1 AND u.email IS NULL AND u.password_hash IS NULL
            AND NOT EXISTS (SELECT 1 FROM public.roles r WHERE r.user_id = u.id)
       ), marked AS (
         INSERT INTO bot.sandbox_accounts (user_id) SELECT id FROM account
         ON CONFLICT (user_id) DO NOTHING
       )
       SELECT EXISTS (SELECT 1 FROM account) AS marked`,
      [user.id],
    );
    if (!rows[0]?.marked) unusable.push(user.id);
  }
  return unusable;
}

/**
 * The stack starts without the sandbox: each sandbox account is deleted (its sessions, codes
 * and settings go with it), or, when orders or referrals must keep pointing at it, loses its
 * Telegram link and every session and is disabled. Then the record goes too; nothing of the
 * sandbox is left that could sign in.
 */
export async function removeSandboxAccounts(pool: Pool): Promise<RemovedSandboxAccounts> {
  const client = await pool.connect();
  const removed: RemovedSandboxAccounts = { deleted: 0, disabled: 0 };
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ user_id: string }>(
      'SELECT user_id FROM bot.sandbox_accounts ORDER BY user_id FOR UPDATE',
    );
    for (const { user_id: userId } of rows) {
      await client.query('SAVEPOINT sandbox_account');
      try {
        await client.query('DELETE FROM public.portal_users WHERE id = $1', [userId]);
        await client.query('RELEASE SAVEPOINT sandbox_account');
        removed.deleted += 1;
      } catch (error) {
        // Another table keeps the account (restrict_violation, foreign_key_violation): its
        // history stays, the way in goes.
        if (!['23001', '23503'].includes((error as { code?: string }).code ?? '')) throw error;
        await client.query('ROLLBACK TO SAVEPOINT sandbox_account');
        await client.query(
          `UPDATE public.portal_users
              SET telegram_id = NULL, telegram_username = NULL, is_disabled = true
            WHERE id = $1`,
          [userId],
        );
        await client.query(
          'UPDATE auth.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
          [userId],
        );
        removed.disabled += 1;
      }
    }
    await client.query('DELETE FROM bot.sandbox_accounts');
    await client.query('COMMIT');
    return removed;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

import type { Db, DbClient } from './index.ts';

/*
 * Joining a portal account and a Telegram account (issue 22, decision 037). The bot consumes
 * a link token (bot/src/account-link.ts); this service makes them, reports and undoes links,
 * and adds a proven e-mail to a Telegram account.
 */

/** How long a t.me/<bot>?start=link_<token> link works. */
export const LINK_TOKEN_TTL_SECONDS = 900;

/**
 * Stores a new link token's hash for the account; earlier unused tokens of the account stop
 * working (only the newest link shown works).
 */
export async function storeLinkToken(db: DbClient, userId: string, tokenHash: Buffer) {
  await db.query(
    `UPDATE auth.telegram_link_tokens SET consumed_at = now()
      WHERE user_id = $1 AND consumed_at IS NULL`,
    [userId],
  );
  await db.query(
    `INSERT INTO auth.telegram_link_tokens (user_id, token_hash, expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [userId, tokenHash, LINK_TOKEN_TTL_SECONDS],
  );
}

export interface TelegramLink {
  linked: boolean;
  username: string | null;
}

export async function telegramLinkOf(db: Db | DbClient, userId: string): Promise<TelegramLink> {
  const { rows } = await db.query<{ telegram_id: string | null; telegram_username: string | null }>(
    'SELECT telegram_id::text, telegram_username FROM public.portal_users WHERE id = $1',
    [userId],
  );
  const row = rows[0];
  return { linked: row?.telegram_id != null, username: row?.telegram_username ?? null };
}

/** Forgets the account's Telegram; false when it had none. Open link tokens go too. */
export async function unlinkTelegram(db: DbClient, userId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE public.portal_users SET telegram_id = NULL, telegram_username = NULL
      WHERE id = $1 AND telegram_id IS NOT NULL`,
    [userId],
  );
  await db.query(
    `UPDATE auth.telegram_link_tokens SET consumed_at = now()
      WHERE user_id = $1 AND consumed_at IS NULL`,
    [userId],
  );
  return rowCount === 1;
}

/** Whether any account has this address (any case), proven or not. */
export async function emailTaken(db: Db | DbClient, email: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM public.portal_users WHERE lower(email) = lower($1)',
    [email],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * The newest add-e-mail challenge of the account within the resend cooldown, after taking the
 * account's row lock (as lockAndFindRecent does for the other purposes), with its address.
 */
export async function lockAndFindRecentAddition(
  client: DbClient,
  userId: string,
  cooldownSeconds: number,
  maxAttempts: number,
) {
  await client.query('SELECT 1 FROM public.portal_users WHERE id = $1 FOR UPDATE', [userId]);
  const { rows } = await client.query<{
    id: string;
    email: string;
    live: boolean;
    retry_after: number;
  }>(
    `SELECT id, email,
            consumed_at IS NULL AND attempts < $3 AND expires_at > now() AS live,
            GREATEST(1, ceil(extract(epoch FROM created_at + make_interval(secs => $2) - now())))::int
              AS retry_after
       FROM auth.login_codes
      WHERE user_id = $1 AND purpose = 'add_email'
        AND created_at > now() - make_interval(secs => $2)
      ORDER BY created_at DESC LIMIT 1`,
    [userId, cooldownSeconds, maxAttempts],
  );
  return rows[0];
}

/** Invalidates the account's open add-e-mail challenges and stores a new one for `email`. */
export async function replaceAddition(
  client: DbClient,
  input: { id: string; userId: string; email: string; ticketHash: Buffer; codeHash: Buffer },
  ttlSeconds: number,
) {
  await client.query(
    `UPDATE auth.login_codes SET consumed_at = now()
      WHERE user_id = $1 AND purpose = 'add_email' AND consumed_at IS NULL`,
    [input.userId],
  );
  await client.query(
    `INSERT INTO auth.login_codes (id, user_id, purpose, email, ticket_hash, code_hash, expires_at)
     VALUES ($1, $2, 'add_email', $3, $4, $5, now() + make_interval(secs => $6))`,
    [input.id, input.userId, input.email, input.ticketHash, input.codeHash, ttlSeconds],
  );
}

export async function additionEmail(client: DbClient, challengeId: string) {
  const { rows } = await client.query<{ email: string }>(
    'SELECT email FROM auth.login_codes WHERE id = $1',
    [challengeId],
  );
  return rows[0]?.email;
}

/**
 * Gives an account without an address the proven `email`. False when the account has an address
 * by now, or another account took this one meanwhile. The database's first-proof reset does
 * not apply: the account had no address (migration 1763740802000_account_links).
 */
export async function setProvenEmail(client: DbClient, userId: string, email: string) {
  const { rowCount } = await client.query(
    `UPDATE public.portal_users SET email = $2, is_verified_email = true
      WHERE id = $1 AND email IS NULL
        AND NOT EXISTS (SELECT 1 FROM public.portal_users o WHERE lower(o.email) = lower($2))`,
    [userId, email],
  );
  return rowCount === 1;
}

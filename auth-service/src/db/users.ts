import type { Locale } from '#src/i18n';
import type { Db, DbClient } from './index.ts';

export interface UserRow {
  id: string;
  email: string | null;
  password_hash: string | null;
  is_2fa: boolean;
  is_disabled: boolean;
  is_verified_email: boolean;
  locale: Locale;
}

const USER_COLUMNS = 'id, email, password_hash, is_2fa, is_disabled, is_verified_email, locale';

export async function findUserByEmail(db: Db | DbClient, email: string) {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM public.portal_users WHERE lower(email) = lower($1)`,
    [email],
  );
  return rows[0];
}

export async function findUserById(db: Db | DbClient, id: string) {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM public.portal_users WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** A well-formed referral name, else null (an odd one is ignored, never an error). */
const referralName = (code: string | undefined): string | null =>
  code !== undefined && /^[A-Za-z0-9]{3,20}$/.test(code) ? code : null;

/**
 * The active account owning the referral name in `param` (case-insensitive), or NULL. A name
 * its owner has given up still credits them: links already shared keep working, and nobody
 * else can take the name (migration 1763740801200_retired_referral_names).
 */
const REFERRER_BY_NAME = (param: string) =>
  `(SELECT u.id FROM public.portal_users u
     WHERE ${param}::text IS NOT NULL AND NOT u.is_disabled
       AND (lower(u.referral_name) = lower(${param}::text)
            OR u.id = (SELECT r.user_id FROM public.retired_referral_names r
                        WHERE r.name_lower = lower(${param}::text))))`;

/**
 * Creates an e-mail account unless the e-mail is taken (any case); returns undefined then.
 * The referrer is whoever owns `referralCode` as their referral name (case-insensitive); an
 * unknown, malformed or disabled referrer is ignored. A new account cannot be its own referrer.
 */
export async function createEmailUser(
  db: Db,
  input: { email: string; passwordHash: string | null; locale: Locale; referralCode?: string },
) {
  const { rows } = await db.query<UserRow & { referrer_id: string | null }>(
    `INSERT INTO public.portal_users (email, password_hash, locale, referrer_id)
     VALUES ($1, $2, $3, ${REFERRER_BY_NAME('$4')})
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING ${USER_COLUMNS}, referrer_id`,
    [input.email, input.passwordHash, input.locale, referralName(input.referralCode)],
  );
  return rows[0];
}

/**
 * Finds the account of a Telegram user by id (never by username), creating it if needed. A
 * referral code counts only on creation (as for e-mail accounts): an existing account keeps its
 * referrer.
 */
export async function upsertTelegramUser(
  db: Db,
  input: { telegramId: number; username: string | null; locale: Locale; referralCode?: string },
) {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO public.portal_users (telegram_id, telegram_username, locale, referrer_id)
     VALUES ($1, $2, $3, ${REFERRER_BY_NAME('$4')})
     ON CONFLICT (telegram_id) DO UPDATE
       SET telegram_username = EXCLUDED.telegram_username
     RETURNING ${USER_COLUMNS}`,
    [input.telegramId, input.username, input.locale, referralName(input.referralCode)],
  );
  return rows[0]!;
}

export async function setPasswordHash(db: DbClient, userId: string, passwordHash: string) {
  await db.query('UPDATE public.portal_users SET password_hash = $2 WHERE id = $1', [
    userId,
    passwordHash,
  ]);
}

/**
 * How an address was first proven, which decides what of the unproven account survives
 * (docs/decisions/016-unproven-accounts-and-revocation.md). The database resets the rest
 * (the phrase, 2FA, the referral name) and ends every session (migration
 * 1763740801300_unproven_accounts).
 *
 * - `code`: a quick-auth code. The prover holds the mailbox but need not be whoever made the
 *   account, so a password chosen before goes, and the referrer is the one the proving request
 *   came with (recorded on the challenge), never the creator's.
 * - `password-and-code`: a code whose challenge needed the password, or that a session of the
 *   account asked for: the prover is the one who chose the password; both stay.
 * - `reset`: a reset link; the password is the one just set with it; the referrer goes.
 */
export type Proof =
  { kind: 'code'; challengeId: string } | { kind: 'password-and-code' } | { kind: 'reset' };

export async function markEmailVerified(db: DbClient, userId: string, proof: Proof) {
  const keepPassword = proof.kind !== 'code';
  const keepReferrer = proof.kind === 'password-and-code';
  await db.query(
    `UPDATE public.portal_users
        SET is_verified_email = true,
            password_hash = CASE WHEN $2 THEN password_hash END,
            referrer_id = CASE
              WHEN $3 THEN referrer_id
              ELSE (SELECT c.referrer_id FROM auth.login_codes c
                     WHERE c.id = $4::uuid AND c.referrer_id <> $1)
            END
      WHERE id = $1 AND NOT is_verified_email`,
    [userId, keepPassword, keepReferrer, proof.kind === 'code' ? proof.challengeId : null],
  );
}

/** The referrer a referral code names for `userId` (never the account itself), or null. */
export async function referrerFor(
  db: Db | DbClient,
  userId: string,
  referralCode: string | undefined,
): Promise<string | null> {
  const { rows } = await db.query<{ id: string | null }>(`SELECT ${REFERRER_BY_NAME('$1')} AS id`, [
    referralName(referralCode),
  ]);
  const id = rows[0]?.id ?? null;
  return id === userId ? null : id;
}

/**
 * Ends every session of the account at once: its refresh tokens are revoked, and raising the
 * epoch ends every access token already out (permissions and actions compare it).
 */
export async function endAllSessions(db: Db | DbClient, userId: string) {
  await db.query(
    `WITH revoked AS (
       UPDATE auth.refresh_tokens SET revoked_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL)
     UPDATE public.portal_users SET session_epoch = session_epoch + 1 WHERE id = $1`,
    [userId],
  );
}

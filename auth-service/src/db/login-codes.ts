import type { DbClient } from './index.ts';

/**
 * What a challenge is for; stored in auth.login_codes.purpose. `confirm_address` proves an
 * unproven account's address from its own session (and signs in, keeping its password);
 * `two_factor_on`/`_off` confirm a change of two-factor sign-in (the wanted state bound into
 * the code), never a sign-in; `add_email` proves an address a Telegram account adds (the address
 * waits on the challenge, decision 037). Each purpose has its own resend cooldown.
 */
export type CodePurpose =
  'login_2fa' | 'quick_auth' | 'confirm_address' | 'two_factor_on' | 'two_factor_off' | 'add_email';

/** The purposes whose codes open a session (POST /login_with_2fa). */
export const SIGN_IN_PURPOSES: readonly CodePurpose[] = [
  'login_2fa',
  'quick_auth',
  'confirm_address',
];

export const CODE_TTL_SECONDS = 600;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 60;

/**
 * Takes the per-user lock that serialises challenge creation, then reports the newest
 * challenge of that purpose sent within the cooldown, if any.
 */
export async function lockAndFindRecent(client: DbClient, userId: string, purpose: CodePurpose) {
  await client.query('SELECT 1 FROM public.portal_users WHERE id = $1 FOR UPDATE', [userId]);
  const { rows } = await client.query<{
    id: string;
    live: boolean;
    retry_after: number;
  }>(
    `SELECT id,
            consumed_at IS NULL AND attempts < $3 AND expires_at > now() AS live,
            GREATEST(1, ceil(extract(epoch FROM created_at + make_interval(secs => $4) - now())))::int
              AS retry_after
       FROM auth.login_codes
      WHERE user_id = $1 AND purpose = $2 AND created_at > now() - make_interval(secs => $4)
      ORDER BY created_at DESC LIMIT 1`,
    [userId, purpose, MAX_CODE_ATTEMPTS, RESEND_COOLDOWN_SECONDS],
  );
  return rows[0];
}

/** Gives a live challenge a new ticket (the old one stops working); the code stays the same. */
export async function rebindTicket(client: DbClient, id: string, ticketHash: Buffer) {
  await client.query('UPDATE auth.login_codes SET ticket_hash = $2 WHERE id = $1', [
    id,
    ticketHash,
  ]);
}

/** Invalidates every open challenge of the user for that purpose, then stores a new one. */
export async function replaceChallenge(
  client: DbClient,
  input: { id: string; userId: string; purpose: CodePurpose; ticketHash: Buffer; codeHash: Buffer },
) {
  await client.query(
    `UPDATE auth.login_codes SET consumed_at = now()
      WHERE user_id = $1 AND purpose = $2 AND consumed_at IS NULL`,
    [input.userId, input.purpose],
  );
  await client.query(
    `INSERT INTO auth.login_codes (id, user_id, purpose, ticket_hash, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [input.id, input.userId, input.purpose, input.ticketHash, input.codeHash, CODE_TTL_SECONDS],
  );
}

export async function deleteChallenge(client: DbClient, id: string) {
  await client.query('DELETE FROM auth.login_codes WHERE id = $1', [id]);
}

/**
 * Counts an attempt against a live challenge of one of `purposes` before the code is compared,
 * so parallel guesses cannot exceed the limit. Returns the challenge, or undefined when the
 * ticket is unknown, used, expired, out of attempts or for another purpose.
 */
export async function takeAttempt(
  client: DbClient,
  ticketHash: Buffer,
  purposes: readonly CodePurpose[] = SIGN_IN_PURPOSES,
) {
  const { rows } = await client.query<{
    id: string;
    user_id: string;
    purpose: CodePurpose;
    code_hash: Buffer;
    attempts: number;
  }>(
    `UPDATE auth.login_codes SET attempts = attempts + 1
      WHERE ticket_hash = $1 AND consumed_at IS NULL AND expires_at > now() AND attempts < $2
        AND purpose = ANY ($3::text[])
      RETURNING id, user_id, purpose, code_hash, attempts`,
    [ticketHash, MAX_CODE_ATTEMPTS, purposes],
  );
  return rows[0];
}

/** Marks the challenge used; false if someone else consumed it first. */
export async function consumeChallenge(client: DbClient, id: string): Promise<boolean> {
  const { rowCount } = await client.query(
    'UPDATE auth.login_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL',
    [id],
  );
  return rowCount === 1;
}

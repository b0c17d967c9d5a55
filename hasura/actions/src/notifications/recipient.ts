import type pg from 'pg';

/*
 * Where mail about an order goes: the address of the account that owns it, once that address
 * is proven (a mailed code or a reset link came back from it), and nowhere else. Never the
 * order form's free-text e-mail: anyone can type a stranger's address there, and the mail
 * then came from us (issue 19: the order mail as an open relay). Accounts without a proven
 * address (unproven e-mail accounts, Telegram accounts) get no order mail; the order page and
 * the bot tell them instead. docs/decisions/016-unproven-accounts-and-revocation.md.
 */
export async function orderRecipient(
  db: Pick<pg.Pool, 'query'>,
  userId: string | null,
): Promise<string | null> {
  if (userId === null) return null;
  const { rows } = await db.query<{ email: string }>(
    `SELECT email FROM public.portal_users
      WHERE id = $1 AND is_verified_email AND email IS NOT NULL AND NOT is_disabled`,
    [userId],
  );
  return rows[0]?.email ?? null;
}

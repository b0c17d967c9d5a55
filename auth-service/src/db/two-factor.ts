import { AuthError } from '#src/errors';
import type { Db, DbClient } from './index.ts';

/**
 * Sets two-factor sign-in; true when that changed it (an unchanged save sends no notice). The
 * database refuses turning it on for an unproven address (migration 1763740801300), which the
 * handler checks first; an address unproven meanwhile gets the same answer.
 */
export async function setTwoFactor(db: Db | DbClient, userId: string, enabled: boolean) {
  try {
    const { rowCount } = await db.query(
      'UPDATE public.portal_users SET is_2fa = $2 WHERE id = $1 AND is_2fa <> $2',
      [userId, enabled],
    );
    return rowCount === 1;
  } catch (error) {
    if ((error as { constraint?: unknown }).constraint === 'portal_users_email_confirmed_first') {
      throw new AuthError('two-factor-needs-email');
    }
    throw error;
  }
}

import type { Db, DbClient } from './index.ts';

/** Sets two-factor sign-in; true when that changed it (an unchanged save sends no notice). */
export async function setTwoFactor(db: Db | DbClient, userId: string, enabled: boolean) {
  const { rowCount } = await db.query(
    'UPDATE public.portal_users SET is_2fa = $2 WHERE id = $1 AND is_2fa <> $2',
    [userId, enabled],
  );
  return rowCount === 1;
}

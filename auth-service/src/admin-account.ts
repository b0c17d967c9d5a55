import type { Pool } from 'pg';

import { hashPassword } from './crypto/password.ts';

export interface AdminAccountInput {
  email: string;
  password: string;
}

/**
 * Makes sure the configured admin exists and holds the admin role. An existing account keeps
 * its password: the admin may have changed it since, and a restart must not undo that.
 * Returns whether the account was created.
 */
export async function ensureAdminAccount(pool: Pool, input: AdminAccountInput): Promise<boolean> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO public.portal_users (email, is_verified_email, password_hash, status)
       VALUES ($1, true, $2, 'new')
       ON CONFLICT ((lower(email))) DO NOTHING
       RETURNING id`,
      [email, passwordHash],
    );
    await client.query(
      `INSERT INTO public.roles (user_id, role_type)
       SELECT id, 'admin' FROM public.portal_users WHERE lower(email) = $1
       ON CONFLICT (user_id, role_type) DO NOTHING`,
      [email],
    );
    await client.query('COMMIT');
    return inserted.rowCount === 1;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

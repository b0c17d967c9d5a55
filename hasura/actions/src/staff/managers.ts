import type pg from 'pg';

import { inSession } from '../db/session.ts';
import { EMAIL, invalidInput, requiredText, requiredUuid } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';
import { requireAdministrator } from '../http/roles.ts';

/*
 * The console's managers page (administrators only, docs/decisions/007-graphql-roles.md):
 * appoint a manager by the e-mail they signed up with, and dismiss one. Administrators are never
 * appointed or dismissed here, and nobody dismisses themselves. Both are idempotent: asking for
 * what already holds answers `changed: false`.
 *
 * A role shows in the person's access token from their next sign-in or refresh: a dismissed
 * manager keeps the role until the access token they hold expires (AUTH_ACCESS_TOKEN_TTL).
 */

/** `ManagerRoleOutput`. */
export interface ManagerRole {
  userId: string;
  email: string | null;
  isManager: boolean;
  changed: boolean;
}

interface Account {
  id: string;
  email: string | null;
  is_disabled: boolean;
  roles: string[];
}

/** The account, its row locked so a grant and a revoke of one person take turns. */
async function lockAccount(
  client: pg.PoolClient,
  where: 'id' | 'email',
  value: string,
): Promise<Account | undefined> {
  const condition = where === 'id' ? 'u.id = $1' : 'lower(u.email) = lower($1)';
  const { rows } = await client.query<Account>(
    `SELECT u.id, u.email, u.is_disabled,
            COALESCE((SELECT array_agg(r.role_type ORDER BY r.role_type)
                        FROM public.roles r WHERE r.user_id = u.id), '{}') AS roles
       FROM public.portal_users u WHERE ${condition} FOR UPDATE OF u`,
    [value],
  );
  return rows[0];
}

function refuseAdministrator(account: Account, verb: 'grant' | 'revoke'): void {
  if (account.roles.includes('admin')) {
    throw new ActionFailure(
      'administrator',
      `${account.email ?? 'This user'} is an administrator; administrators' roles are not ${
        verb === 'grant' ? 'granted' : 'revoked'
      } in the console.`,
      400,
      { userId: account.id },
    );
  }
}

/** `grantManagerRole(email)`: the account with that e-mail (any case) becomes a manager. */
export async function grantManagerRole(options: ActionContext): Promise<ManagerRole> {
  const { caller, input } = options;
  requireAdministrator(caller);
  const email = requiredText(input, 'email', 254);
  if (!EMAIL.test(email)) throw invalidInput('email: Invalid email', 'email');

  return inSession(options.pool, options.sessionVariables, async (client) => {
    const account = await lockAccount(client, 'email', email);
    if (!account) {
      throw new ActionFailure(
        'user-not-found',
        `No account uses the e-mail ${email}. The person must sign up first.`,
        404,
        { field: 'email' },
      );
    }
    refuseAdministrator(account, 'grant');
    if (account.is_disabled) {
      throw new ActionFailure(
        'user-disabled',
        `The account ${account.email ?? email} is disabled; enable it before granting a role.`,
        400,
        { userId: account.id },
      );
    }
    const inserted = await client.query(
      `INSERT INTO public.roles (user_id, role_type) VALUES ($1, 'manager')
       ON CONFLICT (user_id, role_type) DO NOTHING`,
      [account.id],
    );
    return {
      userId: account.id,
      email: account.email,
      isManager: true,
      changed: inserted.rowCount === 1,
    };
  });
}

/** `revokeManagerRole(userId)`: the user is no longer a manager. */
export async function revokeManagerRole(options: ActionContext): Promise<ManagerRole> {
  const { caller, input } = options;
  requireAdministrator(caller);
  const userId = requiredUuid(input, 'userId');
  if (userId === caller.userId) {
    throw new ActionFailure('cannot-revoke-self', 'You cannot revoke your own role.', 400, {
      field: 'userId',
    });
  }

  return inSession(options.pool, options.sessionVariables, async (client) => {
    const account = await lockAccount(client, 'id', userId);
    if (!account) throw new ActionFailure('user-not-found', 'No such user.', 404);
    refuseAdministrator(account, 'revoke');
    const deleted = await client.query(
      `DELETE FROM public.roles WHERE user_id = $1 AND role_type = 'manager'`,
      [account.id],
    );
    return {
      userId: account.id,
      email: account.email,
      isManager: false,
      changed: deleted.rowCount === 1,
    };
  });
}

import { graphqlRequest } from '#app/graphql/request.ts';

/*
 * The signed-in person (spec section 3, User): loaded by GraphQL with the user's own token, the
 * id taken from the token's `userId`.
 */

export type StaffRole = 'admin' | 'manager';

export interface CurrentUser {
  id: string;
  email: string | null;
  isVerifiedEmail: boolean;
  createdAt: string;
  status: string;
  is2fa: boolean;
  referralName: string | null;
  /** The staff roles among the user's role types. */
  roles: StaffRole[];
}

export const CURRENT_USER_QUERY = /* GraphQL */ `
  query CurrentUser($userId: uuid!) {
    portal_users_by_pk(id: $userId) {
      id
      email
      is_verified_email
      created_at
      status
      is_2fa
      referral_name
      roles {
        role_type
      }
    }
  }
`;

interface PortalUserRow {
  id: string;
  email: string | null;
  is_verified_email: boolean;
  created_at: string;
  status: string;
  is_2fa: boolean;
  referral_name: string | null;
  roles: { role_type: string }[];
}

const isStaffRole = (value: string): value is StaffRole => value === 'admin' || value === 'manager';

export function toCurrentUser(row: PortalUserRow): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    isVerifiedEmail: row.is_verified_email,
    createdAt: row.created_at,
    status: row.status,
    is2fa: row.is_2fa,
    referralName: row.referral_name,
    roles: [...new Set(row.roles.map((role) => role.role_type).filter(isStaffRole))],
  };
}

/** Thrown when the token is fine but no user row comes back (deleted or not visible). */
export class CurrentUserMissingError extends Error {
  override name = 'CurrentUserMissingError';
}

export async function fetchCurrentUser(
  graphqlUrl: string,
  token: string,
  userId: string,
): Promise<CurrentUser> {
  const data = await graphqlRequest<{ portal_users_by_pk: PortalUserRow | null }>(
    graphqlUrl,
    CURRENT_USER_QUERY,
    { userId },
    { token },
  );
  if (!data.portal_users_by_pk) throw new CurrentUserMissingError('the current user was not found');
  return toCurrentUser(data.portal_users_by_pk);
}

export const SET_2FA_MUTATION = /* GraphQL */ `
  mutation SetTwoFactor($id: uuid!, $is2fa: Boolean!) {
    update_portal_users_by_pk(pk_columns: { id: $id }, _set: { is_2fa: $is2fa }) {
      id
      is_2fa
    }
  }
`;

/** Turns e-mail 2FA on or off for the signed-in user; resolves with the saved value. */
export async function saveTwoFactor(
  graphqlUrl: string,
  token: string,
  id: string,
  is2fa: boolean,
): Promise<boolean> {
  const data = await graphqlRequest<{
    update_portal_users_by_pk: { id: string; is_2fa: boolean } | null;
  }>(graphqlUrl, SET_2FA_MUTATION, { id, is2fa }, { token });
  if (!data.update_portal_users_by_pk)
    throw new CurrentUserMissingError('the user was not updated');
  return data.update_portal_users_by_pk.is_2fa;
}

export const isAdmin = (user: CurrentUser | null) => user?.roles.includes('admin') ?? false;
export const isManager = (user: CurrentUser | null) => user?.roles.includes('manager') ?? false;

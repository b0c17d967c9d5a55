import { CurrentUserDocument, type CurrentUserQuery } from '../graphql/generated/user.ts';
import { graphqlRequest } from '../graphql/request.ts';

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

type PortalUserRow = NonNullable<CurrentUserQuery['portal_users_by_pk']>;

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
  const data = await graphqlRequest(graphqlUrl, CurrentUserDocument, { userId }, { token });
  if (!data.portal_users_by_pk) throw new CurrentUserMissingError('the current user was not found');
  return toCurrentUser(data.portal_users_by_pk);
}

export const isAdmin = (user: CurrentUser | null) => user?.roles.includes('admin') ?? false;
export const isManager = (user: CurrentUser | null) => user?.roles.includes('manager') ?? false;

import { type CurrentUser, isAdmin, isManager } from '@app/client/auth/current-user.ts';

/*
 * Who may open which staff page. This is convenience only: the engine's permissions protect
 * the data (decision 007), and a page a person may not open shows "Page not found", as an
 * unknown address does, so it does not even say the page exists.
 */

/** Route handle of the staff pages only administrators may open. */
export interface StaffRouteHandle {
  adminOnly?: boolean;
}

export type StaffAccess = 'allowed' | 'sign-in' | 'not-found';

export function staffAccess(user: CurrentUser | null, adminOnly: boolean): StaffAccess {
  if (!user) return 'sign-in';
  if (isAdmin(user)) return 'allowed';
  return isManager(user) && !adminOnly ? 'allowed' : 'not-found';
}

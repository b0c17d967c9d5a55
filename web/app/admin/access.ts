import { type CurrentUser, isAdmin, isManager } from '@app/client/auth/current-user.ts';

/*
 * Who may open which staff page. This is convenience only: the engine's permissions protect
 * the data (decision 007). A signed-in person may not open a page of a role they lack sees
 * "No access" (403, decision 041): /admin is in the spec and in every browser's copy of the
 * routes, so hiding it behind "Page not found" protected nothing and told a customer who
 * followed a link the wrong thing.
 */

/** Route handle of the staff pages only administrators may open. */
export interface StaffRouteHandle {
  adminOnly?: boolean;
}

export type StaffAccess = 'allowed' | 'sign-in' | 'forbidden';

export function staffAccess(user: CurrentUser | null, adminOnly: boolean): StaffAccess {
  if (!user) return 'sign-in';
  if (isAdmin(user)) return 'allowed';
  return isManager(user) && !adminOnly ? 'allowed' : 'forbidden';
}

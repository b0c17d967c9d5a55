import { create } from 'zustand';

/*
 * The signed-in person as the interface needs it. Tokens and the current-user load arrive with
 * the auth screens; until then everyone is a visitor.
 */

export type StaffRole = 'admin' | 'manager';

export interface CurrentUser {
  id: string;
  email: string | null;
  roles: StaffRole[];
}

interface SessionState {
  user: CurrentUser | null;
  isLoggedIn: boolean;
}

export const useSession = create<SessionState>(() => ({ user: null, isLoggedIn: false }));

export const isAdmin = (user: CurrentUser | null) => user?.roles.includes('admin') ?? false;
export const isManager = (user: CurrentUser | null) => user?.roles.includes('manager') ?? false;

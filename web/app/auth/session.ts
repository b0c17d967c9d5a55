import { create } from 'zustand';

import type { SessionState } from '@app/client/auth/session-types.ts';
import { createSessionState } from '@app/client/auth/store.ts';
import { browserStorage } from '@app/client/auth/tokens.ts';
import { browserEnv } from '@app/client/env/public-env.ts';
import { DEFAULT_LOCALE, splitLocalePath } from '@app/shared/i18n';

import { loginPath } from './redirect.ts';
import { referralCodeFrom } from './referral.ts';

/*
 * The portal's one session, for the header, the auth pages and the GraphQL client. The store
 * logic is in store.ts; this module wires it to the browser: localStorage, the public env's
 * service URLs, the page's locale, the referral cookie and the router.
 *
 * On the server the store stays in its initial "visitor, not checked" state: nothing calls its
 * actions there, and SessionBridge starts it in the browser.
 */

export { isAdmin, isManager } from '@app/client/auth/current-user.ts';
export type { SessionState } from '@app/client/auth/session-types.ts';

type Navigate = (to: string) => void;
let navigator: Navigate | null = null;

/** Lets the router do the /login navigation (SessionBridge registers it); returns the undo. */
export function setAuthNavigator(navigate: Navigate): () => void {
  navigator = navigate;
  return () => {
    if (navigator === navigate) navigator = null;
  };
}

/** Spec section 8: a dead session goes to /login, in the page's locale, and comes back after. */
function goToLogin(): void {
  if (typeof window === 'undefined') return;
  const { pathname, search, hash } = window.location;
  const { locale, path } = splitLocalePath(pathname);
  // Already there (a wrong password answers 401 too): stay, the form shows the error.
  if (path === '/login') return;
  const target = loginPath(locale, `${pathname}${search}${hash}`);
  if (navigator) navigator(target);
  else window.location.assign(target);
}

export const useSession = create<SessionState>()(
  createSessionState({
    authUrl: () => browserEnv().PUBLIC_AUTH_URL,
    graphqlUrl: () => browserEnv().PUBLIC_GRAPHQL_URL,
    storage: browserStorage,
    locale: () =>
      typeof window === 'undefined'
        ? DEFAULT_LOCALE
        : splitLocalePath(window.location.pathname).locale,
    referralCode: () =>
      typeof document === 'undefined' ? undefined : referralCodeFrom(document.cookie),
    goToLogin,
  }),
);

/**
 * Quick auth for the create-transaction page: a new e-mail is signed in at once; a known one
 * answers `code-required` and the page shows the code step. The referral code
 * defaults to the referral_code cookie.
 */
export const quickAuth = (email: string, referralCode?: string) =>
  useSession.getState().quickAuth(email, referralCode);

/** A GraphQL call with the user's token, with the invalid-jwt rule (refresh once, then logout). */
export const withAccessToken = <T>(run: (token: string) => Promise<T>) =>
  useSession.getState().withAccessToken(run);

/** The auth service client for pages that call it directly (reset and change password). */
export const authApi = () => useSession.getState().api();

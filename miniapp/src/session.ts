import { useStore } from 'zustand';

import { DEFAULT_LOCALE, type Locale } from '@app/shared/i18n';
import type { SessionState } from '@app/web/app/auth/session-types.ts';
import { createSessionStore } from '@app/web/app/auth/store.ts';
import type { TokenStorage } from '@app/web/app/auth/tokens.ts';

import { browserEnv } from './env.ts';

/*
 * The mini-app's session: the portal's session store (tokens, refresh, the invalid-jwt rule),
 * signed in by Telegram's initData instead of a password. Tokens are kept under the spec's keys
 * (accessToken, refreshToken) in sessionStorage, not localStorage: a Telegram launch is one
 * session, and in development the portal's own sign-in on the same origin stays untouched.
 */

let locale: Locale = DEFAULT_LOCALE;
let onSessionLost: () => void = () => undefined;

export function setSessionLocale(next: Locale): void {
  locale = next;
}

/** What to do when the session dies (refresh refused): sign in again with Telegram's data. */
export function setSessionLostHandler(handler: () => void): void {
  onSessionLost = handler;
}

function sessionStorageOrNull(): TokenStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export const session = createSessionStore({
  authUrl: () => browserEnv().PUBLIC_AUTH_URL,
  graphqlUrl: () => browserEnv().PUBLIC_GRAPHQL_URL,
  storage: sessionStorageOrNull,
  locale: () => locale,
  // The deep link's referral code is passed to telegramAuth itself.
  referralCode: () => undefined,
  goToLogin: () => onSessionLost(),
});

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(session, selector);
}

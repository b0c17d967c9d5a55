import { useStore } from 'zustand';

import { DEFAULT_LOCALE, type Locale } from '@app/shared/i18n';
import type { SessionState } from '@app/client/auth/session-types.ts';
import { createSessionStore } from '@app/client/auth/store.ts';
import { clearTokens, readTokens, type TokenStorage } from '@app/client/auth/tokens.ts';

import { browserEnv } from './env.ts';

/*
 * The mini-app's session: the portal's session store (tokens, refresh, the invalid-jwt rule),
 * signed in by Telegram's initData instead of a password. Tokens are kept under the spec's keys
 * (accessToken, refreshToken) in sessionStorage, not localStorage: a Telegram launch is one
 * session, and in development the portal's own sign-in on the same origin stays untouched.
 * Beside them, the Telegram user the session was issued for: Telegram Web opens every launch in
 * the same tab, so the next launch may be another person's (issue 19, point 7f).
 */

/** The sessionStorage key of the Telegram user id the stored session belongs to. */
export const SESSION_OWNER_KEY = 'telegramUserId';

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

/** The Telegram user id the stored session was issued for, if any. */
export function storedSessionOwner(): string | null {
  try {
    return sessionStorageOrNull()?.getItem(SESSION_OWNER_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Records whose session is stored: the launch's Telegram user, once signed in as them. */
export function recordSessionOwner(telegramUserId: string | undefined): void {
  try {
    const storage = sessionStorageOrNull();
    if (telegramUserId) storage?.setItem(SESSION_OWNER_KEY, telegramUserId);
    else storage?.removeItem(SESSION_OWNER_KEY);
  } catch {
    // Not stored: the next launch signs in afresh.
  }
}

/**
 * Drops a stored session that is not this launch's: its tokens, its owner, anything the session
 * holds in memory (and the caches that listen to it), and the sign-in on the auth service.
 */
export function discardStoredSession(): void {
  const storage = sessionStorageOrNull();
  const stored = readTokens(storage);
  session.getState().logout({ remote: false });
  clearTokens(storage);
  recordSessionOwner(undefined);
  if (stored?.refreshToken) {
    session
      .getState()
      .api()
      .logout(stored.refreshToken)
      .catch(() => undefined);
  }
}

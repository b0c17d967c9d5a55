import type { Locale } from '@app/shared/i18n';

import { GraphqlRequestError } from '../graphql/request.ts';

import { AuthApiError, type AuthApi } from './api.ts';
import type { CurrentUser } from './current-user.ts';
import type { TokenStorage } from './tokens.ts';

/* The session store's public shapes (store.ts holds the behaviour). */

export type AuthChangeEvent =
  | { type: 'login'; resetCache: boolean }
  | { type: 'logout'; resetCache: boolean }
  /** Same user, new access token (silent refresh, or another tab's). */
  | { type: 'refresh' };
export type AuthChangeListener = (event: AuthChangeEvent) => void;

/** A sign-in waiting for the 6-digit code mailed to `email`. */
export interface Challenge {
  ticket: string;
  email: string;
  /** `sign-up`: the address already had an account; the code signs in to it. */
  purpose: 'login' | 'quick-auth' | 'sign-up';
}

/** A failure as forms need it: the code (service or client) and the field it concerns. */
export interface AuthFailure {
  code: string;
  field?: string;
  retryAfter?: number;
}

export type SignInResult = { status: 'signed-in' } | { status: 'code-required' };

export interface AuthChangeOptions {
  /** Keep the data cache (subscriptions still restart). */
  skipReset?: boolean;
}

export interface RegisterInput {
  email: string;
  password: string;
  confirmPassword?: string;
  referralCode?: string;
}

export interface SessionState {
  accessToken: string | null;
  refreshToken: string | null;
  user: CurrentUser | null;
  isLoggedIn: boolean;
  /** The page's first session check is over (no token, or the user loaded or not). */
  checked: boolean;
  /** A sign-in request (and the user load after it) is running. */
  loading: boolean;
  /** The last login, code or quick-auth failure (spec section 8). */
  error: AuthFailure | null;
  challenge: Challenge | null;

  /** Reads the stored tokens and loads the current user; once per page. */
  init(): Promise<void>;
  login(email: string, password: string, options?: AuthChangeOptions): Promise<SignInResult>;
  /** Second step of login or quick-auth: the mailed code for the pending challenge. */
  loginWith2fa(code: string, options?: AuthChangeOptions): Promise<void>;
  /** E-mail only: a new e-mail is signed in at once, a known one gets a code (a challenge). */
  quickAuth(
    email: string,
    referralCode?: string,
    options?: AuthChangeOptions,
  ): Promise<SignInResult>;
  /**
   * Telegram quick-auth (the mini-app): the raw initData Telegram launched it with. A failure
   * stays in `error` like a login's.
   */
  telegramAuth(initData: string, referralCode?: string, options?: AuthChangeOptions): Promise<void>;
  /**
   * A new address is signed in at once; a known one gets a mailed code (`code-required`, the
   * challenge set) and the password is not applied. Failures only reset the loading flag.
   */
  register(input: RegisterInput, options?: AuthChangeOptions): Promise<SignInResult>;
  /** Clears tokens and user; `remote: false` skips revoking the sign-in on the service. */
  logout(options?: AuthChangeOptions & { remote?: boolean }): void;
  cancelChallenge(): void;
  /** Loads (or reloads) the current user; rejects, with `isLoggedIn` false, on failure. */
  loadCurrentUser(): Promise<CurrentUser>;
  /** A new access token from the refresh token (one request at a time); null on failure. */
  refresh(): Promise<string | null>;
  /** The access token, refreshed first when it is about to expire; null when signed out. */
  getAccessToken(): Promise<string | null>;
  /**
   * Runs a GraphQL call with the user's token. On `invalid-jwt` it refreshes once and retries;
   * when that does not help, the session ends and the page goes to /login.
   */
  withAccessToken<T>(run: (token: string) => Promise<T>): Promise<T>;
  /** Updates the loaded user after a change the page saved (settings). */
  setUser(patch: Partial<CurrentUser>): void;
  /** Follows a change another tab made to the stored tokens. */
  syncFromStorage(): void;
  /** Subscribes to login/logout/refresh; returns the unsubscribe function. */
  onAuthChange(listener: AuthChangeListener): () => void;
  /** The auth service client this session uses (reset and change password pages). */
  api(): AuthApi;
}

export interface SessionDeps {
  authUrl: () => string;
  graphqlUrl: () => string;
  storage: () => TokenStorage | null;
  locale: () => Locale;
  /** The referral code to send on register and quick-auth (the referral_code cookie). */
  referralCode: () => string | undefined;
  /** Sends the page to /login (after a 401 or a dead session). */
  goToLogin: () => void;
  now?: () => number;
  /** setTimeout, returning its cancel function (tests pass fake timers). */
  setTimer?: (run: () => void, ms: number) => () => void;
  fetch?: typeof fetch;
}

export function toFailure(error: unknown): AuthFailure {
  if (AuthApiError.is(error)) {
    return { code: error.code, field: error.field, retryAfter: error.retryAfter };
  }
  if (GraphqlRequestError.is(error)) return { code: error.code ?? 'graphql-error' };
  if (error instanceof TypeError) return { code: 'network-error' };
  return { code: 'unknown' };
}

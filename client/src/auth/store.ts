import { createStore, type StateCreator } from 'zustand/vanilla';

import { GraphqlRequestError } from '../graphql/request.ts';

import { AuthApiError, createAuthApi, type AuthApi, type LoginAnswer } from './api.ts';
import { CurrentUserMissingError, fetchCurrentUser } from './current-user.ts';
import {
  toFailure,
  type AuthChangeEvent,
  type AuthChangeListener,
  type AuthChangeOptions,
  type Challenge,
  type SessionDeps,
  type SessionState,
  type SignInResult,
} from './session-types.ts';
import {
  clearTokens,
  isExpired,
  readTokens,
  refreshDelay,
  tokenUserId,
  writeTokens,
  type Tokens,
} from './tokens.ts';

/*
 * The session (spec sections 4 and 8): tokens, the current user and the sign-in flows, as a
 * zustand store. Rules kept here:
 * - tokens live in storage under accessToken/refreshToken; a stored access token counts only
 *   with three parts;
 * - `isLoggedIn` is true after a successful current-user load and false after a failed one;
 * - login and quick-auth failures stay in `error`; other failures only reset `loading`;
 * - after login or logout, listeners (the GraphQL client) restart their subscriptions and reset
 *   their cache unless the caller asked to skip the reset;
 * - any 401 from the auth service, or an `invalid-jwt` that one refresh does not cure, ends the
 *   session and goes to /login;
 * - the access token is refreshed shortly before it expires.
 */

/** The data of a signed-out session, not yet checked. */
const SIGNED_OUT = {
  accessToken: null,
  refreshToken: null,
  user: null,
  isLoggedIn: false,
  checked: false,
  loading: false,
  error: null,
  challenge: null,
} satisfies Partial<SessionState>;

/** A token this close to expiry is refreshed before use. */
const MIN_VALIDITY_MS = 10_000;
/** A failed refresh (network, 5xx) is tried again after this long. */
const REFRESH_RETRY_MS = 30_000;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2_147_483_647;

const isInvalidJwt = (error: unknown) =>
  GraphqlRequestError.is(error) && error.code === 'invalid-jwt';

export function createSessionState(deps: SessionDeps): StateCreator<SessionState> {
  const now = deps.now ?? Date.now;
  const setTimer =
    deps.setTimer ??
    ((run: () => void, ms: number) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    });

  return (set, get) => {
    const listeners = new Set<AuthChangeListener>();
    /** Bumped on every sign-in and sign-out, so late answers of an old session are dropped. */
    let epoch = 0;
    let refreshing: Promise<string | null> | null = null;
    let cancelTimer: (() => void) | null = null;
    let initializing: Promise<void> | null = null;
    let api: AuthApi | null = null;

    const authApi = () =>
      (api ??= createAuthApi({
        baseUrl: deps.authUrl(),
        getAccessToken: () => get().accessToken,
        getLocale: deps.locale,
        onUnauthorized: () => {
          // Spec section 8: a 401 removes the tokens and goes to /login.
          endSession({});
          deps.goToLogin();
        },
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      }));

    const emit = (event: AuthChangeEvent) => {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // A listener's failure must not break the session.
        }
      }
    };

    const stopTimer = () => {
      cancelTimer?.();
      cancelTimer = null;
    };

    const scheduleRefresh = (accessToken: string, delay = refreshDelay(accessToken, now())) => {
      stopTimer();
      if (delay === undefined) return;
      cancelTimer = setTimer(
        () => {
          cancelTimer = null;
          void get().refresh();
        },
        Math.min(delay, MAX_TIMER_MS),
      );
    };

    /** Ends the session locally; says whether there was one. */
    const endSession = (options: AuthChangeOptions): boolean => {
      const state = get();
      const had = state.accessToken !== null || state.refreshToken !== null || state.user !== null;
      epoch += 1;
      stopTimer();
      clearTokens(deps.storage());
      set({ ...SIGNED_OUT, checked: true });
      if (had) emit({ type: 'logout', resetCache: !options.skipReset });
      return had;
    };

    /** The session is beyond repair (invalid-jwt after a refresh): log out, go to /login. */
    const sessionDead = () => {
      if (endSession({})) deps.goToLogin();
    };

    const applyTokens = (tokens: Tokens, options: AuthChangeOptions) => {
      epoch += 1;
      writeTokens(deps.storage(), tokens);
      set({
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        challenge: null,
        error: null,
      });
      scheduleRefresh(tokens.accessToken);
      emit({ type: 'login', resetCache: !options.skipReset });
    };

    const finishSignIn = async (tokens: Tokens, options: AuthChangeOptions) => {
      applyTokens(tokens, options);
      await get().loadCurrentUser();
    };

    const signIn = async (
      request: () => Promise<LoginAnswer>,
      email: string,
      purpose: Challenge['purpose'],
      options: AuthChangeOptions,
    ): Promise<SignInResult> => {
      set({ loading: true, error: null });
      try {
        const answer = await request();
        if (answer.is2fa) {
          set({ loading: false, challenge: { ticket: answer.token, email, purpose } });
          return { status: 'code-required' };
        }
        await finishSignIn(answer, options);
        set({ loading: false });
        return { status: 'signed-in' };
      } catch (error) {
        set({ loading: false, error: toFailure(error) });
        throw error;
      }
    };

    return {
      ...SIGNED_OUT,

      init() {
        initializing ??= (async () => {
          const stored = readTokens(deps.storage());
          if (!stored) {
            // Missing or not three parts: not authenticated (spec section 4).
            clearTokens(deps.storage());
            set({ checked: true });
            return;
          }
          set({ accessToken: stored.accessToken, refreshToken: stored.refreshToken });
          scheduleRefresh(stored.accessToken);
          await get()
            .loadCurrentUser()
            .catch(() => undefined);
        })();
        return initializing;
      },

      login(email, password, options = {}) {
        return signIn(() => authApi().login(email, password), email, 'login', options);
      },

      quickAuth(email, referralCode, options = {}) {
        const code = referralCode ?? deps.referralCode();
        return signIn(() => authApi().quickAuth(email, code), email, 'quick-auth', options);
      },

      async loginWith2fa(code, options = {}) {
        const challenge = get().challenge;
        set({ loading: true, error: null });
        try {
          if (!challenge) throw new AuthApiError('invalid-ticket', 400, 'no code was requested');
          const tokens = await authApi().loginWith2fa(challenge.ticket, code);
          await finishSignIn(tokens, options);
          set({ loading: false });
        } catch (error) {
          const failure = toFailure(error);
          // A dead ticket cannot take another code: back to the first step.
          set({
            loading: false,
            error: failure,
            ...(failure.code === 'invalid-ticket' ? { challenge: null } : {}),
          });
          throw error;
        }
      },

      async telegramAuth(initData, referralCode, options = {}) {
        set({ loading: true, error: null });
        try {
          await finishSignIn(await authApi().telegramAuth(initData, referralCode), options);
          set({ loading: false });
        } catch (error) {
          set({ loading: false, error: toFailure(error) });
          throw error;
        }
      },

      async register(input, options = {}) {
        set({ loading: true });
        try {
          const referralCode = input.referralCode ?? deps.referralCode();
          const answer = await authApi().register({
            ...input,
            ...(referralCode ? { referralCode } : {}),
          });
          if (answer.is2fa) {
            set({ challenge: { ticket: answer.token, email: input.email, purpose: 'sign-up' } });
            return { status: 'code-required' };
          }
          await finishSignIn(answer, options);
          return { status: 'signed-in' };
        } finally {
          set({ loading: false });
        }
      },

      logout(options = {}) {
        const refreshToken = get().refreshToken;
        endSession(options);
        if (options.remote !== false && refreshToken) {
          // Revokes the sign-in on the service; the local logout does not wait for it.
          authApi()
            .logout(refreshToken)
            .catch(() => undefined);
        }
      },

      cancelChallenge() {
        set({ challenge: null, error: null });
      },

      async loadCurrentUser() {
        const started = epoch;
        try {
          const user = await get().withAccessToken((token) => {
            const userId = tokenUserId(token);
            if (!userId) throw new CurrentUserMissingError('the access token carries no userId');
            return fetchCurrentUser(deps.graphqlUrl(), token, userId);
          });
          if (started === epoch) set({ user, isLoggedIn: true, checked: true });
          return user;
        } catch (error) {
          if (started === epoch) set({ user: null, isLoggedIn: false, checked: true });
          throw error;
        }
      },

      refresh() {
        refreshing ??= (async (): Promise<string | null> => {
          const started = epoch;
          const storage = deps.storage();
          const state = get();
          const stored = readTokens(storage);
          if (storage && !stored) {
            // Another tab logged out.
            endSession({});
            return null;
          }
          if (
            stored &&
            stored.accessToken !== state.accessToken &&
            !isExpired(stored.accessToken, now(), MIN_VALIDITY_MS)
          ) {
            // Another tab refreshed already (they share storage): take its tokens.
            set({ accessToken: stored.accessToken, refreshToken: stored.refreshToken });
            scheduleRefresh(stored.accessToken);
            emit({ type: 'refresh' });
            return stored.accessToken;
          }
          const refreshToken = stored?.refreshToken ?? state.refreshToken;
          if (!refreshToken) return null;
          try {
            const tokens = await authApi().refreshTokens(refreshToken);
            if (started !== epoch) return null;
            writeTokens(storage, tokens);
            set({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
            scheduleRefresh(tokens.accessToken);
            emit({ type: 'refresh' });
            return tokens.accessToken;
          } catch (error) {
            // A 401 has ended the session already (onUnauthorized); anything else is retried.
            const unauthorized = AuthApiError.is(error) && error.status === 401;
            if (!unauthorized && started === epoch) {
              const current = get().accessToken;
              if (current) scheduleRefresh(current, REFRESH_RETRY_MS);
            }
            return null;
          }
        })().finally(() => {
          refreshing = null;
        });
        return refreshing;
      },

      async getAccessToken() {
        const token = get().accessToken;
        if (!token) return null;
        if (!isExpired(token, now(), MIN_VALIDITY_MS)) return token;
        return get().refresh();
      },

      async withAccessToken(run) {
        const token = await get().getAccessToken();
        if (!token) throw new AuthApiError('invalid-access-token', 401, 'not signed in');
        try {
          return await run(token);
        } catch (error) {
          if (!isInvalidJwt(error)) throw error;
          const fresh = await get().refresh();
          if (!fresh) {
            sessionDead();
            throw error;
          }
          try {
            return await run(fresh);
          } catch (again) {
            if (isInvalidJwt(again)) sessionDead();
            throw again;
          }
        }
      },

      setUser(patch) {
        const user = get().user;
        if (user) set({ user: { ...user, ...patch } });
      },

      syncFromStorage() {
        const stored = readTokens(deps.storage());
        const state = get();
        if (!stored) {
          if (state.accessToken) endSession({});
          return;
        }
        if (stored.accessToken === state.accessToken) {
          if (stored.refreshToken !== state.refreshToken)
            set({ refreshToken: stored.refreshToken });
          return;
        }
        const sameUser =
          state.accessToken !== null &&
          tokenUserId(state.accessToken) === tokenUserId(stored.accessToken);
        set({ accessToken: stored.accessToken, refreshToken: stored.refreshToken });
        scheduleRefresh(stored.accessToken);
        if (sameUser) {
          emit({ type: 'refresh' });
          return;
        }
        // Another tab signed in (perhaps as someone else): reload the user and reset caches.
        epoch += 1;
        set({ challenge: null, error: null });
        emit({ type: 'login', resetCache: true });
        get()
          .loadCurrentUser()
          .catch(() => undefined);
      },

      onAuthChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },

      api: authApi,
    };
  };
}

/** A vanilla store (tests, or a second session such as the mini-app's). */
export function createSessionStore(deps: SessionDeps) {
  return createStore<SessionState>()(createSessionState(deps));
}

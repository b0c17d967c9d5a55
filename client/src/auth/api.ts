import type { Locale } from '@app/shared/i18n';

import type { Tokens } from './tokens.ts';

/*
 * The auth service client (spec section 7, README "Auth service"): JSON POSTs sent with
 * credentials and, when a token is stored, `Authorization: Bearer …`. Failures become
 * AuthApiError with the service's code; any 401 is also reported to `onUnauthorized` first
 * (spec section 8: tokens removed, go to /login).
 */

export type LoginAnswer = ({ is2fa: false } & Tokens) | { is2fa: true; token: string };
export type TokensAnswer = { is2fa: false } & Tokens;
export interface OkAnswer {
  ok: true;
}

/** Codes the client adds to the service's catalog. */
export type ClientErrorCode = 'network-error' | 'invalid-response';

const BRAND = Symbol.for('web.AuthApiError');

/** A failed auth call: the service's `{ code, message, field? }`, or a client-side code. */
export class AuthApiError extends Error {
  override name = 'AuthApiError';
  readonly [BRAND] = true;
  constructor(
    /** The service's error code (`invalid-email-password`, …) or a ClientErrorCode. */
    readonly code: string,
    /** HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    message: string,
    /** The request field the error is about (form errors). */
    readonly field?: string,
    /** Seconds to wait before retrying (429). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  static is(error: unknown): error is AuthApiError {
    return typeof error === 'object' && error !== null && BRAND in error;
  }
}

export interface AuthApiOptions {
  /** The service's origin (PUBLIC_AUTH_URL). */
  baseUrl: string;
  /** The stored access token, if any. */
  getAccessToken: () => string | null;
  /** The page's locale, sent as `locale` so mails and messages use it. */
  getLocale: () => Locale;
  /** Called on every 401, before the call rejects. */
  onUnauthorized: (error: AuthApiError) => void;
  fetch?: typeof fetch;
}

export interface ChangePasswordInput {
  password: string;
  confirmPassword?: string;
  /** The reset link's token; without it the call is the signed-in change. */
  token?: string;
  currentPassword?: string;
}

/** POST /two-factor: the wanted state, and the password or the mailed code's ticket and code. */
export interface TwoFactorInput {
  enabled: boolean;
  password?: string;
  token?: string;
  code?: string;
}

/** Saved (`ok`), or a code was mailed: send it back with `token` (accounts without a password). */
export type TwoFactorAnswer = { ok: true; enabled: boolean } | { is2fa: true; token: string };

/** POST /telegram-link: a one-time link into the bot (decision 037). */
export interface TelegramLinkAnswer {
  url: string;
  /** Seconds the link works. */
  expiresIn: number;
}

export interface TelegramLinkStatus {
  linked: boolean;
  username: string | null;
}

/** POST /add-email: an address (a code is mailed to it), then the ticket and the code. */
export type AddEmailInput = { email: string } | { token: string; code: string };
export type AddEmailAnswer = { is2fa: true; token: string } | { ok: true; email: string };

export interface AuthApi {
  login(email: string, password: string): Promise<LoginAnswer>;
  loginWith2fa(token: string, code: string): Promise<TokensAnswer>;
  quickAuth(email: string, referralCode?: string): Promise<LoginAnswer>;
  /** The mini-app's sign-in: Telegram's raw initData, and the deep link's referral code. */
  telegramAuth(initData: string, referralCode?: string): Promise<TokensAnswer>;
  register(input: {
    email: string;
    password: string;
    confirmPassword?: string;
    referralCode?: string;
  }): Promise<LoginAnswer>;
  refreshTokens(refreshToken: string): Promise<TokensAnswer>;
  resetPassword(email: string): Promise<OkAnswer>;
  changePassword(input: ChangePasswordInput): Promise<OkAnswer>;
  /** Whether the e-mailed reset link's token is still good (unknown, used or expired: false). */
  checkResetToken(token: string): Promise<{ ok: true; valid: boolean }>;
  /** Turns two-factor sign-in on or off for the signed-in user (issue 19). */
  setTwoFactor(input: TwoFactorInput): Promise<TwoFactorAnswer>;
  logout(refreshToken: string): Promise<OkAnswer>;
  /** Linking the account's Telegram through the bot, and undoing it (decision 037). */
  linkTelegram(): Promise<TelegramLinkAnswer>;
  telegramLinkStatus(): Promise<TelegramLinkStatus>;
  unlinkTelegram(): Promise<OkAnswer>;
  /** A Telegram account adds an e-mail and proves it with a mailed code (decision 037). */
  addEmail(input: AddEmailInput): Promise<AddEmailAnswer>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isTokens(value: Record<string, unknown>): value is TokensAnswer & Record<string, unknown> {
  return (
    value['is2fa'] === false &&
    typeof value['accessToken'] === 'string' &&
    typeof value['refreshToken'] === 'string'
  );
}

function isChallenge(value: Record<string, unknown>): value is { is2fa: true; token: string } {
  return value['is2fa'] === true && typeof value['token'] === 'string';
}

export function createAuthApi(options: AuthApiOptions): AuthApi {
  const base = options.baseUrl.replace(/\/+$/, '');

  async function post(
    path: string,
    body: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    const token = options.getAccessToken();
    if (token) headers['authorization'] = `Bearer ${token}`;
    const doFetch = options.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: 'POST',
        credentials: 'include',
        headers,
        body: JSON.stringify({ ...body, locale: options.getLocale() }),
      });
    } catch (cause) {
      throw new AuthApiError(
        'network-error',
        0,
        cause instanceof Error ? cause.message : 'network error',
      );
    }
    let payload: unknown;
    try {
      payload = await response.json();
    } catch {
      payload = undefined;
    }
    if (!response.ok) {
      const data = isObject(payload) ? payload : {};
      const retryAfter = Number(response.headers.get('retry-after'));
      const error = new AuthApiError(
        typeof data['code'] === 'string' ? data['code'] : `http-${response.status}`,
        response.status,
        typeof data['message'] === 'string' ? data['message'] : `HTTP ${response.status}`,
        typeof data['field'] === 'string' ? data['field'] : undefined,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      );
      if (response.status === 401) options.onUnauthorized(error);
      throw error;
    }
    if (!isObject(payload)) {
      throw new AuthApiError('invalid-response', response.status, 'unexpected answer');
    }
    return payload;
  }

  const expect = <T>(
    payload: Record<string, unknown>,
    check: (value: Record<string, unknown>) => boolean,
  ) => {
    if (!check(payload)) throw new AuthApiError('invalid-response', 200, 'unexpected answer');
    return payload as T;
  };
  const loginAnswer = (payload: Record<string, unknown>) =>
    expect<LoginAnswer>(payload, (value) => isTokens(value) || isChallenge(value));
  const tokens = (payload: Record<string, unknown>) => expect<TokensAnswer>(payload, isTokens);
  const ok = (payload: Record<string, unknown>) =>
    expect<OkAnswer>(payload, (value) => value['ok'] === true);

  return {
    login: async (email, password) => loginAnswer(await post('/login', { email, password })),
    loginWith2fa: async (token, code) => tokens(await post('/login_with_2fa', { token, code })),
    quickAuth: async (email, referralCode) =>
      loginAnswer(await post('/quick-auth', { email, ...(referralCode ? { referralCode } : {}) })),
    telegramAuth: async (initData, referralCode) =>
      tokens(await post('/telegram-auth', { initData, ...(referralCode ? { referralCode } : {}) })),
    // A known address is answered as quick-auth answers it: a code challenge (decision 016).
    register: async ({ email, password, confirmPassword, referralCode }) =>
      loginAnswer(
        await post('/register', {
          email,
          password,
          ...(confirmPassword === undefined ? {} : { confirmPassword }),
          ...(referralCode ? { referralCode } : {}),
        }),
      ),
    refreshTokens: async (refreshToken) => tokens(await post('/refresh_tokens', { refreshToken })),
    resetPassword: async (email) => ok(await post('/reset_password', { email })),
    changePassword: async (input) => ok(await post('/change-password', { ...input })),
    checkResetToken: async (token) =>
      expect<{ ok: true; valid: boolean }>(
        await post('/change-password/check', { token }),
        (value) => value['ok'] === true && typeof value['valid'] === 'boolean',
      ),
    setTwoFactor: async (input) =>
      expect<TwoFactorAnswer>(
        await post('/two-factor', { ...input }),
        (value) =>
          (value['ok'] === true && typeof value['enabled'] === 'boolean') || isChallenge(value),
      ),
    logout: async (refreshToken) => ok(await post('/logout', { refreshToken })),
    linkTelegram: async () =>
      expect<TelegramLinkAnswer>(
        await post('/telegram-link', {}),
        (value) => typeof value['url'] === 'string' && typeof value['expiresIn'] === 'number',
      ),
    telegramLinkStatus: async () =>
      expect<TelegramLinkStatus>(
        await post('/telegram-link/status', {}),
        (value) => typeof value['linked'] === 'boolean',
      ),
    unlinkTelegram: async () => ok(await post('/telegram-unlink', {})),
    addEmail: async (input) =>
      expect<AddEmailAnswer>(
        await post('/add-email', { ...input }),
        (value) =>
          (value['ok'] === true && typeof value['email'] === 'string') || isChallenge(value),
      ),
  };
}

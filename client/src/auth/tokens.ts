/*
 * The tokens in the browser (spec sections 4 and 9): localStorage under `accessToken` and
 * `refreshToken`. Nothing here verifies a signature (the engine and the auth service do); the
 * payload is only read for `userId` and `exp`.
 */

export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** The part of `Storage` the session uses (localStorage in the browser, a map in tests). */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** localStorage when there is one and it works (not on the server, not when blocked). */
export function browserStorage(): TokenStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Spec section 4: a stored access token counts only when it exists and has three parts; anything
 * else means "not authenticated".
 */
export function isWellFormedToken(token: unknown): token is string {
  if (typeof token !== 'string') return false;
  const parts = token.split('.');
  return parts.length === 3 && parts.every((part) => /^[A-Za-z0-9_-]+$/.test(part));
}

/** The stored tokens; `null` when the access token fails the three-part check. */
export function readTokens(storage: TokenStorage | null): {
  accessToken: string;
  refreshToken: string | null;
} | null {
  if (!storage) return null;
  try {
    const accessToken = storage.getItem(ACCESS_TOKEN_KEY);
    if (!isWellFormedToken(accessToken)) return null;
    return { accessToken, refreshToken: storage.getItem(REFRESH_TOKEN_KEY) || null };
  } catch {
    return null;
  }
}

export function writeTokens(storage: TokenStorage | null, tokens: Tokens): void {
  try {
    storage?.setItem(ACCESS_TOKEN_KEY, tokens.accessToken);
    storage?.setItem(REFRESH_TOKEN_KEY, tokens.refreshToken);
  } catch {
    // Storage full or blocked: the session still works in memory until the page closes.
  }
}

export function clearTokens(storage: TokenStorage | null): void {
  try {
    storage?.removeItem(ACCESS_TOKEN_KEY);
    storage?.removeItem(REFRESH_TOKEN_KEY);
  } catch {
    // Nothing stored that could be removed.
  }
}

/** The JSON payload of a JWT, or undefined when it is not one. */
export function tokenPayload(token: string): Record<string, unknown> | undefined {
  if (!isWellFormedToken(token)) return undefined;
  try {
    const base64 = (token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The `userId` the access token carries (spec section 3). */
export function tokenUserId(token: string): string | undefined {
  const userId = tokenPayload(token)?.['userId'];
  return typeof userId === 'string' && userId !== '' ? userId : undefined;
}

/** When the token expires, in milliseconds since the epoch; undefined without an `exp`. */
export function tokenExpiresAt(token: string): number | undefined {
  const exp = tokenPayload(token)?.['exp'];
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
}

/** Expired, or expiring within `marginMs`. A token without `exp` never expires here. */
export function isExpired(token: string, now: number, marginMs = 0): boolean {
  const expiresAt = tokenExpiresAt(token);
  return expiresAt !== undefined && expiresAt - marginMs <= now;
}

/** The longest head start a refresh takes before expiry. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * Milliseconds from `now` until the token should be refreshed: a minute before it expires, or a
 * quarter of its lifetime before when it lives less than four minutes. Undefined when the token
 * has no `exp`.
 */
export function refreshDelay(token: string, now: number): number | undefined {
  const payload = tokenPayload(token);
  const exp = payload?.['exp'];
  if (typeof exp !== 'number') return undefined;
  const iat = payload?.['iat'];
  const lifetime = typeof iat === 'number' && iat < exp ? (exp - iat) * 1000 : undefined;
  const margin =
    lifetime === undefined ? REFRESH_MARGIN_MS : Math.min(REFRESH_MARGIN_MS, lifetime / 4);
  return Math.max(0, exp * 1000 - margin - now);
}

import { describe, expect, it } from 'vitest';

import { fakeJwt, memoryStorage } from './test-support.ts';
import {
  ACCESS_TOKEN_KEY,
  clearTokens,
  isExpired,
  isWellFormedToken,
  readTokens,
  REFRESH_TOKEN_KEY,
  refreshDelay,
  tokenExpiresAt,
  tokenUserId,
  writeTokens,
} from './tokens.ts';

const NOW = Date.UTC(2030, 0, 1);
const iat = NOW / 1000;

describe('the three-part token check (spec section 4)', () => {
  it('accepts three base64url parts', () => {
    expect(isWellFormedToken(fakeJwt({ userId: 'u' }))).toBe(true);
    expect(isWellFormedToken('a.b.c')).toBe(true);
  });

  it('refuses anything else', () => {
    for (const token of [null, undefined, '', 'a.b', 'a.b.c.d', 'a..c', 'a.b.', 'a.b c.d', 42]) {
      expect(isWellFormedToken(token)).toBe(false);
    }
  });

  it('treats a stored token that fails the check as not authenticated', () => {
    expect(readTokens(memoryStorage({ [ACCESS_TOKEN_KEY]: 'not-a-jwt' }))).toBeNull();
    expect(readTokens(memoryStorage({ [REFRESH_TOKEN_KEY]: 'r' }))).toBeNull();
    expect(readTokens(null)).toBeNull();
  });
});

describe('token storage', () => {
  it('keeps the tokens under accessToken and refreshToken', () => {
    const storage = memoryStorage();
    writeTokens(storage, { accessToken: 'a.b.c', refreshToken: 'refresh' });
    expect(Object.fromEntries(storage.data)).toEqual({
      accessToken: 'a.b.c',
      refreshToken: 'refresh',
    });
    expect(readTokens(storage)).toEqual({ accessToken: 'a.b.c', refreshToken: 'refresh' });
    clearTokens(storage);
    expect(storage.data.size).toBe(0);
  });

  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readTokens(broken)).toBeNull();
    expect(() => writeTokens(broken, { accessToken: 'a.b.c', refreshToken: 'r' })).not.toThrow();
    expect(() => clearTokens(broken)).not.toThrow();
  });
});

describe('the payload', () => {
  it('reads userId and exp', () => {
    const token = fakeJwt({ userId: 'c0ffee', exp: iat + 900, iat });
    expect(tokenUserId(token)).toBe('c0ffee');
    expect(tokenExpiresAt(token)).toBe(NOW + 900_000);
  });

  it('reads non-ASCII payloads (UTF-8)', () => {
    expect(tokenUserId(fakeJwt({ userId: 'пользователь' }))).toBe('пользователь');
  });

  it('gives nothing for tokens without those claims or with a broken payload', () => {
    expect(tokenUserId(fakeJwt({ sub: 'x' }))).toBeUndefined();
    expect(tokenExpiresAt(fakeJwt({ exp: 'soon' }))).toBeUndefined();
    expect(tokenUserId('a.b.c')).toBeUndefined();
  });

  it('knows when a token has expired, with a margin', () => {
    const token = fakeJwt({ exp: iat + 60, iat });
    expect(isExpired(token, NOW)).toBe(false);
    expect(isExpired(token, NOW, 60_000)).toBe(true);
    expect(isExpired(token, NOW + 60_000)).toBe(true);
    expect(isExpired(fakeJwt({ userId: 'u' }), NOW + 1e12)).toBe(false);
  });
});

describe('refresh timing', () => {
  it('refreshes a minute before expiry', () => {
    expect(refreshDelay(fakeJwt({ iat, exp: iat + 900 }), NOW)).toBe(840_000);
  });

  it('takes a quarter of the lifetime for short-lived tokens', () => {
    expect(refreshDelay(fakeJwt({ iat, exp: iat + 120 }), NOW)).toBe(90_000);
  });

  it('is immediate for an expired token and absent without exp', () => {
    expect(refreshDelay(fakeJwt({ iat, exp: iat + 900 }), NOW + 2_000_000)).toBe(0);
    expect(refreshDelay(fakeJwt({ userId: 'u' }), NOW)).toBeUndefined();
  });
});

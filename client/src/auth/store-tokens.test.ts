import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { GraphqlRequestError } from '../graphql/request.ts';

import { accessToken } from './test-support.ts';
import { AUTH, error, GRAPHQL, START, setup, USER_ID } from './store-harness.ts';

/*
 * The session store's tokens over time (silent refresh, a refused token, other tabs) against
 * the fake services of store-harness.ts.
 */

beforeEach(() => {
  vi.unstubAllGlobals();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('tokens over time', () => {
  it('refreshes silently shortly before expiry', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    t.routes.set(`${AUTH}/refresh_tokens`, () => ({ body: t.issue() }));
    await t.store.getState().login('ann@example.com', 'pw');
    await t.advance(830_000);
    expect(t.callsTo('/refresh_tokens')).toHaveLength(0);
    await t.advance(10_000);
    await vi.waitFor(() => expect(t.store.getState().refreshToken).toBe('refresh-2'));
    expect(t.callsTo('/refresh_tokens')[0]?.body).toMatchObject({ refreshToken: 'refresh-1' });
    expect(t.storage.data.get('refreshToken')).toBe('refresh-2');
    expect(t.events.at(-1)).toEqual({ type: 'refresh' });
    // And again before the new token expires.
    await t.advance(840_000);
    await vi.waitFor(() => expect(t.store.getState().refreshToken).toBe('refresh-3'));
  });

  it('adopts a token another tab refreshed instead of spending the refresh token again', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    await t.store.getState().login('ann@example.com', 'pw');
    const other = accessToken(USER_ID, t.now() + 1000);
    t.storage.setItem('accessToken', other);
    t.storage.setItem('refreshToken', 'from-other-tab');
    await expect(t.store.getState().refresh()).resolves.toBe(other);
    expect(t.callsTo('/refresh_tokens')).toHaveLength(0);
    expect(t.store.getState().refreshToken).toBe('from-other-tab');
  });

  it('runs one refresh at a time', async () => {
    const t = setup({
      stored: { accessToken: accessToken(USER_ID, START - 3_600_000), refreshToken: 'old' },
    });
    t.routes.set(`${AUTH}/refresh_tokens`, () => ({ body: t.issue() }));
    const [a, b] = await Promise.all([t.store.getState().refresh(), t.store.getState().refresh()]);
    expect(a).toBe(b);
    expect(t.callsTo('/refresh_tokens')).toHaveLength(1);
  });

  it('a 401 on refresh logs out and goes to /login', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    t.routes.set(`${AUTH}/refresh_tokens`, () => error(401, 'invalid-refresh-token'));
    await t.store.getState().login('ann@example.com', 'pw');
    await t.advance(840_000);
    await vi.waitFor(() => expect(t.goToLogin).toHaveBeenCalledTimes(1));
    expect(t.store.getState()).toMatchObject({ isLoggedIn: false, accessToken: null });
    expect(t.storage.data.size).toBe(0);
  });

  it('a failed refresh for other reasons keeps the session and tries again', async () => {
    const t = setup();
    let fail = true;
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    t.routes.set(`${AUTH}/refresh_tokens`, () =>
      fail ? error(500, 'internal-error') : { body: t.issue() },
    );
    await t.store.getState().login('ann@example.com', 'pw');
    await t.advance(840_000);
    await vi.waitFor(() => expect(t.callsTo('/refresh_tokens')).toHaveLength(1));
    expect(t.store.getState().isLoggedIn).toBe(true);
    fail = false;
    await t.advance(30_000);
    await vi.waitFor(() => expect(t.store.getState().refreshToken).toBe('refresh-2'));
  });
});

describe('invalid-jwt from GraphQL', () => {
  const invalidJwt = {
    body: { errors: [{ message: 'Could not verify JWT', extensions: { code: 'invalid-jwt' } }] },
  };

  it('refreshes once and retries', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    t.routes.set(`${AUTH}/refresh_tokens`, () => ({ body: t.issue() }));
    await t.store.getState().login('ann@example.com', 'pw');
    let first = true;
    const run = vi.fn(async (token: string) => {
      await Promise.resolve();
      if (first) {
        first = false;
        throw new GraphqlRequestError([{ message: 'x', extensions: { code: 'invalid-jwt' } }]);
      }
      return token;
    });
    const token = await t.store.getState().withAccessToken(run);
    expect(run).toHaveBeenCalledTimes(2);
    expect(token).toBe(t.store.getState().accessToken);
    expect(t.callsTo('/refresh_tokens')).toHaveLength(1);
    expect(t.goToLogin).not.toHaveBeenCalled();
  });

  it('logs out and goes to /login when the refreshed token is refused too', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    t.routes.set(`${AUTH}/refresh_tokens`, () => ({ body: t.issue() }));
    await t.store.getState().login('ann@example.com', 'pw');
    t.routes.set(GRAPHQL, () => invalidJwt);
    await expect(t.store.getState().loadCurrentUser()).rejects.toMatchObject({
      code: 'invalid-jwt',
    });
    expect(t.graphqlCalls()).toHaveLength(3);
    expect(t.store.getState()).toMatchObject({ isLoggedIn: false, accessToken: null, user: null });
    expect(t.goToLogin).toHaveBeenCalledTimes(1);
    expect(t.events.at(-1)).toEqual({ type: 'logout', resetCache: true });
  });
});

describe('other tabs', () => {
  it('follow a logout and a sign-in made elsewhere', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    await t.store.getState().login('ann@example.com', 'pw');
    t.storage.data.clear();
    t.store.getState().syncFromStorage();
    expect(t.store.getState()).toMatchObject({ isLoggedIn: false, accessToken: null });
    expect(t.events.at(-1)).toEqual({ type: 'logout', resetCache: true });

    t.storage.setItem('accessToken', accessToken(USER_ID, t.now()));
    t.storage.setItem('refreshToken', 'elsewhere');
    t.store.getState().syncFromStorage();
    expect(t.events.at(-1)).toEqual({ type: 'login', resetCache: true });
    await vi.waitFor(() => expect(t.store.getState().isLoggedIn).toBe(true));
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { accessToken } from './test-support.ts';
import { AUTH, error, GRAPHQL, START, setup, USER_ID } from './store-harness.ts';

/*
 * The session store's transitions into and out of a session (init, the sign-in flows, logout)
 * against the fake services of store-harness.ts.
 */

beforeEach(() => {
  vi.unstubAllGlobals();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('init', () => {
  it('without tokens: a visitor, checked, nothing requested', async () => {
    const t = setup();
    await t.store.getState().init();
    expect(t.store.getState()).toMatchObject({ checked: true, isLoggedIn: false, user: null });
    expect(t.calls).toHaveLength(0);
  });

  it('a stored token without three parts counts as no token and is removed', async () => {
    const t = setup({ stored: { accessToken: 'garbage', refreshToken: 'r' } });
    await t.store.getState().init();
    expect(t.store.getState()).toMatchObject({ checked: true, isLoggedIn: false });
    expect(t.storage.data.size).toBe(0);
    expect(t.calls).toHaveLength(0);
  });

  it('reloads the current user with the stored token', async () => {
    const token = accessToken(USER_ID, START);
    const t = setup({ stored: { accessToken: token, refreshToken: 'r0' } });
    await t.store.getState().init();
    const [query] = t.graphqlCalls();
    expect(query?.headers['authorization']).toBe(`Bearer ${token}`);
    expect(query?.body['variables']).toEqual({ userId: USER_ID });
    expect(t.store.getState()).toMatchObject({
      checked: true,
      isLoggedIn: true,
      user: { id: USER_ID, email: 'ann@example.com', roles: ['manager'], is2fa: false },
    });
  });

  it('a failed user load leaves isLoggedIn false', async () => {
    const t = setup({ stored: { accessToken: accessToken(USER_ID, START), refreshToken: 'r0' } });
    t.routes.set(GRAPHQL, () => ({ body: { data: { portal_users_by_pk: null } } }));
    await t.store.getState().init();
    expect(t.store.getState()).toMatchObject({ checked: true, isLoggedIn: false, user: null });
    await expect(t.store.getState().loadCurrentUser()).rejects.toThrow();
  });

  it('refreshes an expired stored token before loading the user', async () => {
    const t = setup({
      stored: { accessToken: accessToken(USER_ID, START - 3_600_000), refreshToken: 'old' },
    });
    t.routes.set(`${AUTH}/refresh_tokens`, () => ({ body: t.issue() }));
    await t.store.getState().init();
    expect(t.callsTo('/refresh_tokens')[0]?.body).toMatchObject({ refreshToken: 'old' });
    expect(t.storage.data.get('refreshToken')).toBe('refresh-1');
    expect(t.store.getState().isLoggedIn).toBe(true);
  });
});

describe('login', () => {
  it('without 2FA: stores the tokens, loads the user, tells the listeners', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    const result = await t.store.getState().login('ann@example.com', 'Correct horse 1');
    expect(result).toEqual({ status: 'signed-in' });
    const [call] = t.callsTo('/login');
    expect(call?.body).toEqual({
      email: 'ann@example.com',
      password: 'Correct horse 1',
      locale: 'ru',
    });
    expect(call?.credentials).toBe('include');
    expect(t.storage.data.get('refreshToken')).toBe('refresh-1');
    expect(t.storage.data.get('accessToken')?.split('.')).toHaveLength(3);
    expect(t.store.getState()).toMatchObject({ isLoggedIn: true, loading: false, error: null });
    expect(t.events).toEqual([{ type: 'login', resetCache: true }]);
  });

  it('can skip the cache reset', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    await t.store.getState().login('ann@example.com', 'pw', { skipReset: true });
    expect(t.events).toEqual([{ type: 'login', resetCache: false }]);
  });

  it('with 2FA: no tokens after the first step; the code step stores them', async () => {
    const t = setup();
    const ticket = 'T'.repeat(43);
    t.routes.set(`${AUTH}/login`, () => ({ body: { is2fa: true, token: ticket } }));
    t.routes.set(`${AUTH}/login_with_2fa`, () => ({ body: t.issue() }));
    const result = await t.store.getState().login('ann@example.com', 'pw');
    expect(result).toEqual({ status: 'code-required' });
    expect(t.storage.data.size).toBe(0);
    expect(t.store.getState().challenge).toEqual({
      ticket,
      email: 'ann@example.com',
      purpose: 'login',
    });
    expect(t.store.getState().isLoggedIn).toBe(false);

    await t.store.getState().loginWith2fa('123456');
    expect(t.callsTo('/login_with_2fa')[0]?.body).toEqual({
      token: ticket,
      code: '123456',
      locale: 'ru',
    });
    expect(t.store.getState()).toMatchObject({ isLoggedIn: true, challenge: null });
    expect(t.storage.data.get('refreshToken')).toBe('refresh-1');
  });

  it('keeps a wrong code on the code step, and drops a dead ticket', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: { is2fa: true, token: 'T'.repeat(43) } }));
    await t.store.getState().login('ann@example.com', 'pw');

    t.routes.set(`${AUTH}/login_with_2fa`, () => error(400, 'invalid-code', 'code'));
    await expect(t.store.getState().loginWith2fa('000000')).rejects.toMatchObject({
      code: 'invalid-code',
    });
    expect(t.store.getState().error).toMatchObject({ code: 'invalid-code', field: 'code' });
    expect(t.store.getState().challenge).not.toBeNull();

    t.routes.set(`${AUTH}/login_with_2fa`, () => error(400, 'invalid-ticket'));
    await expect(t.store.getState().loginWith2fa('111111')).rejects.toThrow();
    expect(t.store.getState()).toMatchObject({
      challenge: null,
      error: { code: 'invalid-ticket' },
    });
    expect(t.goToLogin).not.toHaveBeenCalled();
  });

  it('keeps a login failure in the error state; a 401 also clears the session', async () => {
    const t = setup({ stored: { accessToken: accessToken(USER_ID, START), refreshToken: 'r0' } });
    await t.store.getState().init();
    t.events.length = 0;
    t.routes.set(`${AUTH}/login`, () => error(401, 'invalid-email-password'));
    await expect(t.store.getState().login('ann@example.com', 'wrong')).rejects.toMatchObject({
      code: 'invalid-email-password',
      status: 401,
    });
    expect(t.store.getState()).toMatchObject({
      loading: false,
      isLoggedIn: false,
      accessToken: null,
      error: { code: 'invalid-email-password' },
    });
    expect(t.storage.data.size).toBe(0);
    expect(t.goToLogin).toHaveBeenCalledTimes(1);
    expect(t.events).toEqual([{ type: 'logout', resetCache: true }]);
  });

  it('reports an unreachable service as network-error', async () => {
    const t = setup();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed')));
    await expect(t.store.getState().login('ann@example.com', 'pw')).rejects.toMatchObject({
      code: 'network-error',
      status: 0,
    });
    expect(t.store.getState().error).toMatchObject({ code: 'network-error' });
  });

  it('rejects when the user cannot be loaded after the tokens arrive', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    t.routes.set(GRAPHQL, () => ({
      body: { errors: [{ message: 'boom', extensions: { code: 'unexpected' } }] },
    }));
    await expect(t.store.getState().login('ann@example.com', 'pw')).rejects.toThrow('boom');
    expect(t.store.getState()).toMatchObject({
      isLoggedIn: false,
      loading: false,
      error: { code: 'unexpected' },
    });
  });
});

describe('quick auth', () => {
  it('a new e-mail is signed in at once, with the referral code', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/quick-auth`, () => ({ body: t.issue() }));
    const result = await t.store.getState().quickAuth('new@example.com');
    expect(result).toEqual({ status: 'signed-in' });
    expect(t.callsTo('/quick-auth')[0]?.body).toEqual({
      email: 'new@example.com',
      referralCode: 'friend42',
      locale: 'ru',
    });
    expect(t.store.getState().isLoggedIn).toBe(true);
    expect(t.events).toEqual([{ type: 'login', resetCache: true }]);
  });

  it('a known e-mail gets the code step', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/quick-auth`, () => ({ body: { is2fa: true, token: 'Q'.repeat(43) } }));
    const result = await t.store.getState().quickAuth('ann@example.com', 'other7');
    expect(result).toEqual({ status: 'code-required' });
    expect(t.callsTo('/quick-auth')[0]?.body['referralCode']).toBe('other7');
    expect(t.store.getState().challenge).toMatchObject({ purpose: 'quick-auth' });
  });

  it('keeps its failure in the error state', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/quick-auth`, () => error(429, 'too-many-requests'));
    await expect(t.store.getState().quickAuth('ann@example.com')).rejects.toThrow();
    expect(t.store.getState()).toMatchObject({
      loading: false,
      error: { code: 'too-many-requests' },
    });
  });
});

describe('telegram auth', () => {
  const INIT_DATA = 'user=%7B%22id%22%3A7%7D&auth_date=1&hash=' + 'a'.repeat(64);

  it('signs in with the raw initData and the referral code, then loads the user', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/telegram-auth`, () => ({ body: t.issue() }));
    await t.store.getState().telegramAuth(INIT_DATA, 'alice');
    expect(t.callsTo('/telegram-auth')[0]?.body).toEqual({
      initData: INIT_DATA,
      referralCode: 'alice',
      locale: 'ru',
    });
    expect(t.storage.data.get('refreshToken')).toBe('refresh-1');
    expect(t.store.getState()).toMatchObject({ isLoggedIn: true, loading: false, error: null });
    expect(t.events).toEqual([{ type: 'login', resetCache: true }]);
  });

  it('keeps a refused initData in the error state and stores nothing', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/telegram-auth`, () => error(401, 'invalid-init-data'));
    await expect(t.store.getState().telegramAuth(INIT_DATA)).rejects.toMatchObject({
      code: 'invalid-init-data',
    });
    expect(t.callsTo('/telegram-auth')[0]?.body).not.toHaveProperty('referralCode');
    expect(t.storage.data.size).toBe(0);
    expect(t.store.getState()).toMatchObject({
      isLoggedIn: false,
      loading: false,
      error: { code: 'invalid-init-data' },
    });
  });
});

describe('register', () => {
  it('signs the new account in, with the referral cookie', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/register`, () => ({ body: t.issue() }));
    await t.store.getState().register({
      email: 'new@example.com',
      password: 'Correct horse 1',
      confirmPassword: 'Correct horse 1',
    });
    expect(t.callsTo('/register')[0]?.body).toMatchObject({ referralCode: 'friend42' });
    expect(t.store.getState().isLoggedIn).toBe(true);
  });

  it('asks for the mailed code when the address already has an account', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/register`, () => ({ body: { is2fa: true, token: 'ticket-1' } }));
    const result = await t.store.getState().register({
      email: 'ann@example.com',
      password: 'Correct horse 1',
    });
    expect(result).toEqual({ status: 'code-required' });
    expect(t.store.getState()).toMatchObject({
      isLoggedIn: false,
      loading: false,
      challenge: { ticket: 'ticket-1', email: 'ann@example.com', purpose: 'sign-up' },
    });
  });

  it('other failures only reset the loading flag', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/register`, () => error(400, 'password-too-simple', 'password'));
    await expect(
      t.store.getState().register({ email: 'ann@example.com', password: 'correcthorse' }),
    ).rejects.toMatchObject({ code: 'password-too-simple', field: 'password' });
    expect(t.store.getState()).toMatchObject({ loading: false, error: null });
  });
});

describe('logout', () => {
  it('clears tokens and user, revokes the sign-in, tells the listeners', async () => {
    const t = setup();
    t.routes.set(`${AUTH}/login`, () => ({ body: t.issue() }));
    t.routes.set(`${AUTH}/logout`, () => ({ body: { ok: true } }));
    await t.store.getState().login('ann@example.com', 'pw');
    t.store.getState().logout();
    expect(t.store.getState()).toMatchObject({
      accessToken: null,
      refreshToken: null,
      user: null,
      isLoggedIn: false,
    });
    expect(t.storage.data.size).toBe(0);
    expect(t.events.at(-1)).toEqual({ type: 'logout', resetCache: true });
    await vi.waitFor(() => expect(t.callsTo('/logout')).toHaveLength(1));
    expect(t.callsTo('/logout')[0]?.body).toMatchObject({ refreshToken: 'refresh-1' });
  });

  it('a visitor logging out tells nobody', () => {
    const t = setup();
    t.store.getState().logout();
    expect(t.events).toEqual([]);
    expect(t.calls).toHaveLength(0);
  });
});

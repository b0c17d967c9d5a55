import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { GraphqlRequestError } from '../graphql/request.ts';

import type { AuthChangeEvent, SessionDeps } from './session-types.ts';
import { createSessionStore } from './store.ts';
import { accessToken, memoryStorage } from './test-support.ts';

/*
 * The session store's transitions against a fake auth service and GraphQL engine (one fake
 * fetch, as the browser has one), with an in-memory storage and a hand-driven clock and timers.
 */

const AUTH = 'http://auth.test';
const GRAPHQL = 'http://engine.test/v1/graphql';
const USER_ID = '7b0e2b8c-1f0a-4c55-9a57-0c1e8f0f9a11';
const START = Date.UTC(2030, 0, 1);

interface Call {
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
}
type Reply = { status?: number; body: unknown };
type Handler = (call: Call) => Reply;

const userRow = (overrides: Record<string, unknown> = {}) => ({
  id: USER_ID,
  email: 'ann@example.com',
  is_verified_email: true,
  created_at: '2030-01-01T00:00:00Z',
  status: 'new',
  is_2fa: false,
  referral_name: 'ann',
  roles: [{ role_type: 'manager' }],
  ...overrides,
});

function setup(options: { stored?: Record<string, string> } = {}) {
  let now = START;
  const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  const calls: Call[] = [];
  const routes = new Map<string, Handler>();
  const storage = memoryStorage(options.stored);
  const goToLogin = vi.fn();
  let tokenCounter = 0;
  const issue = () => {
    tokenCounter += 1;
    return {
      is2fa: false,
      accessToken: accessToken(USER_ID, now),
      refreshToken: `refresh-${tokenCounter}`,
    };
  };

  routes.set(GRAPHQL, () => ({ body: { data: { portal_users_by_pk: userRow() } } }));

  const fakeFetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    await Promise.resolve();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const call: Call = {
      url,
      body: JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<
        string,
        unknown
      >,
      headers: (init?.headers ?? {}) as Record<string, string>,
      credentials: init?.credentials,
    };
    calls.push(call);
    const handler = routes.get(url);
    const reply = handler ? handler(call) : { status: 404, body: { code: 'not-found' } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fakeFetch);

  const deps: SessionDeps = {
    authUrl: () => AUTH,
    graphqlUrl: () => GRAPHQL,
    storage: () => storage,
    locale: () => 'ru',
    referralCode: () => 'friend42',
    goToLogin,
    now: () => now,
    setTimer: (run, ms) => {
      const timer = { at: now + ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  };
  const store = createSessionStore(deps);
  const events: AuthChangeEvent[] = [];
  store.getState().onAuthChange((event) => events.push(event));

  /** Moves the clock, running the timers that come due. */
  const advance = async (ms: number) => {
    now += ms;
    for (const timer of timers.filter((t) => !t.cancelled && t.at <= now)) {
      timer.cancelled = true;
      timer.run();
    }
    await vi.waitFor(() => expect(store.getState().loading).toBe(false));
    await new Promise((resolve) => setTimeout(resolve, 0));
  };

  return {
    store,
    storage,
    calls,
    routes,
    events,
    goToLogin,
    issue,
    advance,
    callsTo: (path: string) => calls.filter((call) => call.url === `${AUTH}${path}`),
    graphqlCalls: () => calls.filter((call) => call.url === GRAPHQL),
    now: () => now,
  };
}

const error = (status: number, code: string, field?: string): Reply => ({
  status,
  body: { code, message: code, ...(field ? { field } : {}) },
});

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

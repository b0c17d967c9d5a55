import { expect, vi } from 'vitest';

import type { AuthChangeEvent, SessionDeps } from './session-types.ts';
import { createSessionStore } from './store.ts';
import { accessToken, memoryStorage } from './test-support.ts';

/*
 * The session store's test bench: a fake auth service and GraphQL engine (one fake fetch, as the
 * browser has one), an in-memory storage and a hand-driven clock and timers.
 */

export const AUTH = 'http://auth.test';
export const GRAPHQL = 'http://engine.test/v1/graphql';
export const USER_ID = '7b0e2b8c-1f0a-4c55-9a57-0c1e8f0f9a11';
export const START = Date.UTC(2030, 0, 1);

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

export function setup(options: { stored?: Record<string, string> } = {}) {
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

export const error = (status: number, code: string, field?: string): Reply => ({
  status,
  body: { code, message: code, ...(field ? { field } : {}) },
});

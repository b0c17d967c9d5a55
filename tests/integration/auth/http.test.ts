import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  createUser,
  migratedDatabase,
  PASSWORD,
  startAuth,
  startMailbox,
  type AuthServer,
  type Mailbox,
} from './harness.ts';

const LIMITS = {
  login: { ip: { limit: 100, windowSeconds: 900 }, subject: { limit: 3, windowSeconds: 900 } },
  reset: { ip: { limit: 4, windowSeconds: 3600 }, subject: { limit: 100, windowSeconds: 3600 } },
};

/*
 * The HTTP surface: attempt limits shared by two instances on one database (429 with
 * Retry-After), CORS for our origins only, JSON-only bodies with a size limit, the error
 * shape, and an unexpected failure answered without its stack.
 */
describe.each(databaseTargets)('http surface on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let one: AuthServer;
  let two: AuthServer;
  let broken: AuthServer;

  beforeAll(async () => {
    db = await migratedDatabase(target);
    mailbox = await startMailbox();
    one = await startAuth(db, mailbox, { limits: LIMITS, env: { AUTH_RATE_LIMIT_FACTOR: '1' } });
    two = await startAuth(db, mailbox, { limits: LIMITS, env: { AUTH_RATE_LIMIT_FACTOR: '1' } });
    broken = await startAuth(db, undefined, {
      mailer: {
        send: () => Promise.reject(new Error('SMTP is down: secret-internal-detail')),
        close: () => {},
      },
    });
  });
  afterAll(async () => {
    await broken?.close();
    await two?.close();
    await one?.close();
    await mailbox?.close();
    await db?.dispose();
  });

  it('answers /healthz', async () => {
    const reply = await one.request('/healthz', { method: 'GET' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
  });

  it('shares per-e-mail limits between instances and answers 429 with Retry-After', async () => {
    await createUser(db, { email: 'limited@example.com', password: PASSWORD });
    const attempt = (server: AuthServer) =>
      server.post('/login', { email: 'limited@example.com', password: 'Wrong-password-1' });
    expect((await attempt(one)).status).toBe(401);
    expect((await attempt(two)).status).toBe(401);
    expect((await attempt(one)).status).toBe(401);
    const limited = await attempt(two);
    expect(limited.status).toBe(429);
    expect(limited.body['code']).toBe('too-many-requests');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Even the right password waits: the limit is checked before the password.
    expect(
      (await one.post('/login', { email: 'limited@example.com', password: PASSWORD })).status,
    ).toBe(429);
    // Counters live in the database, keyed by a hash (no e-mail stored there).
    const keys = await db.pool.query<{ key: string }>('SELECT key FROM auth.rate_limits');
    expect(keys.rows.map((row) => row.key).join()).not.toContain('limited@');
  });

  it('limits per address too, and a window that has passed starts over', async () => {
    const reset = (server: AuthServer, n: number) =>
      server.post('/reset_password', { email: `someone${n}@example.com` });
    for (let n = 0; n < 4; n++) expect((await reset(n % 2 ? one : two, n)).status).toBe(200);
    const limited = await reset(one, 9);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    await db.pool.query(`UPDATE auth.rate_limits SET reset_at = now() - interval '1 second'`);
    expect((await reset(two, 10)).status).toBe(200);
  });

  it('allows CORS with credentials for our origins and refuses others', async () => {
    const preflight = await one.request('/login', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const evil = await one.post(
      '/login',
      { email: 'a@example.com', password: PASSWORD },
      { origin: 'https://evil.example' },
    );
    expect(evil.status).toBe(403);
    expect(evil.body['code']).toBe('origin-not-allowed');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const evilPreflight = await one.request('/login', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000.evil.example',
        'access-control-request-method': 'POST',
      },
    });
    expect(evilPreflight.status).toBe(403);
    expect(evilPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('takes JSON only, within 16 kB, and answers errors as { code, message }', async () => {
    const form = await one.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a@example.com&password=x',
    });
    expect(form.status).toBe(415);
    expect(form.body['code']).toBe('unsupported-media-type');
    const broken = await one.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": ',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({
      code: 'invalid-json',
      message: 'The request body is not valid JSON',
    });
    const huge = await one.post('/login', { email: 'a@example.com', password: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
    const missing = await one.request('/nowhere', { method: 'GET' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', message: 'Not found' });
  });

  it('answers an unexpected failure with internal-error and no details', async () => {
    await createUser(db, { email: 'mailfail@example.com', password: PASSWORD, is2fa: true });
    const reply = await broken.post('/login', {
      email: 'mailfail@example.com',
      password: PASSWORD,
    });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ code: 'internal-error', message: 'Something went wrong' });
    // The failed mail left no code behind to block a retry.
    const codes = await db.pool.query(
      `SELECT 1 FROM auth.login_codes c JOIN public.portal_users u ON u.id = c.user_id WHERE u.email = 'mailfail@example.com'`,
    );
    expect(codes.rowCount).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  createUser,
  jwtPayload,
  migratedDatabase,
  PASSWORD,
  startAuth,
  type AuthServer,
} from './harness.ts';

/*
 * POST /refresh_tokens and /logout: rotation on every use, hashes only at rest, reuse
 * revoking the family (after a 10 s grace for racing tabs), expiry, disabled users, roles
 * re-read from the database, and the opt-in access-token cookie.
 */
describe.each(databaseTargets)('refresh tokens on $name', (target) => {
  let db: TestDatabase;
  let server: AuthServer;
  let cookieServer: AuthServer;

  const signIn = async (email: string) => {
    const reply = await server.post('/login', { email, password: PASSWORD });
    expect(reply.status).toBe(200);
    return reply.body as { accessToken: string; refreshToken: string };
  };
  const refresh = (refreshToken: unknown) => server.post('/refresh_tokens', { refreshToken });
  const backdateRotation = (seconds: number) =>
    db.pool.query(
      `UPDATE auth.refresh_tokens SET rotated_at = rotated_at - make_interval(secs => $1)
        WHERE rotated_at IS NOT NULL`,
      [seconds],
    );

  beforeAll(async () => {
    db = await migratedDatabase(target);
    server = await startAuth(db, undefined);
    cookieServer = await startAuth(db, undefined, {
      env: { AUTH_ACCESS_TOKEN_COOKIE: 'true', AUTH_ACCESS_TOKEN_TTL: '600' },
    });
  });
  afterAll(async () => {
    await cookieServer?.close();
    await server?.close();
    await db?.dispose();
  });

  it('rotates on every use and stores only SHA-256 hashes', async () => {
    const id = await createUser(db, {
      email: 'rot@example.com',
      password: PASSWORD,
      roles: ['manager'],
    });
    const first = await signIn('rot@example.com');
    expect(first.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await db.pool.query<{ token_hash: Buffer }>(
      'SELECT token_hash FROM auth.refresh_tokens WHERE user_id = $1',
      [id],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.token_hash).toHaveLength(32);
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.body['refreshToken']).not.toBe(first.refreshToken);
    const claims = jwtPayload(second.body['accessToken']);
    expect(claims['https://hasura.io/jwt/claims']).toEqual({
      'x-hasura-user-id': id,
      'x-hasura-default-role': 'user',
      'x-hasura-allowed-roles': ['user', 'manager'],
      // The sign-in and the account's session epoch (decision 016).
      'x-hasura-session-id': claims['sid'],
      'x-hasura-session-epoch': '0',
    });
    // Roles come from the database at every refresh.
    await db.pool.query(`INSERT INTO public.roles (user_id, role_type) VALUES ($1, 'admin')`, [id]);
    const third = await refresh(second.body['refreshToken']);
    expect(
      (
        jwtPayload(third.body['accessToken'])['https://hasura.io/jwt/claims'] as Record<
          string,
          unknown
        >
      )['x-hasura-allowed-roles'],
      // A staff admin gets the least-privilege `administrator`, never Hasura's unrestricted `admin`.
    ).toEqual(['user', 'administrator', 'manager']);
  });

  it('lets racing tabs share a rotation within the grace window, without revoking', async () => {
    await createUser(db, { email: 'tabs@example.com', password: PASSWORD });
    const first = await signIn('tabs@example.com');
    const [a, b] = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body['refreshToken']).not.toBe(b.body['refreshToken']);
    expect((await refresh(a.body['refreshToken'])).status).toBe(200);
    expect((await refresh(b.body['refreshToken'])).status).toBe(200);
  });

  it('revokes the whole family when a used token comes back after the grace window', async () => {
    const id = await createUser(db, { email: 'reuse@example.com', password: PASSWORD });
    const first = await signIn('reuse@example.com');
    const other = await signIn('reuse@example.com');
    const second = await refresh(first.refreshToken);
    await backdateRotation(11);
    const replay = await refresh(first.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body['code']).toBe('invalid-refresh-token');
    // The legitimate successor is dead too...
    expect((await refresh(second.body['refreshToken'])).status).toBe(401);
    // ...but another sign-in (another family) is untouched.
    expect((await refresh(other.refreshToken)).status).toBe(200);
    const live = await db.pool.query<{ family_id: string; revoked: boolean }>(
      `SELECT DISTINCT family_id, revoked_at IS NOT NULL AS revoked FROM auth.refresh_tokens WHERE user_id = $1`,
      [id],
    );
    expect(live.rows.filter((row) => row.revoked)).toHaveLength(1);
  });

  it('refuses expired, unknown and malformed tokens, and disabled users', async () => {
    const id = await createUser(db, { email: 'exp@example.com', password: PASSWORD });
    const first = await signIn('exp@example.com');
    await db.pool.query(
      `UPDATE auth.refresh_tokens SET expires_at = created_at + interval '1 millisecond' WHERE user_id = $1`,
      [id],
    );
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh('A'.repeat(43))).status).toBe(401);
    const malformed = await refresh('short');
    expect(malformed.status).toBe(400);
    expect((await refresh(undefined)).body['code']).toBe('field-required');

    const off = await createUser(db, { email: 'later-off@example.com', password: PASSWORD });
    const session = await signIn('later-off@example.com');
    await db.pool.query('UPDATE public.portal_users SET is_disabled = true WHERE id = $1', [off]);
    const refused = await refresh(session.refreshToken);
    expect(refused.status).toBe(401);
    await db.pool.query('UPDATE public.portal_users SET is_disabled = false WHERE id = $1', [off]);
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });

  it('logs out by revoking the family, whatever the token state', async () => {
    await createUser(db, { email: 'out@example.com', password: PASSWORD });
    const first = await signIn('out@example.com');
    const second = await refresh(first.refreshToken);
    const reply = await server.post('/logout', { refreshToken: first.refreshToken });
    expect(reply.status).toBe(200);
    expect((await refresh(second.body['refreshToken'])).status).toBe(401);
    expect((await server.post('/logout', { refreshToken: 'B'.repeat(43) })).status).toBe(200);
    expect((await server.post('/logout', {})).status).toBe(400);
  });

  it('sets the access-token cookie only when the cookie mode is on', async () => {
    await createUser(db, { email: 'cookie@example.com', password: PASSWORD });
    const plain = await server.post('/login', { email: 'cookie@example.com', password: PASSWORD });
    expect(plain.headers.get('set-cookie')).toBeNull();
    const reply = await cookieServer.post('/login', {
      email: 'cookie@example.com',
      password: PASSWORD,
    });
    const cookie = reply.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`accessToken=${String(reply.body['accessToken'])}`);
    expect(cookie).toContain('Max-Age=604800');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('HttpOnly');
    const claims = jwtPayload(reply.body['accessToken']);
    expect((claims['exp'] as number) - (claims['iat'] as number)).toBe(600);
    const out = await cookieServer.post('/logout', { refreshToken: reply.body['refreshToken'] });
    expect(out.headers.get('set-cookie')).toContain('accessToken=;');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  codeIn,
  createUser,
  jwtPayload,
  migratedDatabase,
  PASSWORD,
  startAuth,
  startMailbox,
  type AuthServer,
  type Mailbox,
} from './harness.ts';

/*
 * POST /register and /quick-auth: the password policy and the spec's wording, e-mail
 * normalisation, referral attribution (another user's name, any case, once; unknown and self
 * ignored), and quick-auth never handing out an existing account.
 */
describe.each(databaseTargets)('register and quick-auth on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let server: AuthServer;

  const referrerOf = async (email: string) =>
    (
      await db.pool.query<{ referrer_id: string | null }>(
        'SELECT referrer_id FROM public.portal_users WHERE lower(email) = $1',
        [email],
      )
    ).rows[0]?.referrer_id;

  beforeAll(async () => {
    db = await migratedDatabase(target);
    mailbox = await startMailbox();
    server = await startAuth(db, mailbox);
  });
  afterAll(async () => {
    await server?.close();
    await mailbox?.close();
    await db?.dispose();
  });

  it('registers, stores argon2id, and signs in with the same password', async () => {
    const reply = await server.post('/register', {
      email: 'New@Example.com',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ is2fa: false, accessToken: expect.any(String) as unknown });
    const { rows } = await db.pool.query<{
      email: string;
      password_hash: string;
      is_verified_email: boolean;
    }>(`SELECT email, password_hash, is_verified_email FROM public.portal_users WHERE id = $1`, [
      jwtPayload(reply.body['accessToken'])['userId'],
    ]);
    expect(rows[0]).toMatchObject({ email: 'new@example.com', is_verified_email: false });
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const login = await server.post('/login', { email: 'new@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
  });

  it('answers a taken e-mail, in any case, as quick-auth does: a code for the owner, nothing else', async () => {
    // Decision 016: /register says no more than /quick-auth about which addresses exist.
    const reply = await server.post('/register', { email: 'NEW@example.COM', password: PASSWORD });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['is2fa', 'token']);
    await mailbox.waitFor('new@example.com');
    const { rowCount } = await db.pool.query(
      `SELECT 1 FROM public.portal_users WHERE lower(email) = 'new@example.com'`,
    );
    expect(rowCount).toBe(1);
  });

  it.each([
    ['short1A', 'password-too-short'],
    ['a'.repeat(129), 'password-too-long'],
    ['alllowercaseletters', 'password-too-simple'],
    ['1234567890123', 'password-too-simple'],
    ['Policy@example.com', 'password-is-email'],
  ])('applies the password policy to %s', async (password, code) => {
    const reply = await server.post('/register', { email: 'policy@example.com', password });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code, field: 'password' });
  });

  it('uses the spec wording for mismatched passwords and bad e-mails, in three languages', async () => {
    const body = { email: 'm@example.com', password: PASSWORD, confirmPassword: `${PASSWORD}x` };
    const en = await server.post('/register', body);
    expect(en.body).toMatchObject({
      code: 'passwords-do-not-match',
      message: 'The passwords do not match',
    });
    const ru = await server.post('/register', { ...body, locale: 'ru' });
    expect(ru.body['message']).toBe('Пароли не совпадают');
    const ua = await server.post('/register', body, { 'accept-language': 'uk-UA' });
    expect(ua.body['message']).toBe('Паролі не збігаються');
    const email = await server.post('/register', { email: 'a@b', password: PASSWORD });
    expect(email.body).toMatchObject({ code: 'invalid-email', message: 'Invalid email' });
    const none = await server.post('/register', {});
    expect(none.body).toMatchObject({ code: 'field-required', message: 'The field is required' });
    const noDb = await db.pool.query(
      `SELECT 1 FROM public.portal_users WHERE email = 'm@example.com'`,
    );
    expect(noDb.rowCount).toBe(0);
  });

  it("records another user's referral name, in any case, as the referrer", async () => {
    const referrer = await createUser(db, { email: 'ref@example.com', referralName: 'Alice2026' });
    await server.post('/register', {
      email: 'r1@example.com',
      password: PASSWORD,
      referralCode: 'aLICE2026',
    });
    expect(await referrerOf('r1@example.com')).toBe(referrer);
    await server.post('/quick-auth', { email: 'r2@example.com', referralCode: 'ALICE2026' });
    expect(await referrerOf('r2@example.com')).toBe(referrer);
    // The cookie itself, when the browser sends it here.
    await server.post(
      '/register',
      { email: 'r5@example.com', password: PASSWORD },
      { cookie: 'referral_code=alice2026' },
    );
    expect(await referrerOf('r5@example.com')).toBe(referrer);
  });

  it('ignores unknown, malformed and self referrals, and never re-attributes', async () => {
    const ok = await server.post('/register', {
      email: 'r3@example.com',
      password: PASSWORD,
      referralCode: 'nosuchname',
    });
    expect(ok.status).toBe(200);
    expect(await referrerOf('r3@example.com')).toBeNull();
    const odd = await server.post('/register', {
      email: 'r4@example.com',
      password: PASSWORD,
      referralCode: { $ne: 1 },
    });
    expect(odd.status).toBe(200);
    expect(await referrerOf('r4@example.com')).toBeNull();
    // Self: an existing account naming its own referral name (and anyone's) changes nothing.
    const self = await createUser(db, { email: 'self@example.com', referralName: 'SelfName' });
    await server.post('/quick-auth', { email: 'self@example.com', referralCode: 'selfname' });
    await server.post('/quick-auth', { email: 'r3@example.com', referralCode: 'alice2026' });
    expect(await referrerOf('self@example.com')).toBeNull();
    expect(await referrerOf('r3@example.com')).toBeNull();
    expect(self).toBeTruthy();
  });

  it('creates an unverified account for a new e-mail on quick-auth', async () => {
    const reply = await server.post('/quick-auth', {
      email: 'quick@example.com',
      referralCode: '',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ is2fa: false, refreshToken: expect.any(String) as unknown });
    const { rows } = await db.pool.query(
      `SELECT password_hash, is_verified_email FROM public.portal_users WHERE email = 'quick@example.com'`,
    );
    expect(rows[0]).toEqual({ password_hash: null, is_verified_email: false });
  });

  it('grants nothing for an existing e-mail without the mailed code', async () => {
    const id = await createUser(db, { email: 'owner@example.com', password: PASSWORD });
    const reply = await server.post('/quick-auth', { email: 'owner@example.com' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['is2fa', 'token']);
    const sessions = await db.pool.query('SELECT 1 FROM auth.refresh_tokens WHERE user_id = $1', [
      id,
    ]);
    expect(sessions.rowCount).toBe(0);
    const guess = await server.post('/login_with_2fa', {
      token: reply.body['token'],
      code: '123456',
    });
    expect(guess.status).toBe(400);
    const code = codeIn(await mailbox.waitFor('owner@example.com'));
    const ok = await server.post('/login_with_2fa', {
      token: reply.body['token'],
      code: code === '123456' ? '654321' : code,
    });
    if (code !== '123456') {
      expect(ok.status).toBe(200);
      expect(jwtPayload(ok.body['accessToken'])['userId']).toBe(id);
    }
  });

  it('ends sessions opened before an e-mail was first proven', async () => {
    // Someone quick-auths an address they do not own...
    const squatter = await server.post('/quick-auth', { email: 'victim@example.com' });
    expect(squatter.status).toBe(200);
    // ...the owner later proves the mailbox with a code: the squatter's session is gone.
    const owner = await server.post('/quick-auth', { email: 'victim@example.com' });
    const code = codeIn(await mailbox.waitFor('victim@example.com'));
    const ok = await server.post('/login_with_2fa', { token: owner.body['token'], code });
    expect(ok.status).toBe(200);
    const stolen = await server.post('/refresh_tokens', {
      refreshToken: squatter.body['refreshToken'],
    });
    expect(stolen.status).toBe(401);
    const mine = await server.post('/refresh_tokens', { refreshToken: ok.body['refreshToken'] });
    expect(mine.status).toBe(200);
  });
});

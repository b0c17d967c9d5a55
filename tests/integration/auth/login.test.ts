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
 * POST /login and /login_with_2fa: tokens straight away without 2FA; with 2FA a ticket, a code
 * through a real SMTP hop, and tokens only for the right code; the challenge dies after five
 * wrong codes; the generic error for every bad credential.
 */
describe.each(databaseTargets)('login on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let server: AuthServer;

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

  it('signs in without 2FA and returns both tokens', async () => {
    const id = await createUser(db, { email: 'plain@example.com', password: PASSWORD });
    const reply = await server.post('/login', {
      email: '  Plain@Example.com ',
      password: PASSWORD,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ is2fa: false, refreshToken: expect.any(String) as unknown });
    const claims = jwtPayload(reply.body['accessToken']);
    expect(claims['userId']).toBe(id);
    expect(claims['exp']).toBe((claims['iat'] as number) + 900);
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('answers every bad credential with the same generic error', async () => {
    await createUser(db, { email: 'nopass@example.com' });
    const answers = await Promise.all([
      server.post('/login', { email: 'plain@example.com', password: 'Wrong-password-1' }),
      server.post('/login', { email: 'nobody@example.com', password: PASSWORD }),
      server.post('/login', { email: 'nopass@example.com', password: PASSWORD }),
    ]);
    for (const reply of answers) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({
        code: 'invalid-email-password',
        message: 'Incorrect email or password',
      });
    }
  });

  it('validates the body and answers in the request language', async () => {
    const missing = await server.post('/login', { password: PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: 'field-required',
      message: 'The field is required',
      field: 'email',
    });
    const bad = await server.post('/login', { email: 'not-an-email', password: PASSWORD });
    expect(bad.body).toMatchObject({ code: 'invalid-email', message: 'Invalid email' });
    const ru = await server.post(
      '/login',
      { email: 'nobody@example.com', password: PASSWORD },
      { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' },
    );
    expect(ru.body['message']).toBe('Неверный адрес электронной почты или пароль');
    const ua = await server.post('/login', { email: 'x', password: PASSWORD, locale: 'ua' });
    expect(ua.body['message']).toBe('Некоректна адреса електронної пошти');
  });

  it('refuses a disabled account after a correct password', async () => {
    await createUser(db, { email: 'off@example.com', password: PASSWORD, disabled: true });
    const reply = await server.post('/login', { email: 'off@example.com', password: PASSWORD });
    expect(reply.status).toBe(403);
    expect(reply.body['code']).toBe('user-disabled');
  });

  it('runs the two-step 2FA login end to end through SMTP', async () => {
    const id = await createUser(db, { email: 'two@example.com', password: PASSWORD, is2fa: true });
    const first = await server.post('/login', { email: 'two@example.com', password: PASSWORD });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['is2fa', 'token']);
    expect(first.body['is2fa']).toBe(true);
    // Nothing but the challenge exists yet.
    const sessions = await db.pool.query('SELECT 1 FROM auth.refresh_tokens WHERE user_id = $1', [
      id,
    ]);
    expect(sessions.rowCount).toBe(0);

    const mail = await mailbox.waitFor('two@example.com');
    expect(mail.subject).toBe('Your sign-in code');
    const code = codeIn(mail);
    const stored = await db.pool.query<{ code_hash: Buffer }>(
      'SELECT code_hash FROM auth.login_codes WHERE user_id = $1',
      [id],
    );
    expect(stored.rows[0]!.code_hash.toString('hex')).not.toContain(code);

    const second = await server.post('/login_with_2fa', { token: first.body['token'], code });
    expect(second.status).toBe(200);
    expect(jwtPayload(second.body['accessToken'])['userId']).toBe(id);
    // The ticket is single-use.
    const again = await server.post('/login_with_2fa', { token: first.body['token'], code });
    expect(again.status).toBe(400);
    expect(again.body['code']).toBe('invalid-ticket');
  });

  it('kills a code after five wrong tries, even the right code after that', async () => {
    await createUser(db, { email: 'guess@example.com', password: PASSWORD, is2fa: true });
    const first = await server.post('/login', { email: 'guess@example.com', password: PASSWORD });
    const code = codeIn(await mailbox.waitFor('guess@example.com'));
    const wrong = code === '000000' ? '111111' : '000000';
    const codes: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const reply = await server.post('/login_with_2fa', {
        token: first.body['token'],
        code: wrong,
      });
      expect(reply.status).toBe(400);
      codes.push(reply.body['code']);
    }
    expect(codes).toEqual([
      'invalid-code',
      'invalid-code',
      'invalid-code',
      'invalid-code',
      'invalid-ticket',
    ]);
    const right = await server.post('/login_with_2fa', { token: first.body['token'], code });
    expect(right.body['code']).toBe('invalid-ticket');
    const format = await server.post('/login_with_2fa', {
      token: first.body['token'],
      code: '12a',
    });
    expect(format.body['code']).toBe('invalid-code-format');
  });

  it('sends no second mail within the cooldown, and a new code invalidates the old one', async () => {
    const id = await createUser(db, {
      email: 'again@example.com',
      password: PASSWORD,
      is2fa: true,
    });
    const first = await server.post('/login', { email: 'again@example.com', password: PASSWORD });
    const code = codeIn(await mailbox.waitFor('again@example.com'));
    // Within 60 s: a fresh ticket for the code already mailed; the first ticket stops working.
    const second = await server.post('/login', { email: 'again@example.com', password: PASSWORD });
    expect(second.body['is2fa']).toBe(true);
    expect(mailbox.to('again@example.com')).toHaveLength(1);
    expect(
      (await server.post('/login_with_2fa', { token: first.body['token'], code })).status,
    ).toBe(400);

    // After the cooldown (backdated here) a new mail and a new code; the old code is dead.
    await db.pool.query(
      `UPDATE auth.login_codes SET created_at = now() - interval '61 seconds' WHERE user_id = $1`,
      [id],
    );
    const third = await server.post('/login', { email: 'again@example.com', password: PASSWORD });
    const mail = await mailbox.waitFor(
      'again@example.com',
      (m) => mailbox.to('again@example.com').indexOf(m) === 1,
    );
    const newCode = codeIn(mail);
    const live = await db.pool.query(
      'SELECT count(*)::int AS n FROM auth.login_codes WHERE user_id = $1 AND consumed_at IS NULL',
      [id],
    );
    expect(live.rows[0]).toEqual({ n: 1 });
    const ok = await server.post('/login_with_2fa', { token: third.body['token'], code: newCode });
    expect(ok.status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const id = await createUser(db, { email: 'late@example.com', password: PASSWORD, is2fa: true });
    const first = await server.post('/login', { email: 'late@example.com', password: PASSWORD });
    const code = codeIn(await mailbox.waitFor('late@example.com'));
    await db.pool.query(
      `UPDATE auth.login_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [id],
    );
    const reply = await server.post('/login_with_2fa', { token: first.body['token'], code });
    expect(reply.body['code']).toBe('invalid-ticket');
  });

  it('mails in the user locale, escapes the address and never quotes the User-Agent', async () => {
    await createUser(db, {
      email: "o'neil&co@example.com",
      password: PASSWORD,
      is2fa: true,
      locale: 'ru',
    });
    const payload = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    await server.post(
      '/login',
      { email: "o'neil&co@example.com", password: PASSWORD },
      { 'user-agent': payload },
    );
    const mail = await mailbox.waitFor("o'neil&co@example.com");
    expect(mail.subject).toBe('Ваш код для входа');
    const html = String(mail.html);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('script');
    expect(html).toContain('o&#39;neil&amp;co@example.com');
    expect(mail.text).not.toContain('script');
    expect(mail.text).toContain('неизвестное устройство');
  });
});

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

const NEW_PASSWORD = 'Brand-new-pass-7';

/** The reset token from a reset mail's link. */
function linkIn(text: string | undefined): { url: string; token: string } {
  const match =
    /(http:\/\/localhost:3000(?:\/ru|\/ua)?\/change-password\/([A-Za-z0-9_-]{43}))/.exec(
      text ?? '',
    );
  if (!match) throw new Error(`no reset link in: ${text}`);
  return { url: match[1]!, token: match[2]! };
}

/*
 * /reset_password and /change-password: the same answer whether or not the account exists, a
 * single-use one-hour link built from configuration, the policy on the new password, every
 * session ended and a notice mailed; and the signed-in change with the current password.
 */
describe.each(databaseTargets)('password reset and change on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let server: AuthServer;

  const login = (email: string, password: string) => server.post('/login', { email, password });

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

  it('answers the same for known and unknown e-mails, and mails only the known one', async () => {
    await createUser(db, { email: 'known@example.com', password: PASSWORD });
    const known = await server.post('/reset_password', { email: 'known@example.com' });
    const unknown = await server.post('/reset_password', { email: 'unknown@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    await server.auth.drain();
    expect(mailbox.to('known@example.com')).toHaveLength(1);
    expect(mailbox.to('unknown@example.com')).toHaveLength(0);
    const bad = await server.post('/reset_password', { email: 'nope' });
    expect(bad.body['code']).toBe('invalid-email');
  });

  it('resets once with the link, ends every session, and mails a notice', async () => {
    const id = await createUser(db, {
      email: 'reset@example.com',
      password: PASSWORD,
      locale: 'ua',
    });
    const session = (await login('reset@example.com', PASSWORD)).body;
    await server.post('/reset_password', { email: 'reset@example.com' });
    const mail = await mailbox.waitFor('reset@example.com');
    expect(mail.subject).toBe('Скидання пароля');
    const { url, token } = linkIn(mail.text);
    expect(url.startsWith('http://localhost:3000/ua/change-password/')).toBe(true);
    const stored = await db.pool.query<{ token_hash: Buffer }>(
      'SELECT token_hash FROM auth.password_reset_tokens WHERE user_id = $1',
      [id],
    );
    expect(stored.rows[0]!.token_hash.toString('base64url')).not.toBe(token);

    // The page asks whether the link is good as it opens; asking uses nothing up.
    const check = (value: unknown) => server.post('/change-password/check', { token: value });
    expect((await check(token)).body).toEqual({ ok: true, valid: true });
    expect((await check(token)).body).toEqual({ ok: true, valid: true });
    expect((await check('A'.repeat(43))).body).toEqual({ ok: true, valid: false });
    expect((await check('cut-short')).body).toEqual({ ok: true, valid: false });

    // A policy error does not use the link up.
    const weak = await server.post('/change-password', { token, password: 'weak' });
    expect(weak.body['code']).toBe('password-too-short');
    const mismatch = await server.post('/change-password', {
      token,
      password: NEW_PASSWORD,
      confirmPassword: 'Other-password-1',
    });
    expect(mismatch.body['message']).toBe('The passwords do not match');

    const ok = await server.post('/change-password', { token, password: NEW_PASSWORD });
    expect(ok.status).toBe(200);
    const again = await server.post('/change-password', { token, password: 'Another-pass-99' });
    expect(again.status).toBe(400);
    expect(again.body['code']).toBe('invalid-reset-token');
    expect((await check(token)).body).toEqual({ ok: true, valid: false });

    expect((await login('reset@example.com', PASSWORD)).status).toBe(401);
    expect((await login('reset@example.com', NEW_PASSWORD)).status).toBe(200);
    expect(
      (await server.post('/refresh_tokens', { refreshToken: session['refreshToken'] })).status,
    ).toBe(401);
    const notice = await mailbox.waitFor(
      'reset@example.com',
      (m) => m.subject === 'Ваш пароль змінено',
    );
    expect(notice.text).toContain('reset@example.com');
  });

  it('refuses an expired link', async () => {
    const id = await createUser(db, { email: 'expired@example.com', password: PASSWORD });
    await server.post('/reset_password', { email: 'expired@example.com' });
    const { token } = linkIn((await mailbox.waitFor('expired@example.com')).text);
    await db.pool.query(
      `UPDATE auth.password_reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [id],
    );
    const reply = await server.post('/change-password', { token, password: NEW_PASSWORD });
    expect(reply.body['code']).toBe('invalid-reset-token');
    expect((await login('expired@example.com', PASSWORD)).status).toBe(200);
  });

  it('a newer link replaces an older one', async () => {
    await createUser(db, { email: 'twice@example.com', password: PASSWORD });
    await server.post('/reset_password', { email: 'twice@example.com' });
    const first = linkIn((await mailbox.waitFor('twice@example.com')).text).token;
    await server.post('/reset_password', { email: 'twice@example.com' });
    const second = linkIn(
      (await mailbox.waitFor('twice@example.com', (m) => !m.text?.includes(first))).text,
    ).token;
    expect(
      (await server.post('/change-password', { token: first, password: NEW_PASSWORD })).status,
    ).toBe(400);
    expect(
      (await server.post('/change-password', { token: second, password: NEW_PASSWORD })).status,
    ).toBe(200);
  });

  it('changes the password signed in, with the current one, keeping only this session', async () => {
    await createUser(db, { email: 'signed@example.com', password: PASSWORD });
    const other = (await login('signed@example.com', PASSWORD)).body;
    const current = (await login('signed@example.com', PASSWORD)).body;
    const auth = { authorization: `Bearer ${String(current['accessToken'])}` };
    const wrong = await server.post(
      '/change-password',
      { currentPassword: 'Not-the-password-1', password: NEW_PASSWORD },
      auth,
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body['code']).toBe('invalid-current-password');
    const ok = await server.post(
      '/change-password',
      { currentPassword: PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      auth,
    );
    expect(ok.status).toBe(200);
    expect(
      (await server.post('/refresh_tokens', { refreshToken: other['refreshToken'] })).status,
    ).toBe(401);
    expect(
      (await server.post('/refresh_tokens', { refreshToken: current['refreshToken'] })).status,
    ).toBe(200);
    await mailbox.waitFor('signed@example.com', (m) => m.subject === 'Your password was changed');
    const forged = await server.post(
      '/change-password',
      { currentPassword: NEW_PASSWORD, password: 'Third-password-3' },
      { authorization: `Bearer ${String(current['accessToken'])}x` },
    );
    expect(forged.status).toBe(401);
    expect(forged.body['code']).toBe('invalid-access-token');
    const none = await server.post('/change-password', { password: NEW_PASSWORD });
    expect(none.body).toMatchObject({ code: 'field-required', field: 'token' });
  });
});

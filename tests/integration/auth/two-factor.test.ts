import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HASURA_PROJECT_DIR } from '@app/engine/database';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, type TestEngine } from '../../support/engine.ts';
import {
  codeIn,
  createUser,
  migratedDatabase,
  PASSWORD,
  startAuth,
  startMailbox,
  type AuthServer,
  type Mailbox,
} from './harness.ts';

/*
 * Issue 19, point 7a: two-factor sign-in could be turned off with an access token alone (the
 * user role could update portal_users.is_2fa through GraphQL). Now only the auth service's
 * POST /two-factor changes it, and only with the account's password (or, for an account without
 * one, a code mailed to its proven address).
 */

const SET_2FA = `mutation ($id: uuid!, $on: Boolean!) {
  update_portal_users_by_pk(pk_columns: { id: $id }, _set: { is_2fa: $on }) { id is_2fa }
}`;

describe.each(databaseTargets)(
  'security regression: two-factor needs more than an access token on $name',
  (target) => {
    let db: TestDatabase;
    let mailbox: Mailbox;
    let server: AuthServer;
    let engine: TestEngine;

    beforeAll(async () => {
      db = await migratedDatabase(target);
      mailbox = await startMailbox();
      server = await startAuth(db, mailbox);
      engine = await startTestEngine(db.url, { directory: `${HASURA_PROJECT_DIR}metadata` });
    });
    afterAll(async () => {
      await engine?.close();
      await server?.close();
      await mailbox?.close();
      await db?.dispose();
    });

    const is2faOf = async (id: string) =>
      (
        await db.pool.query<{ is_2fa: boolean }>('SELECT is_2fa FROM portal_users WHERE id = $1', [
          id,
        ])
      ).rows[0]?.is_2fa;

    async function signIn(email: string): Promise<string> {
      const reply = await server.post('/login', { email, password: PASSWORD });
      expect(reply.status).toBe(200);
      return reply.body['accessToken'] as string;
    }

    it('refuses a GraphQL update of is_2fa by the user (the permission is gone)', async () => {
      const id = await createUser(db, { email: 'gql-on@example.com', password: PASSWORD });
      const token = await signIn('gql-on@example.com');
      const reply = await engine.graphql(SET_2FA, {
        headers: { authorization: `Bearer ${token}` },
        variables: { id, on: true },
      });
      expect(reply.body.data ?? null).toBeNull();
      expect(reply.body.errors?.[0]?.extensions.code).toBe('validation-failed');
      expect(await is2faOf(id)).toBe(false);

      // The other direction, on an account that has it on: still on.
      const guarded = await createUser(db, { email: 'gql-off@example.com', password: PASSWORD });
      const direct = await signIn('gql-off@example.com');
      await db.pool.query('UPDATE portal_users SET is_2fa = true WHERE id = $1', [guarded]);
      const off = await engine.graphql(SET_2FA, {
        headers: { authorization: `Bearer ${direct}` },
        variables: { id: guarded, on: false },
      });
      expect(off.body.errors?.[0]?.extensions.code).toBe('validation-failed');
      expect(await is2faOf(guarded)).toBe(true);
    });

    it('refuses POST /two-factor without the right password and changes nothing', async () => {
      const id = await createUser(db, { email: 'pw@example.com', password: PASSWORD });
      const token = await signIn('pw@example.com');
      const auth = { authorization: `Bearer ${token}` };
      const wrong = await server.post(
        '/two-factor',
        { enabled: true, password: 'Wrong-password-1' },
        auth,
      );
      expect(wrong.status).toBe(403);
      expect(wrong.body['code']).toBe('invalid-current-password');
      const missing = await server.post('/two-factor', { enabled: true }, auth);
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: 'field-required', field: 'password' });
      const anonymous = await server.post('/two-factor', { enabled: true, password: PASSWORD });
      expect(anonymous.status).toBe(401);
      expect(await is2faOf(id)).toBe(false);
      expect(mailbox.to('pw@example.com')).toEqual([]);
    });

    it('turns it on and off with the password, announcing each change by e-mail', async () => {
      const id = await createUser(db, { email: 'toggle@example.com', password: PASSWORD });
      const token = await signIn('toggle@example.com');
      const auth = { authorization: `Bearer ${token}` };
      const on = await server.post('/two-factor', { enabled: true, password: PASSWORD }, auth);
      expect(on.status).toBe(200);
      expect(on.body).toEqual({ ok: true, enabled: true });
      expect(await is2faOf(id)).toBe(true);
      await mailbox.waitFor(
        'toggle@example.com',
        (mail) => mail.subject === 'Two-factor sign-in is on',
      );
      // Login now asks for the mailed code.
      const login = await server.post('/login', {
        email: 'toggle@example.com',
        password: PASSWORD,
      });
      expect(login.body['is2fa']).toBe(true);

      // Saving the same state again changes nothing and mails nothing.
      await server.post('/two-factor', { enabled: true, password: PASSWORD }, auth);
      const off = await server.post('/two-factor', { enabled: false, password: PASSWORD }, auth);
      expect(off.body).toEqual({ ok: true, enabled: false });
      expect(await is2faOf(id)).toBe(false);
      await mailbox.waitFor(
        'toggle@example.com',
        (mail) => mail.subject === 'Two-factor sign-in is off',
      );
      await server.auth.drain();
      expect(
        mailbox
          .to('toggle@example.com')
          .filter((mail) => /^Two-factor/.test(mail.subject ?? ''))
          .map((mail) => mail.subject),
      ).toEqual(['Two-factor sign-in is on', 'Two-factor sign-in is off']);
    });

    it('refuses bad input clearly, in the request language, and changes nothing', async () => {
      const id = await createUser(db, { email: 'input@example.com', password: PASSWORD });
      const token = await signIn('input@example.com');
      const auth = { authorization: `Bearer ${token}`, 'accept-language': 'uk-UA' };
      const noState = await server.post('/two-factor', { password: PASSWORD }, auth);
      expect(noState.status).toBe(400);
      expect(noState.body).toMatchObject({ code: 'field-required', field: 'enabled' });
      expect(noState.body['message']).toBe("Поле обов'язкове");
      const stringState = await server.post(
        '/two-factor',
        { enabled: 'true', password: PASSWORD },
        auth,
      );
      expect(stringState.body).toMatchObject({ code: 'invalid-request', field: 'enabled' });
      const wrong = await server.post('/two-factor', { enabled: true, password: 'nope' }, auth);
      expect(wrong.body['message']).toBe('Поточний пароль невірний');
      expect(await is2faOf(id)).toBe(false);
    });

    it('limits password attempts per account as login does', async () => {
      const limited = await startAuth(db, mailbox, {
        limits: {
          twoFactor: {
            ip: { limit: 100, windowSeconds: 900 },
            subject: { limit: 3, windowSeconds: 900 },
          },
        },
        env: { AUTH_RATE_LIMIT_FACTOR: '1' },
      });
      try {
        const id = await createUser(db, { email: 'guess@example.com', password: PASSWORD });
        const token = await signIn('guess@example.com');
        const auth = { authorization: `Bearer ${token}` };
        const statuses: number[] = [];
        // Asking without a password (how the web learns it needs one) checks nothing: free.
        for (let i = 0; i < 5; i += 1) {
          statuses.push((await limited.post('/two-factor', { enabled: true }, auth)).status);
        }
        for (let i = 0; i < 3; i += 1) {
          statuses.push(
            (
              await limited.post(
                '/two-factor',
                { enabled: true, password: `Wrong-${i}-pass` },
                auth,
              )
            ).status,
          );
        }
        const right = await limited.post(
          '/two-factor',
          { enabled: true, password: PASSWORD },
          auth,
        );
        expect(statuses).toEqual([400, 400, 400, 400, 400, 403, 403, 403]);
        expect(right.status).toBe(429);
        expect(right.body['code']).toBe('too-many-requests');
        expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await is2faOf(id)).toBe(false);
      } finally {
        await limited.close();
      }
    });

    it('confirms with a mailed code on an account without a password', async () => {
      // Signed in while they had a password; then the account has none (as after quick-auth).
      const id = await createUser(db, { email: 'nopw@example.com', password: PASSWORD });
      const other = await createUser(db, { email: 'nopw-other@example.com', password: PASSWORD });
      const token = await signIn('nopw@example.com');
      const otherToken = await signIn('nopw-other@example.com');
      await db.pool.query('UPDATE portal_users SET password_hash = NULL WHERE id IN ($1, $2)', [
        id,
        other,
      ]);
      const auth = { authorization: `Bearer ${token}` };

      const asked = await server.post('/two-factor', { enabled: true }, auth);
      expect(asked.status).toBe(200);
      expect(asked.body['is2fa']).toBe(true);
      const ticket = asked.body['token'] as string;
      const mail = await mailbox.waitFor(
        'nopw@example.com',
        (m) => m.subject === 'Confirm turning on two-factor sign-in',
      );
      const code = codeIn(mail);
      const wrongCode = code === '000000' ? '111111' : '000000';
      expect(await is2faOf(id)).toBe(false);

      // The wrong code, the right code for the other state, the ticket at /login_with_2fa, and
      // the ticket from another account: all refused, nothing changed.
      const wrong = await server.post(
        '/two-factor',
        { enabled: true, token: ticket, code: wrongCode },
        auth,
      );
      expect(wrong.body['code']).toBe('invalid-code');
      const flipped = await server.post(
        '/two-factor',
        { enabled: false, token: ticket, code },
        auth,
      );
      expect(flipped.body['code']).toBe('invalid-ticket');
      const session = await server.post('/login_with_2fa', { token: ticket, code });
      expect(session.body['code']).toBe('invalid-ticket');
      const stranger = await server.post(
        '/two-factor',
        { enabled: true, token: ticket, code },
        { authorization: `Bearer ${otherToken}` },
      );
      expect(stranger.body['code']).toBe('invalid-ticket');
      expect(await is2faOf(id)).toBe(false);
      expect(await is2faOf(other)).toBe(false);

      const done = await server.post('/two-factor', { enabled: true, token: ticket, code }, auth);
      expect(done.body).toEqual({ ok: true, enabled: true });
      expect(await is2faOf(id)).toBe(true);
      // Single use.
      const again = await server.post('/two-factor', { enabled: true, token: ticket, code }, auth);
      expect(again.body['code']).toBe('invalid-ticket');
    });

    it('refuses an account whose address is unproven or missing, password or not', async () => {
      // Signed up with a password, address never proven (decision 016: it may not set 2FA).
      const signedUp = await createUser(db, {
        email: 'signed-up@example.com',
        password: PASSWORD,
        verified: false,
      });
      const signedUpToken = await signIn('signed-up@example.com');
      const refused = await server.post(
        '/two-factor',
        { enabled: true, password: PASSWORD },
        { authorization: `Bearer ${signedUpToken}` },
      );
      expect(refused.status).toBe(409);
      expect(refused.body['code']).toBe('two-factor-needs-email');
      expect(await is2faOf(signedUp)).toBe(false);

      const unproven = await createUser(db, {
        email: 'unproven@example.com',
        password: PASSWORD,
        verified: false,
      });
      const telegram = await createUser(db, { email: 'telegram@example.com', password: PASSWORD });
      const tokens = [await signIn('unproven@example.com'), await signIn('telegram@example.com')];
      await db.pool.query('UPDATE portal_users SET password_hash = NULL WHERE id = $1', [unproven]);
      // A Telegram account: no e-mail, no password.
      await db.pool.query(
        'UPDATE portal_users SET email = NULL, password_hash = NULL, telegram_id = 4242 WHERE id = $1',
        [telegram],
      );
      for (const [index, id] of [unproven, telegram].entries()) {
        const reply = await server.post(
          '/two-factor',
          { enabled: true },
          { authorization: `Bearer ${tokens[index]!}` },
        );
        expect(reply.status).toBe(409);
        expect(reply.body['code']).toBe('two-factor-needs-email');
        expect(await is2faOf(id)).toBe(false);
      }
      await server.auth.drain();
      expect(mailbox.to('unproven@example.com')).toEqual([]);
      expect(mailbox.to('signed-up@example.com')).toEqual([]);
    });
  },
);

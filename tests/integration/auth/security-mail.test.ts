import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { mailContent } from '../../support/mailbox.ts';
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
 * Issue 19, point 5 (SECURITY.md 22): the code mail quoted the request's User-Agent verbatim, so
 * whoever asked for the code (and holds its ticket) could write "reply with this code to …"
 * inside a genuine mail from us. Security mails now name the device by the browser and OS a
 * parser recognised, and nothing the client wrote reaches them. Every mail the service sends
 * (sign-in codes, reset link, password changed, two-factor codes and notices) is scanned as
 * delivered over SMTP.
 */

const BAIT = 'reply with this code to security-desk@evil.example';
/** A real Chrome on Windows with the attacker's text appended. */
const CHROME_WITH_BAIT = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 (${BAIT})`;
/** Nothing a parser knows: bowser's fallback would call this browser "Please". */
const BAIT_ONLY = `Please/1.0 (${BAIT}) <b>urgent</b>`;

/** Fails if anything of the bait is in what a reader of the mail sees. */
function expectNoClientText(mail: ParsedMail): void {
  const { text } = mailContent(mail);
  const lower = text.toLowerCase();
  for (const fragment of [
    'security-desk',
    'evil.example',
    'reply with this code',
    'please',
    'urgent',
  ]) {
    expect(lower, `"${fragment}" in ${mail.subject ?? ''}`).not.toContain(fragment);
  }
}

describe.each(databaseTargets)(
  'security regression: no client text in security mails on $name',
  (target) => {
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

    it('names a known browser and OS in the sign-in code mail, and nothing else', async () => {
      await createUser(db, { email: 'chrome@example.com', password: PASSWORD, is2fa: true });
      const reply = await server.post(
        '/login',
        { email: 'chrome@example.com', password: PASSWORD },
        { 'user-agent': CHROME_WITH_BAIT },
      );
      expect(reply.body['is2fa']).toBe(true);
      const mail = await mailbox.waitFor('chrome@example.com');
      expectNoClientText(mail);
      expect(mail.text).toContain('Requested from 127.0.0.1, Chrome 120 on Windows.');
    });

    it('calls an agent it does not know "an unknown device", in the mail language', async () => {
      await createUser(db, { email: 'odd@example.com', password: PASSWORD, is2fa: true });
      await createUser(db, {
        email: 'odd-ru@example.com',
        password: PASSWORD,
        is2fa: true,
        locale: 'ru',
      });
      await createUser(db, {
        email: 'odd-ua@example.com',
        password: PASSWORD,
        is2fa: true,
        locale: 'ua',
      });
      const expected = {
        'odd@example.com': 'Requested from 127.0.0.1, an unknown device.',
        'odd-ru@example.com': 'Запрошен с 127.0.0.1, неизвестное устройство.',
        'odd-ua@example.com': 'Запитано з 127.0.0.1, невідомий пристрій.',
      };
      for (const [email, line] of Object.entries(expected)) {
        await server.post('/login', { email, password: PASSWORD }, { 'user-agent': BAIT_ONLY });
        const mail = await mailbox.waitFor(email);
        expectNoClientText(mail);
        expect(mail.text).toContain(line);
      }
    });

    it('keeps the bait out of every other security mail', async () => {
      const id = await createUser(db, { email: 'every@example.com', password: PASSWORD });
      const bait = { 'user-agent': BAIT_ONLY };

      // Quick-auth of a known address: a sign-in code.
      const quick = await server.post('/quick-auth', { email: 'every@example.com' }, bait);
      expect(quick.body['is2fa']).toBe(true);
      const quickMail = await mailbox.waitFor('every@example.com', (mail) =>
        /sign-in code/.test(mail.subject ?? ''),
      );
      const session = await server.post(
        '/login_with_2fa',
        { token: quick.body['token'], code: codeIn(quickMail) },
        bait,
      );
      expect(session.status).toBe(200);
      const auth = { ...bait, authorization: `Bearer ${String(session.body['accessToken'])}` };

      // Two-factor on and off (notices), then the password changed and a reset link.
      expect(
        (await server.post('/two-factor', { enabled: true, password: PASSWORD }, auth)).status,
      ).toBe(200);
      expect(
        (await server.post('/two-factor', { enabled: false, password: PASSWORD }, auth)).status,
      ).toBe(200);
      const changed = await server.post(
        '/change-password',
        {
          currentPassword: PASSWORD,
          password: 'Brand-new-pass-7',
          confirmPassword: 'Brand-new-pass-7',
        },
        auth,
      );
      expect(changed.status).toBe(200);
      expect(
        (await server.post('/reset_password', { email: 'every@example.com' }, bait)).status,
      ).toBe(200);
      await server.auth.drain();

      // A passwordless account confirms a two-factor change with a mailed code.
      await db.pool.query('UPDATE portal_users SET password_hash = NULL WHERE id = $1', [id]);
      const asked = await server.post('/two-factor', { enabled: true }, auth);
      expect(asked.body['is2fa']).toBe(true);
      await mailbox.waitFor('every@example.com', (mail) => /two-factor/i.test(mail.subject ?? ''));
      await server.auth.drain();

      const mails = mailbox.to('every@example.com');
      expect(mails.map((mail) => mail.subject).sort()).toEqual(
        [
          'Confirm turning on two-factor sign-in',
          'Reset your password',
          'Two-factor sign-in is off',
          'Two-factor sign-in is on',
          'Your password was changed',
          'Your sign-in code',
        ].sort(),
      );
      for (const mail of mails) {
        expectNoClientText(mail);
        const { text } = mailContent(mail);
        if (!/Reset your password/.test(mail.subject ?? '')) {
          expect(text).toContain('an unknown device');
        }
      }
    });
  },
);

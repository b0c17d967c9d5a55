import { createHash } from 'node:crypto';

import { sign } from '@telegram-apps/init-data-node';
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
  TEST_BOT_TOKEN,
  type AuthServer,
  type Mailbox,
} from './harness.ts';

/*
 * Issue 22, decision 037: a portal account gets a one-time link into the bot (its Telegram is
 * bound by the bot: tests/integration/bot/account-link.test.ts), and a Telegram account adds an
 * e-mail it proves with a mailed code, after which that address signs in to the same account.
 */

const userIdOf = (accessToken: unknown): string =>
  (jwtPayload(accessToken)['https://hasura.io/jwt/claims'] as Record<string, string>)[
    'x-hasura-user-id'
  ] ?? '';

let nextTelegramId = 610_000_000 + Math.floor(Math.random() * 1_000_000);

describe.each(databaseTargets)('linking Telegram and e-mail accounts on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let server: AuthServer;

  beforeAll(async () => {
    db = await migratedDatabase(target);
    mailbox = await startMailbox();
    server = await startAuth(db, mailbox, { env: { TELEGRAM_BOT_USERNAME: 'exchange_test_bot' } });
  });
  afterAll(async () => {
    await server?.close();
    await mailbox?.close();
    await db?.dispose();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function signIn(email: string) {
    const reply = await server.post('/login', { email, password: PASSWORD });
    expect(reply.status).toBe(200);
    return reply.body as { accessToken: string; refreshToken: string };
  }

  /** A Telegram account made as the mini-app makes it; its tokens. */
  async function telegramAccount() {
    nextTelegramId += 1;
    const initData = sign(
      { user: { id: nextTelegramId, first_name: 'Taras' }, query_id: 'AAHdF6IQAAAAAN0XohDhrOrc' },
      TEST_BOT_TOKEN,
      new Date(Date.now() - 5000),
    );
    const reply = await server.post('/telegram-auth', { initData });
    expect(reply.status).toBe(200);
    return reply.body as { accessToken: string; refreshToken: string };
  }

  const row = async (id: string) =>
    (
      await db.pool.query<{
        email: string | null;
        is_verified_email: boolean;
        telegram_id: string | null;
        referral_name: string;
      }>(
        `SELECT email, is_verified_email, telegram_id::text, referral_name
           FROM portal_users WHERE id = $1`,
        [id],
      )
    ).rows[0]!;

  it('gives a proven account a one-time t.me link whose token is stored only hashed', async () => {
    const id = await createUser(db, { email: 'link@example.com', password: PASSWORD });
    const { accessToken } = await signIn('link@example.com');
    expect((await server.post('/telegram-link/status', {}, bearer(accessToken))).body).toEqual({
      linked: false,
      username: null,
    });
    const reply = await server.post('/telegram-link', {}, bearer(accessToken));
    expect(reply.status).toBe(200);
    expect(reply.body['expiresIn']).toBe(900);
    const url = new URL(reply.body['url'] as string);
    expect(`${url.origin}${url.pathname}`).toBe('https://t.me/exchange_test_bot');
    const token = /^link_([A-Za-z0-9_-]{43})$/.exec(url.searchParams.get('start') ?? '')?.[1];
    expect(token).toBeDefined();
    const stored = await db.pool.query<{ token_hash: Buffer; minutes: number }>(
      `SELECT token_hash, round(extract(epoch FROM expires_at - now()) / 60)::int AS minutes
         FROM auth.telegram_link_tokens WHERE user_id = $1 AND consumed_at IS NULL`,
      [id],
    );
    expect(stored.rows).toEqual([
      { token_hash: createHash('sha256').update(token!).digest(), minutes: 15 },
    ]);
    // A new link replaces the one shown before.
    await server.post('/telegram-link', {}, bearer(accessToken));
    const open = await db.pool.query(
      'SELECT 1 FROM auth.telegram_link_tokens WHERE user_id = $1 AND consumed_at IS NULL',
      [id],
    );
    expect(open.rowCount).toBe(1);
  });

  it('refuses a link to visitors, unproven accounts and accounts linked already', async () => {
    expect((await server.post('/telegram-link', {})).status).toBe(401);
    await createUser(db, { email: 'unproven@example.com', password: PASSWORD, verified: false });
    const unproven = await signIn('unproven@example.com');
    const refused = await server.post('/telegram-link', {}, bearer(unproven.accessToken));
    expect(refused.status).toBe(409);
    expect(refused.body['code']).toBe('telegram-link-needs-email');

    const linked = await createUser(db, { email: 'linked@example.com', password: PASSWORD });
    await db.pool.query('UPDATE portal_users SET telegram_id = 5551 WHERE id = $1', [linked]);
    const session = await signIn('linked@example.com');
    const again = await server.post('/telegram-link', {}, bearer(session.accessToken));
    expect(again.body['code']).toBe('telegram-already-linked');
    const tokens = await db.pool.query(
      'SELECT 1 FROM auth.telegram_link_tokens t JOIN portal_users u ON u.id = t.user_id WHERE u.email IN ($1, $2)',
      ['unproven@example.com', 'linked@example.com'],
    );
    expect(tokens.rowCount).toBe(0);
  });

  it('unlinks, ending the sessions the Telegram side may hold; never a Telegram-only account', async () => {
    const id = await createUser(db, { email: 'unlink@example.com', password: PASSWORD });
    await db.pool.query('UPDATE portal_users SET telegram_id = 5552 WHERE id = $1', [id]);
    const elsewhere = await signIn('unlink@example.com');
    const here = await signIn('unlink@example.com');
    const reply = await server.post('/telegram-unlink', {}, bearer(here.accessToken));
    expect(reply.status).toBe(200);
    expect((await row(id)).telegram_id).toBeNull();
    const stale = await server.post('/refresh_tokens', { refreshToken: elsewhere.refreshToken });
    expect(stale.status).toBe(401);
    expect((await server.post('/refresh_tokens', { refreshToken: here.refreshToken })).status).toBe(
      200,
    );

    const telegram = await telegramAccount();
    const refused = await server.post('/telegram-unlink', {}, bearer(telegram.accessToken));
    expect(refused.status).toBe(409);
    expect(refused.body['code']).toBe('telegram-unlink-needs-email');
    expect((await row(userIdOf(telegram.accessToken))).telegram_id).not.toBeNull();
  });

  it('lets a Telegram account add an e-mail it proves, then sign in with it on the portal', async () => {
    const telegram = await telegramAccount();
    const id = userIdOf(telegram.accessToken);
    const before = await row(id);
    const asked = await server.post(
      '/add-email',
      { email: ' Tg.Person@Example.com ' },
      bearer(telegram.accessToken),
    );
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ is2fa: true, token: expect.any(String) as unknown });
    const code = codeIn(await mailbox.waitFor('tg.person@example.com'));
    // Nothing is the account's before the code comes back.
    expect((await row(id)).email).toBeNull();
    const wrong = await server.post(
      '/add-email',
      { token: asked.body['token'], code: code === '000000' ? '000001' : '000000' },
      bearer(telegram.accessToken),
    );
    expect(wrong.body['code']).toBe('invalid-code');
    const proven = await server.post(
      '/add-email',
      { token: asked.body['token'], code },
      bearer(telegram.accessToken),
    );
    expect(proven.status).toBe(200);
    expect(proven.body).toEqual({ ok: true, email: 'tg.person@example.com' });
    // Proven, and nothing the Telegram user set is reset; the mini-app's session goes on.
    expect(await row(id)).toEqual({
      ...before,
      email: 'tg.person@example.com',
      is_verified_email: true,
    });
    const refreshed = await server.post('/refresh_tokens', {
      refreshToken: telegram.refreshToken,
    });
    expect(refreshed.status).toBe(200);

    // The portal: a code to the address signs in to the same account.
    const mails = mailbox.to('tg.person@example.com');
    const challenge = await server.post('/quick-auth', { email: 'tg.person@example.com' });
    expect(challenge.body['is2fa']).toBe(true);
    const signInCode = codeIn(
      await mailbox.waitFor('tg.person@example.com', (mail) => !mails.includes(mail)),
    );
    const portal = await server.post('/login_with_2fa', {
      token: challenge.body['token'],
      code: signInCode,
    });
    expect(portal.status).toBe(200);
    expect(userIdOf(portal.body['accessToken'])).toBe(id);

    // One address per account: a second one is refused.
    const second = await server.post(
      '/add-email',
      { email: 'other@example.com' },
      bearer(telegram.accessToken),
    );
    expect(second.body['code']).toBe('account-has-email');
  });

  it('answers a taken address as a free one, and only its mailbox learns it is taken', async () => {
    await createUser(db, { email: 'owner@example.com', password: PASSWORD });
    const telegram = await telegramAccount();
    const id = userIdOf(telegram.accessToken);
    const hostile = { ...bearer(telegram.accessToken), 'user-agent': '<b>Evil</b> <script>' };
    const taken = await server.post('/add-email', { email: 'owner@example.com' }, hostile);
    const free = await server.post('/add-email', { email: 'free@example.com' }, hostile);
    expect(taken.status).toBe(free.status);
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(free.body).sort());
    const notice = await mailbox.waitFor('owner@example.com');
    expect(notice.subject).toBe('This address already has an account');
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
    expect(`${notice.text}${String(notice.html)}`).not.toMatch(/<script|<b>|Evil/);
    // No code completes that challenge, and the account stays without an address.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const guess = await server.post(
        '/add-email',
        { token: taken.body['token'], code: String(100000 + attempt) },
        bearer(telegram.accessToken),
      );
      expect(guess.status).toBe(400);
    }
    expect((await row(id)).email).toBeNull();
  });

  it('limits add-email per account like the other mailing endpoints', async () => {
    const limited = await startAuth(db, mailbox, {
      limits: {
        addEmail: {
          ip: { limit: 100, windowSeconds: 3600 },
          subject: { limit: 2, windowSeconds: 3600 },
        },
      },
      env: { AUTH_RATE_LIMIT_FACTOR: '1' },
    });
    try {
      const telegram = await telegramAccount();
      const statuses: number[] = [];
      for (const email of ['l1@example.com', 'l2@example.com', 'l3@example.com']) {
        statuses.push(
          (await limited.post('/add-email', { email }, bearer(telegram.accessToken))).status,
        );
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(mailbox.to('l3@example.com')).toHaveLength(0);
    } finally {
      await limited.close();
    }
  });
});

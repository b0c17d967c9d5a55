import { sign } from '@telegram-apps/init-data-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  jwtPayload,
  migratedDatabase,
  startAuth,
  TEST_BOT_TOKEN,
  type AuthServer,
} from './harness.ts';

const OTHER_BOT_TOKEN = '7000000002:AAanother-bot-token-for-the-same-tests';

function initData(
  user: { id: number; username?: string; language_code?: string; allows_write_to_pm?: boolean },
  options: { ageSeconds?: number; token?: string } = {},
): string {
  const authDate = new Date(Date.now() - (options.ageSeconds ?? 5) * 1000);
  return sign(
    { user: { first_name: 'Test', ...user }, query_id: 'AAHdF6IQAAAAAN0XohDhrOrc' },
    options.token ?? TEST_BOT_TOKEN,
    authDate,
  );
}

/*
 * POST /telegram-auth: Telegram's HMAC over the data-check string, checked in constant time;
 * an age limit of minutes and a small future skew; accounts found or created by Telegram id,
 * never linked by username.
 */
describe.each(databaseTargets)('telegram quick-auth on $name', (target) => {
  let db: TestDatabase;
  let server: AuthServer;
  const usersWith = async (telegramId: number) =>
    (
      await db.pool.query<{ id: string; telegram_username: string | null; locale: string }>(
        'SELECT id, telegram_username, locale FROM public.portal_users WHERE telegram_id = $1',
        [telegramId],
      )
    ).rows;

  beforeAll(async () => {
    db = await migratedDatabase(target);
    server = await startAuth(db, undefined, { env: { TELEGRAM_INIT_DATA_MAX_AGE_SECONDS: '300' } });
  });
  afterAll(async () => {
    await server?.close();
    await db?.dispose();
  });

  it('creates the account on first sign-in and finds it after (JSON and raw bodies)', async () => {
    const first = await server.post('/telegram-auth', {
      initData: initData({ id: 424242, username: 'alice', language_code: 'uk' }),
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ is2fa: false, refreshToken: expect.any(String) as unknown });
    const rows = await usersWith(424242);
    expect(rows).toEqual([
      { id: expect.any(String) as unknown, telegram_username: 'alice', locale: 'ua' },
    ]);
    const raw = await server.request('/telegram-auth', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: initData({ id: 424242, username: 'alice_renamed' }),
    });
    expect(raw.status).toBe(200);
    expect(jwtPayload(raw.body['accessToken'])['userId']).toBe(rows[0]!.id);
    expect((await usersWith(424242))[0]!.telegram_username).toBe('alice_renamed');
  });

  it('records that the bot may write first when the signed data says allows_write_to_pm', async () => {
    const writable = async (telegramId: number) =>
      (
        await db.pool.query<{ source: string }>(
          'SELECT source FROM bot.write_access WHERE telegram_id = $1',
          [telegramId],
        )
      ).rows;
    expect(
      (await server.post('/telegram-auth', { initData: initData({ id: 535353 }) })).status,
    ).toBe(200);
    expect(await writable(535353)).toEqual([]);
    const allowed = initData({ id: 535353, allows_write_to_pm: true });
    expect((await server.post('/telegram-auth', { initData: allowed })).status).toBe(200);
    expect(await writable(535353)).toEqual([{ source: 'init_data' }]);
  });

  it('never links by username: another id with the same username is another account', async () => {
    const reply = await server.post('/telegram-auth', {
      initData: initData({ id: 515151, username: 'alice_renamed' }),
    });
    expect(reply.status).toBe(200);
    expect(jwtPayload(reply.body['accessToken'])['userId']).not.toBe(
      (await usersWith(424242))[0]!.id,
    );
  });

  it("takes the deep link's referral code when it creates the account, never after", async () => {
    const { rows: referrers } = await db.pool.query<{ id: string }>(
      `INSERT INTO public.portal_users (email, referral_name) VALUES ('referrer-tg@example.com', 'TgFriend')
       RETURNING id`,
    );
    const referrerOf = async (telegramId: number) =>
      (
        await db.pool.query<{ referrer_id: string | null }>(
          'SELECT referrer_id FROM public.portal_users WHERE telegram_id = $1',
          [telegramId],
        )
      ).rows[0]?.referrer_id;
    const first = await server.post('/telegram-auth', {
      initData: initData({ id: 818181 }),
      referralCode: 'tgfriend',
    });
    expect(first.status).toBe(200);
    expect(await referrerOf(818181)).toBe(referrers[0]!.id);

    // An existing account keeps its (absent) referrer; an odd code is ignored, not an error.
    await server.post('/telegram-auth', { initData: initData({ id: 828282 }) });
    const later = await server.post('/telegram-auth', {
      initData: initData({ id: 828282 }),
      referralCode: 'TgFriend',
    });
    expect(later.status).toBe(200);
    expect(await referrerOf(828282)).toBeNull();
    const odd = await server.post('/telegram-auth', {
      initData: initData({ id: 838383 }),
      referralCode: '<b>x</b>',
    });
    expect(odd.status).toBe(200);
    expect(await referrerOf(838383)).toBeNull();
  });

  it('limits sign-ins per Telegram user, not per address: one carrier address, many people', async () => {
    // The default limits (factor 1); every request comes from 127.0.0.1, as a mobile carrier's
    // customers come from one address.
    const limited = await startAuth(db, undefined, { env: { AUTH_RATE_LIMIT_FACTOR: '1' } });
    try {
      for (let person = 0; person < 100; person += 1) {
        const reply = await limited.post('/telegram-auth', {
          initData: initData({ id: 700000 + person }),
        });
        expect(reply.status, `person ${person}`).toBe(200);
      }
      // One person signing in again and again is held back, and told how long to wait.
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof limited.post>> | undefined;
      for (let attempt = 0; attempt < 31; attempt += 1) {
        // From the mini-app's origin, as a browser sends it: Retry-After must be readable there.
        last = await limited.post(
          '/telegram-auth',
          { initData: initData({ id: 799999 }) },
          { origin: 'http://localhost:3000' },
        );
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
      expect(last!.body['code']).toBe('too-many-requests');
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.headers.get('access-control-expose-headers')).toBe('retry-after');
    } finally {
      await limited.close();
    }
  });

  it('refuses forged, stale, future and other-bot init data', async () => {
    const valid = initData({ id: 616161 });
    const forgedHash = valid.replace(
      /hash=([0-9a-f])/,
      (_m, c: string) => `hash=${c === 'a' ? 'b' : 'a'}`,
    );
    const tamperedUser = valid.replace('616161', '616162');
    const cases: Array<[string, string]> = [
      [forgedHash, 'invalid-init-data'],
      [tamperedUser, 'invalid-init-data'],
      [initData({ id: 616161 }, { token: OTHER_BOT_TOKEN }), 'invalid-init-data'],
      [initData({ id: 616161 }, { ageSeconds: 301 }), 'init-data-expired'],
      // Signed by Telegram, dated ahead of our clock: not "expired" (issue 22).
      [initData({ id: 616161 }, { ageSeconds: -120 }), 'init-data-from-future'],
      [`${valid}&hash=${'0'.repeat(64)}`, 'invalid-init-data'],
      ['user=%7B%22id%22%3A1%7D&auth_date=1', 'invalid-init-data'],
    ];
    for (const [data, code] of cases) {
      const reply = await server.post('/telegram-auth', { initData: data });
      expect(reply.status, data).toBe(401);
      expect(reply.body['code'], data).toBe(code);
    }
    expect(await usersWith(616161)).toEqual([]);
  });

  it('refuses a disabled account', async () => {
    await server.post('/telegram-auth', { initData: initData({ id: 717171 }) });
    await db.pool.query(
      'UPDATE public.portal_users SET is_disabled = true WHERE telegram_id = 717171',
    );
    const reply = await server.post('/telegram-auth', { initData: initData({ id: 717171 }) });
    expect(reply.status).toBe(403);
  });
});

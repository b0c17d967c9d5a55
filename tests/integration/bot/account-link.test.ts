import { createHash, randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { botCatalogs } from '@app/shared/i18n/bot';

import { databaseTargets } from '../../support/databases.ts';
import { insertUser } from '../../support/fixtures.ts';

import { event, LANGUAGES, useBotWorld } from './bot-world.ts';
import { buttonsOf, STAFF_CHAT, startBotService, telegramUser } from './harness.ts';

/*
 * /start link_<token> (issue 22, decision 037): the auth service gives a signed-in portal
 * account a one-time link into the bot (auth/account-links.test.ts); whoever opens it becomes
 * that account's Telegram and gets its order notifications. Every refusal changes nothing.
 */

describe.each(databaseTargets)('linking a portal account in the bot on $name', (target) => {
  const world = useBotWorld(target);

  /** A proven portal account and a link token for it, stored as the auth service stores it. */
  async function portalAccount(options: { expiredMinutesAgo?: number } = {}) {
    const id = await insertUser(world.db.pool);
    await world.db.pool.query('UPDATE portal_users SET is_verified_email = true WHERE id = $1', [
      id,
    ]);
    const token = randomBytes(32).toString('base64url');
    await world.db.pool.query(
      `INSERT INTO auth.telegram_link_tokens (user_id, token_hash, expires_at)
       VALUES ($1, $2, now() + make_interval(mins => $3))`,
      [id, createHash('sha256').update(token).digest(), -(options.expiredMinutesAgo ?? -15)],
    );
    return { id, token };
  }

  const telegramOf = async (id: string) =>
    (
      await world.db.pool.query<{ telegram_id: string | null }>(
        'SELECT telegram_id::text FROM portal_users WHERE id = $1',
        [id],
      )
    ).rows[0]?.telegram_id ?? null;

  const consumed = async (token: string) =>
    (
      await world.db.pool.query<{ used: boolean }>(
        'SELECT consumed_at IS NOT NULL AS used FROM auth.telegram_link_tokens WHERE token_hash = $1',
        [createHash('sha256').update(token).digest()],
      )
    ).rows[0]?.used;

  it.each(LANGUAGES)(
    'in %s, links the account once and its order notifications come to the chat',
    async (code, locale) => {
      const { id, token } = await portalAccount();
      const person = telegramUser(code);
      const reply = await world.service.say(person, `/start link_${token}`);
      const texts = botCatalogs[locale];
      expect(reply.text).toBe(texts.link.done);
      expect(await telegramOf(id)).toBe(String(person.id));
      expect(await consumed(token)).toBe(true);

      // The link is used up: someone else opening it changes nothing.
      const other = telegramUser(code);
      expect((await world.service.say(other, `/start link_${token}`)).text).toBe(
        texts.link.invalid,
      );
      expect(await telegramOf(id)).toBe(String(person.id));

      // An order of the account changes status: the person hears of it here.
      const order = await world.orderIn(id, 'paid');
      await world.service.postEvent(
        event(
          'order_status_bot',
          { id: order.id, status: 'paid' },
          { id: order.id, status: 'waiting_for_payment' },
        ),
      );
      await world.service.settled();
      const messages = await world.service.botMessages(person.id, 2);
      expect(messages.at(-1)?.text).toContain(`№${order.number}`);
    },
  );

  it('refuses expired and unknown links, changing nothing', async () => {
    const person = telegramUser('ru');
    const expired = await portalAccount({ expiredMinutesAgo: 1 });
    expect((await world.service.say(person, `/start link_${expired.token}`)).text).toBe(
      botCatalogs.ru.link.invalid,
    );
    expect(await telegramOf(expired.id)).toBeNull();
    expect(await consumed(expired.token)).toBe(false);
    const unknown = randomBytes(32).toString('base64url');
    expect((await world.service.say(person, `/start link_${unknown}`)).text).toBe(
      botCatalogs.ru.link.invalid,
    );
    // An unproven account cannot be linked (its address may be someone else's).
    const unproven = await portalAccount();
    await world.db.pool.query('UPDATE portal_users SET is_verified_email = false WHERE id = $1', [
      unproven.id,
    ]);
    expect((await world.service.say(person, `/start link_${unproven.token}`)).text).toBe(
      botCatalogs.ru.link.invalid,
    );
    expect(await telegramOf(unproven.id)).toBeNull();
  });

  it('refuses a Telegram whose own account has orders; sets aside one that is empty', async () => {
    const { user: person, id: own } = await world.linkedAccount('uk', 'ua');
    await world.db.pool.query('UPDATE portal_users SET email = NULL WHERE id = $1', [own]);
    await world.orderIn(own, 'waiting_for_operator');
    const target = await portalAccount();
    expect((await world.service.say(person, `/start link_${target.token}`)).text).toBe(
      botCatalogs.ua.link.taken,
    );
    expect(await telegramOf(target.id)).toBeNull();
    expect(await telegramOf(own)).toBe(String(person.id));
    expect(await consumed(target.token)).toBe(false);

    // Opened the mini-app once, nothing more: the link is made, that account set aside.
    const empty = await insertUser(world.db.pool, { email: null });
    const newcomer = telegramUser('en');
    await world.db.pool.query('UPDATE portal_users SET telegram_id = $2 WHERE id = $1', [
      empty,
      newcomer.id,
    ]);
    const second = await portalAccount();
    expect((await world.service.say(newcomer, `/start link_${second.token}`)).text).toBe(
      botCatalogs.en.link.done,
    );
    expect(await telegramOf(second.id)).toBe(String(newcomer.id));
    const setAside = await world.db.pool.query<{
      telegram_id: string | null;
      is_disabled: boolean;
    }>('SELECT telegram_id::text, is_disabled FROM portal_users WHERE id = $1', [empty]);
    expect(setAside.rows[0]).toEqual({ telegram_id: null, is_disabled: true });
  });

  it('says so when the account has this Telegram already, or another one', async () => {
    const person = telegramUser('en');
    const first = await portalAccount();
    await world.service.say(person, `/start link_${first.token}`);
    const token = randomBytes(32).toString('base64url');
    await world.db.pool.query(
      `INSERT INTO auth.telegram_link_tokens (user_id, token_hash, expires_at)
       VALUES ($1, $2, now() + interval '15 minutes')`,
      [first.id, createHash('sha256').update(token).digest()],
    );
    expect((await world.service.say(person, `/start link_${token}`)).text).toBe(
      botCatalogs.en.link.already,
    );
    const other = await portalAccount();
    await world.db.pool.query('UPDATE portal_users SET telegram_id = $2 WHERE id = $1', [
      other.id,
      telegramUser().id,
    ]);
    expect((await world.service.say(person, `/start link_${other.token}`)).text).toBe(
      botCatalogs.en.link.otherTelegram,
    );
  });

  it('never puts a link token on a button in a group, nor uses it there', async () => {
    const { id, token } = await portalAccount();
    const member = telegramUser('en');
    const reply = await world.service.sayIn(STAFF_CHAT, member, `/start link_${token}`);
    expect(JSON.stringify(buttonsOf(reply))).not.toContain(token);
    expect(await telegramOf(id)).toBeNull();
    expect(await consumed(token)).toBe(false);
  });

  it('links nothing in the sandbox, whose Telegram users anyone can be', async () => {
    const sandbox = await startBotService(world.db, { TELEGRAM_BOT_TOKEN: '' });
    try {
      const { id, token } = await portalAccount();
      const person = telegramUser('en');
      expect((await sandbox.say(person, `/start link_${token}`)).text).toBe(
        botCatalogs.en.link.sandbox,
      );
      expect(await telegramOf(id)).toBeNull();
      expect(await consumed(token)).toBe(false);
    } finally {
      await sandbox.close();
    }
  });
});

import { Api, GrammyError, InlineKeyboard } from 'grammy';
import { describe, expect, it } from 'vitest';

import { botCatalogs } from '@app/shared/i18n/bot';

import { databaseTargets } from '../../support/databases.ts';
import { insertOrder } from '../../support/fixtures.ts';

import { LANGUAGES, useBotWorld } from './bot-world.ts';
import { buttonsOf, MINIAPP_URL, STAFF_CHAT, telegramUser, TOKEN } from './harness.ts';

/*
 * The bot in group chats (issue 22): the staff chat, or any group someone adds it to. Telegram
 * refuses web_app buttons outside private chats (the emulator answers BUTTON_TYPE_INVALID, as
 * Telegram does), and a person's orders are theirs alone: /start and /history answer with a URL
 * button into the private chat, chatter gets no reply.
 */

const BOT_CHAT = 'https://t.me/exchange_test_bot';

describe.each(databaseTargets)('the Telegram bot in groups on $name', (target) => {
  const world = useBotWorld(target);

  it('is refused what Telegram refuses: web_app buttons in groups, long callback data', async () => {
    const api = new Api(TOKEN, { apiRoot: world.service.apiRoot });
    const webApp = { reply_markup: new InlineKeyboard().webApp('Open', MINIAPP_URL) };
    await expect(api.sendMessage(STAFF_CHAT, 'web app', webApp)).rejects.toMatchObject({
      error_code: 400,
      description: 'Bad Request: BUTTON_TYPE_INVALID',
    });
    const member = telegramUser();
    await world.service.say(member, '/help');
    const sent = await api.sendMessage(member.id, 'web app', webApp);
    await expect(
      api.editMessageText(STAFF_CHAT, sent.message_id, 'moved', webApp),
    ).rejects.toBeInstanceOf(GrammyError);
    const longData = { reply_markup: new InlineKeyboard().text('Press', 'x'.repeat(65)) };
    await expect(api.sendMessage(member.id, 'data', longData)).rejects.toMatchObject({
      description: 'Bad Request: BUTTON_DATA_INVALID',
    });
    // Text is text, whatever it starts with; method names are case-insensitive.
    const bracket = await api.sendMessage(member.id, '[1] {not json}');
    expect(bracket.text).toBe('[1] {not json}');
    const me = await fetch(`${world.service.apiRoot}/bot${TOKEN}/GETME`);
    expect(await me.json()).toMatchObject({ ok: true, result: { username: 'exchange_test_bot' } });
  });

  it.each(LANGUAGES)(
    'answers /start in a group in %s with a link to the private chat',
    async (code, locale) => {
      const member = telegramUser(code);
      const reply = await world.service.sayIn(
        STAFF_CHAT,
        member,
        '/start order_0b8d5a2e-1c4b-4a8e-9f3a-2d6c7e8f9a0b',
      );
      expect(reply.text).toBe(botCatalogs[locale].group.private);
      expect(buttonsOf(reply)).toEqual([
        {
          text: botCatalogs[locale].group.openChat,
          url: `${BOT_CHAT}?start=order_0b8d5a2e-1c4b-4a8e-9f3a-2d6c7e8f9a0b`,
        },
      ]);
      // Addressed to the bot by name, as Telegram writes commands in groups.
      const named = await world.service.sayIn(STAFF_CHAT, member, '/start@exchange_test_bot');
      expect(buttonsOf(named)).toEqual([
        { text: botCatalogs[locale].group.openChat, url: BOT_CHAT },
      ]);
    },
  );

  it('lists no one’s orders in a group, and answers no chatter', async () => {
    const { user, id } = await world.linkedAccount();
    await insertOrder(world.db.pool, id);
    const before = world.service.emulator.chatMessages(STAFF_CHAT).length;
    world.service.emulator.userSends(STAFF_CHAT, user, 'morning, team');
    const history = await world.service.sayIn(STAFF_CHAT, user, '/history');
    expect(history.text).toBe(botCatalogs.en.group.private);
    expect(buttonsOf(history)).toEqual([{ text: botCatalogs.en.group.openChat, url: BOT_CHAT }]);
    // The chatter and the command, and one answer: to the command.
    const since = world.service.emulator.chatMessages(STAFF_CHAT).slice(before);
    expect(since.map((message) => message.from.is_bot)).toEqual([false, false, true]);
    // In the private chat the same person gets their list, with buttons into the mini-app.
    const own = await world.service.say(user, '/history');
    expect(buttonsOf(own)[0]?.['web_app']).toMatchObject({
      url: expect.stringContaining(MINIAPP_URL) as unknown,
    });
  });

  it('offers its commands in private chats only', () => {
    const { commands } = world.service.emulator;
    for (const [languageCode] of LANGUAGES) {
      const language = languageCode === 'en' ? '' : languageCode;
      expect(commands.get(`all_private_chats|${language}`), languageCode).toHaveLength(4);
      expect(commands.has(`default|${language}`), languageCode).toBe(false);
    }
  });
});

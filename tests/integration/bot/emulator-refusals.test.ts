import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express from 'express';
import { Api, GrammyError } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BotApiEmulator, type TelegramUser } from '@app/bot/sandbox/emulator';

/*
 * The Bot API emulator refuses what Telegram refuses, with Telegram's HTTP status, error_code and
 * description, and lets the allowed counterpart through. No database: the emulator alone.
 */

const TOKEN = '7000000099:emulator-refusals';
const person: TelegramUser = { id: 501, is_bot: false, first_name: 'Oksana' };
const stranger: TelegramUser = { id: 502, is_bot: false, first_name: 'Taras' };
const GROUP = -100500;

async function serve(emulator: BotApiEmulator): Promise<{ server: Server; url: string }> {
  const server = express().use(emulator.router()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The refusal a call ends in: Telegram's error_code and description. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; description: string }> {
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(GrammyError);
  const { error_code: code, description } = error as GrammyError;
  return { code, description };
}

function useEmulator(options: { testEnvironment?: boolean } = {}) {
  const world = {} as { emulator: BotApiEmulator; api: Api; url: string; server: Server };
  beforeAll(async () => {
    world.emulator = new BotApiEmulator(
      TOKEN,
      { id: 7000000099, first_name: 'Exchange', username: 'exchange_refusals_bot' },
      options,
    );
    world.emulator.addChat({ id: GROUP, type: 'group', title: 'Staff' });
    world.emulator.userStartedBot(person);
    Object.assign(world, await serve(world.emulator));
    world.api = new Api(TOKEN, { apiRoot: world.url });
  });
  afterAll(async () => {
    world.server.closeAllConnections();
    await new Promise((resolve) => world.server.close(resolve));
  });
  return world;
}

describe('the emulator as Telegram production', () => {
  const world = useEmulator();

  it('refuses a first message to a user who never started the bot (403)', async () => {
    expect(await refusal(world.api.sendMessage(stranger.id, 'Hello'))).toEqual({
      code: 403,
      description: "Forbidden: bot can't initiate conversation with a user",
    });
    world.emulator.userSends(stranger.id, stranger, 'hi');
    await expect(world.api.sendMessage(stranger.id, 'Hello')).resolves.toMatchObject({
      text: 'Hello',
    });
    await expect(world.api.sendMessage(person.id, 'Hello')).resolves.toMatchObject({
      text: 'Hello',
    });
  });

  it('refuses a web_app button over plain http (BUTTON_URL_INVALID), takes https', async () => {
    const button = (url: string) => ({
      reply_markup: { inline_keyboard: [[{ text: 'Open', web_app: { url } }]] },
    });
    expect(
      await refusal(world.api.sendMessage(person.id, 'Open', button('http://localhost:3000/'))),
    ).toEqual({ code: 400, description: 'Bad Request: BUTTON_URL_INVALID' });
    await expect(
      world.api.sendMessage(person.id, 'Open', button('https://app.example/')),
    ).resolves.toMatchObject({ text: 'Open' });
  });

  it('refuses broken HTML markup, takes what Telegram supports', async () => {
    const html = { parse_mode: 'HTML' as const };
    expect(await refusal(world.api.sendMessage(person.id, '<b>bold', html))).toEqual({
      code: 400,
      description:
        'Bad Request: can\'t parse entities: Can\'t find end tag corresponding to start tag "b"',
    });
    expect(await refusal(world.api.sendMessage(person.id, 'a <foo>x</foo>', html))).toEqual({
      code: 400,
      description:
        'Bad Request: can\'t parse entities: Unsupported start tag "foo" at byte offset 2',
    });
    const rich =
      '<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ins>i</ins><s>s</s><strike>s</strike>' +
      '<del>d</del><span class="tg-spoiler">h</span><tg-spoiler>h</tg-spoiler>' +
      '<a href="https://t.me/">l</a><code>c</code><pre>p</pre><blockquote>q</blockquote>' +
      '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji> &lt;&gt;&amp;&quot;';
    const sent = await world.api.sendMessage(person.id, rich, html);
    expect(sent.text).toBe('bsieuissdhhlcpq👍 <>&"');
    // Without a parse mode the same text is just text.
    await expect(world.api.sendMessage(person.id, '<b>bold')).resolves.toMatchObject({
      text: '<b>bold',
    });
  });

  it('refuses an edit that changes nothing, and empty text', async () => {
    const markup = { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] };
    const sent = await world.api.sendMessage(person.id, 'Same', { reply_markup: markup });
    expect(
      await refusal(
        world.api.editMessageText(person.id, sent.message_id, 'Same', { reply_markup: markup }),
      ),
    ).toEqual({
      code: 400,
      description:
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
    });
    expect(await refusal(world.api.editMessageText(person.id, sent.message_id, ''))).toEqual({
      code: 400,
      description: 'Bad Request: message text is empty',
    });
    expect(await refusal(world.api.sendMessage(person.id, ''))).toEqual({
      code: 400,
      description: 'Bad Request: message text is empty',
    });
    await expect(
      world.api.editMessageText(person.id, sent.message_id, 'Same'),
    ).resolves.toMatchObject({ text: 'Same' });
    await expect(
      world.api.editMessageText(person.id, sent.message_id, 'Changed'),
    ).resolves.toMatchObject({ text: 'Changed' });
  });

  it('refuses to answer a callback query it never issued, or one answered already', async () => {
    const tooOld = {
      code: 400,
      description:
        'Bad Request: query is too old and response timeout expired or query ID is invalid',
    };
    expect(await refusal(world.api.answerCallbackQuery('0123456789abcdef'))).toEqual(tooOld);
    const sent = await world.api.sendMessage(person.id, 'Press', {
      reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] },
    });
    const id = world.emulator.userPresses(person.id, person, sent.message_id, 'go');
    await expect(world.api.answerCallbackQuery(id)).resolves.toBe(true);
    expect(await refusal(world.api.answerCallbackQuery(id))).toEqual(tooOld);
  });

  it('refuses getUpdates while a webhook is set (409)', async () => {
    await world.api.setWebhook('https://bot.example/hook');
    const response = await fetch(`${world.url}/bot${TOKEN}/getUpdates`);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      ok: false,
      error_code: 409,
      description:
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    });
    await world.api.deleteWebhook();
    const polled = await fetch(`${world.url}/bot${TOKEN}/getUpdates?offset=-1`);
    expect(polled.status).toBe(200);
  });

  it('answers an earlier long poll 409 when a second poller arrives', async () => {
    const poll = () => fetch(`${world.url}/bot${TOKEN}/getUpdates?offset=1000000&timeout=5`);
    const first = poll();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = poll();
    const earlier = await first;
    expect(earlier.status).toBe(409);
    expect(await earlier.json()).toEqual({
      ok: false,
      error_code: 409,
      description:
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    });
    world.emulator.userSends(person.id, person, 'hello');
    const later = await second;
    expect(later.status).toBe(200);
  });
});

describe("the emulator as Telegram's test environment", () => {
  const world = useEmulator({ testEnvironment: true });

  it('takes an http web_app URL, still not one without a scheme', async () => {
    const button = (url: string) => ({
      reply_markup: { inline_keyboard: [[{ text: 'Open', web_app: { url } }]] },
    });
    await expect(
      world.api.sendMessage(person.id, 'Open', button('http://localhost:3000/')),
    ).resolves.toMatchObject({ text: 'Open' });
    expect(await refusal(world.api.sendMessage(person.id, 'Open', button('localhost')))).toEqual({
      code: 400,
      description: 'Bad Request: BUTTON_URL_INVALID',
    });
  });
});

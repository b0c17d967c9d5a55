import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import express from 'express';
import { Api, GrammyError } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BotApiEmulator, type TelegramUser } from '@app/bot/sandbox/emulator';

/*
 * The bot's answers to button presses (answerCallbackQuery) as the emulator keeps them for the
 * sandbox page, which shows them as Telegram does (a toast, an alert, a URL opened), and
 * Telegram's limit on their text: 200 characters (Bot API), refused beyond with
 * "Bad Request: MESSAGE_TOO_LONG".
 */

const TOKEN = '7000000098:emulator-callback-answers';
const person: TelegramUser = { id: 601, is_bot: false, first_name: 'Ivanna' };

describe('callback answers in the emulator', () => {
  let emulator: BotApiEmulator;
  let server: Server;
  let api: Api;
  beforeAll(async () => {
    emulator = new BotApiEmulator(TOKEN, {
      id: 7000000098,
      first_name: 'Exchange',
      username: 'exchange_answers_bot',
    });
    emulator.userStartedBot(person);
    server = express().use(emulator.router()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    api = new Api(TOKEN, {
      apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A press on a fresh message's button; the query's id. */
  async function press(): Promise<string> {
    const markup = { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] };
    const message = await api.sendMessage(person.id, 'Press', { reply_markup: markup });
    return emulator.userPresses(person.id, person, message.message_id, 'go');
  }

  it('keeps a toast, an alert and a URL answer for the chat they were pressed in', async () => {
    await api.answerCallbackQuery(await press(), { text: 'Marked handled' });
    await api.answerCallbackQuery(await press(), { text: 'Only staff can', show_alert: true });
    await api.answerCallbackQuery(await press(), { url: 'https://t.me/exchange_answers_bot' });
    await api.answerCallbackQuery(await press());
    expect(emulator.answersIn(person.id)).toEqual([
      { id: 1, chatId: person.id, text: 'Marked handled', show_alert: false },
      { id: 2, chatId: person.id, text: 'Only staff can', show_alert: true },
      { id: 3, chatId: person.id, show_alert: false, url: 'https://t.me/exchange_answers_bot' },
      { id: 4, chatId: person.id, show_alert: false },
    ]);
    expect(emulator.answersIn(-1)).toEqual([]);
  });

  it('refuses text over 200 characters with MESSAGE_TOO_LONG and keeps nothing', async () => {
    const query = await press();
    const before = emulator.callbackAnswers.length;
    const error = await api
      .answerCallbackQuery(query, { text: 'ж'.repeat(201), show_alert: true })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(400);
    expect((error as GrammyError).description).toBe('Bad Request: MESSAGE_TOO_LONG');
    expect(emulator.callbackAnswers).toHaveLength(before);
    // 200 characters (not bytes: Cyrillic is two bytes each) is within the limit.
    await expect(
      api.answerCallbackQuery(query, { text: 'ж'.repeat(200), show_alert: true }),
    ).resolves.toBe(true);
    expect(emulator.callbackAnswers.at(-1)?.text).toHaveLength(200);
  });
});

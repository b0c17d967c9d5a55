import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import { run, type RunnerHandle } from '@grammyjs/runner';
import express from 'express';
import pg from 'pg';

import { createBotApp } from '@app/bot/app';
import { configureBot, createBot } from '@app/bot/bot';
import { parseBotEnv, type BotEnv } from '@app/bot/env';
import { createOutbox, type OutboxDeps } from '@app/bot/events/outbox';
import { BotApiEmulator, type SandboxMessage, type TelegramUser } from '@app/bot/sandbox/emulator';
import { createLogger } from '@app/shared/log';

import type { TestDatabase } from '../../support/databases.ts';

/*
 * The bot service as it runs, offline: the Bot API emulator on a loopback port as the bot's
 * apiRoot (Telegram's wire format, long polling through @grammyjs/runner), and the service's
 * HTTP side (/events, /telegram/webhook) on another.
 */

export const TOKEN = '7000000001:AAbot-token-for-the-bot-integration-tests';
export const EVENTS_SECRET = 'test-bot-events-secret-0123456789';
export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
export const STAFF_CHAT = -1001234567890;
export const MINIAPP_URL = 'https://exchange.test/telegram-app';
export const WEB_URL = 'https://exchange.test';

let nextUserId = 880_000_000 + Math.floor(Math.random() * 1_000_000);

/** A Telegram user no other test uses, speaking `languageCode`. */
export function telegramUser(languageCode = 'en', firstName = 'Oksana'): TelegramUser {
  nextUserId += 1;
  return { id: nextUserId, is_bot: false, first_name: firstName, language_code: languageCode };
}

export interface BotService {
  env: BotEnv;
  emulator: BotApiEmulator;
  /** The service's own address (/events, /telegram/webhook). */
  url: string;
  /** The emulator's Bot API root (what the bot's apiRoot is). */
  apiRoot: string;
  /** A person writes to the bot in their private chat; resolves with the bot's next reply. */
  say(user: TelegramUser, text: string): Promise<SandboxMessage>;
  /** `user` writes in chat `chatId` (a group); resolves with the bot's next message there. */
  sayIn(chatId: number, user: TelegramUser, text: string): Promise<SandboxMessage>;
  /** Waits until chat `chatId` has `count` messages from the bot; returns them. */
  botMessages(chatId: number, count: number, timeoutMs?: number): Promise<SandboxMessage[]>;
  postEvent(body: unknown, secret?: string | null): Promise<{ status: number; body: unknown }>;
  /** Waits until the outbox has nothing queued or in hand (every event sent or given up). */
  settled(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const listen = async (app: express.Express): Promise<{ server: Server; url: string }> => {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

export async function startBotService(
  db: TestDatabase,
  overrides: Record<string, string> = {},
  options: {
    /** The throttler's limits (default Telegram's). */
    throttle?: Parameters<typeof createBot>[0]['throttle'];
    /** The outbox's timings (default: polled every 100 ms, a failed send retried after 200 ms). */
    outbox?: Partial<Pick<OutboxDeps, 'pollMs' | 'retryDelayMs' | 'maxAttempts'>>;
  } = {},
): Promise<BotService> {
  const emulator = new BotApiEmulator(TOKEN, {
    id: 7000000001,
    first_name: 'Exchange',
    username: 'exchange_test_bot',
  });
  emulator.addChat({ id: STAFF_CHAT, type: 'group', title: 'Staff' });
  const api = await listen(express().use(emulator.router()));
  const env = parseBotEnv({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    TELEGRAM_BOT_TOKEN: TOKEN,
    BOT_EVENTS_SECRET: EVENTS_SECRET,
    TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    TELEGRAM_STAFF_CHAT_IDS: String(STAFF_CHAT),
    MINIAPP_URL,
    PUBLIC_WEB_URL: WEB_URL,
    ...overrides,
  });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  const logger = createLogger('bot', { level: 'silent' });
  const bot = createBot({
    env,
    db: pool,
    logger,
    token: TOKEN,
    apiRoot: api.url,
    botInfo: emulator.botInfo,
    ...(options.throttle ? { throttle: options.throttle } : {}),
  });
  await configureBot(bot, env, logger);
  const runner: RunnerHandle = run(bot, { runner: { fetch: { timeout: 1 } } });
  const outbox = createOutbox({
    env,
    pool,
    api: bot.api,
    logger,
    pollMs: 100,
    retryDelayMs: 200,
    ...options.outbox,
  });
  outbox.start();
  const service = await listen(createBotApp({ env, pool, bot, outbox, logger }));

  const botMessages = async (chatId: number, count: number, timeoutMs = 10_000) => {
    const started = Date.now();
    for (;;) {
      const found = emulator.chatMessages(chatId).filter((message) => message.from.is_bot);
      if (found.length >= count) return found;
      if (Date.now() - started > timeoutMs)
        throw new Error(`chat ${chatId}: ${found.length} of ${count} bot messages`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  const sayIn = async (chatId: number, user: TelegramUser, text: string) => {
    const before = emulator.chatMessages(chatId).filter((message) => message.from.is_bot).length;
    emulator.userSends(chatId, user, text);
    return (await botMessages(chatId, before + 1)).at(-1)!;
  };

  return {
    env,
    emulator,
    url: service.url,
    apiRoot: api.url,
    say: (user, text) => sayIn(user.id, user, text),
    sayIn,
    botMessages,
    async postEvent(body, secret = EVENTS_SECRET) {
      const response = await fetch(`${service.url}/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret === null ? {} : { 'x-events-secret': secret }),
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    async settled(timeoutMs = 10_000) {
      const started = Date.now();
      for (;;) {
        const { rows } = await pool.query<{ open: number }>(
          `SELECT count(*)::int AS open FROM bot.handled_events
            WHERE status IN ('queued', 'sending')`,
        );
        if (rows[0]!.open === 0) return;
        if (Date.now() - started > timeoutMs)
          throw new Error(`the outbox still has ${rows[0]!.open} events to send`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      await outbox.stop(1_000);
      if (runner.isRunning()) await runner.stop();
      await new Promise((resolve) => service.server.close(resolve));
      service.server.closeAllConnections();
      api.server.closeAllConnections();
      await new Promise((resolve) => api.server.close(resolve));
      await pool.end();
    },
  };
}

/** An inline keyboard's buttons, row by row flattened. */
export function buttonsOf(
  message: SandboxMessage,
): Array<Record<string, unknown> & { text: string }> {
  const markup = message.reply_markup as
    { inline_keyboard?: Array<Array<Record<string, unknown> & { text: string }>> } | undefined;
  return markup?.inline_keyboard?.flat() ?? [];
}

/**
 * Everything the bot sent or showed, for tests/support/requisites-scan.ts: every chat message
 * (with its buttons) and the parameters of every Bot API call it made (alerts included).
 */
export function everythingSent(emulator: BotApiEmulator): Array<{ where: string; text: string }> {
  return [
    ...emulator.allMessages().map((message) => ({
      where: `chat ${message.chat.id}, message ${message.message_id}`,
      text: `${message.text}\n${JSON.stringify(message.reply_markup ?? null)}`,
    })),
    ...emulator.calls.map((call, index) => ({
      where: `Bot API call ${index + 1} (${call.method})`,
      text: JSON.stringify(call.params),
    })),
  ];
}

import { createServer } from 'node:net';

import { run, type RunnerHandle } from '@grammyjs/runner';
import pg from 'pg';
import TelegramServer from 'telegram-test-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { configureBot, createBot } from '@app/bot/bot';
import { parseBotEnv } from '@app/bot/env';
import { botCatalogs } from '@app/shared/i18n/bot';
import { createLogger } from '@app/shared/log';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { prepareDatabase } from '../actions/harness.ts';

import { MINIAPP_URL } from './harness.ts';

/*
 * The bot against a Bot API server nobody here wrote (issue 22): `telegram-test-api` from the
 * registry, which knows getMe, getUpdates, sendMessage and a few more, and answers anything
 * else (setMyCommands, setChatMenuButton) with an error. The bot must start there as it
 * starts against Telegram (getMe, its optional settings, long polling) and answer a person's
 * commands; our own emulator cannot show that, since it agrees with us by construction.
 */

const TOKEN = '7000000002:AAtelegram-test-api-token-for-the-bot';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(databaseTargets.slice(0, 1))('the bot on telegram-test-api ($name)', (target) => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let server: TelegramServer;
  let runner: RunnerHandle;
  const warnings: unknown[] = [];

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, {});
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    server = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
    await server.start();
    const env = parseBotEnv({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      TELEGRAM_BOT_TOKEN: TOKEN,
      BOT_UPDATES: 'polling',
      MINIAPP_URL,
    });
    const logger = createLogger('bot', { level: 'silent' });
    logger.warn = (fields: unknown) => void warnings.push(fields);
    // As main.ts starts it: no botInfo given, so grammY asks the server's getMe.
    const bot = createBot({ env, db: pool, logger, token: TOKEN, apiRoot: server.config.apiURL });
    await bot.init();
    await configureBot(bot, env, logger);
    runner = run(bot, { runner: { fetch: { timeout: 1 } } });
  });

  afterAll(async () => {
    if (runner?.isRunning()) await runner.stop();
    await server?.stop();
    await pool?.end();
    await db?.dispose();
  });

  /** A person sends `text`; resolves with the bot's answer to it. */
  async function ask(userId: number, text: string) {
    const client = server.getClient(TOKEN, {
      userId,
      chatId: userId,
      firstName: 'Taras',
      timeout: 5000,
    });
    const before = (await client.getUpdatesHistory()).length;
    await client.sendCommand(client.makeCommand(text));
    for (const started = Date.now(); Date.now() - started < 10_000;) {
      const history = await client.getUpdatesHistory();
      const answer = history
        .slice(before)
        .find((update) => 'message' in update && update.message && !('entities' in update));
      if (answer && 'message' in answer)
        return answer.message as { text: string; reply_markup?: unknown };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no answer to ${text}`);
  }

  it('starts although the server lacks the optional settings, and says so', () => {
    expect(warnings.map((entry) => (entry as { method?: string }).method)).toContain(
      'setMyCommands',
    );
  });

  it('answers /start with the mini-app button, /help and /history', async () => {
    const start = await ask(5150001, '/start');
    expect(start.text).toBe(botCatalogs.en.start.greeting.replace('{{name}}', 'Taras'));
    expect(start.reply_markup).toMatchObject({
      inline_keyboard: [[{ text: botCatalogs.en.start.open, web_app: { url: MINIAPP_URL } }]],
    });
    expect((await ask(5150001, '/help')).text).toBe(botCatalogs.en.help.text);
    expect((await ask(5150001, '/history')).text).toBe(botCatalogs.en.history.noAccount);
  });
});

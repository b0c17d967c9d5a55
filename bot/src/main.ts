/*
 * The bot service on BOT_HOST:BOT_PORT (4200): the engine's event triggers (/events), Telegram's
 * updates (long polling, or the webhook at /telegram/webhook), and without a bot token the
 * Telegram sandbox (a Bot API emulator at /telegram-api and its page at /).
 */
import type { AddressInfo } from 'node:net';

import { run, type RunnerHandle } from '@grammyjs/runner';

import { createServicePool } from '@app/shared/db/service-pool';
import { DEV_TELEGRAM_BOT_TOKEN, loadEnv } from '@app/shared/env';
import { createLogger } from '@app/shared/log';
import {
  exitIfCannotListen,
  keepIdleConnectionsOpen,
  listenOn,
  stopOnSignals,
} from '@app/shared/service';

import { createBotApp, WEBHOOK_PATH } from './app.ts';
import { configureBot, createBot } from './bot.ts';
import { BotEnv, usesSandbox } from './env.ts';
import { createOutbox } from './events/outbox.ts';
import { ensureSandboxAccounts } from './sandbox/accounts.ts';
import { BotApiEmulator } from './sandbox/emulator.ts';
import { SANDBOX_ACCOUNTS, SANDBOX_STAFF_CHAT, sandboxRouter } from './sandbox/sandbox.ts';

const env = loadEnv(BotEnv);
const logger = createLogger('bot', { level: env.LOG_LEVEL });
// A dropped connection (idle, or checked out mid-transaction) must not crash the service.
const pool = createServicePool(env.DATABASE_URL, env.BOT_DB_POOL_SIZE, (error) =>
  logger.warn({ err: error }, 'database connection lost'),
);

const sandbox = usesSandbox(env);
const token = env.TELEGRAM_BOT_TOKEN ?? DEV_TELEGRAM_BOT_TOKEN;
const emulator = sandbox
  ? new BotApiEmulator(
      token,
      {
        id: Number(token.split(':')[0]),
        first_name: 'Exchange (sandbox)',
        username: env.TELEGRAM_BOT_USERNAME,
      },
      // The sandbox is Telegram's test environment: its mini-app is on http://localhost.
      { testEnvironment: true },
    )
  : undefined;
const localUrl = `http://${env.BOT_HOST}:${env.BOT_PORT}`;
if (emulator && !env.TELEGRAM_STAFF_CHAT_IDS) env.TELEGRAM_STAFF_CHAT_IDS = [SANDBOX_STAFF_CHAT];

const bot = createBot({
  env,
  db: pool,
  logger,
  token,
  apiRoot: emulator
    ? `${localUrl}/telegram-api`
    : (env.TELEGRAM_API_ROOT ?? 'https://api.telegram.org'),
  ...(emulator ? { botInfo: emulator.botInfo } : {}),
});
// Sends the event triggers' messages at Telegram's pace (docs/decisions/014-telegram-bot.md).
const outbox = createOutbox({ env, pool, api: bot.api, logger });
const app = createBotApp({
  env,
  pool,
  bot,
  outbox,
  logger,
  observability: { token: env.METRICS_TOKEN, pool },
});
if (emulator) {
  app.use('/telegram-api', emulator.router());
  app.use(sandboxRouter(emulator, token, pool));
}

/**
 * The sandbox's people are ordinary accounts made for it and recorded as the sandbox's, so the
 * stack removes them when it starts without the sandbox (scripts/launcher/database.ts).
 */
async function prepareSandboxAccounts(): Promise<void> {
  const unusable = await ensureSandboxAccounts(pool, SANDBOX_ACCOUNTS);
  if (unusable.length > 0) {
    logger.warn(
      { telegramIds: unusable },
      'these sandbox Telegram users belong to accounts of their own; the sandbox leaves them as they are',
    );
  }
}

let runner: RunnerHandle | undefined;

/** Updates by long polling (development, or BOT_UPDATES=polling) or by webhook (production). */
async function startUpdates(): Promise<void> {
  const mode = emulator
    ? 'polling'
    : (env.BOT_UPDATES ?? (env.NODE_ENV === 'production' ? 'webhook' : 'polling'));
  if (!emulator) await bot.init();
  if (mode === 'webhook') {
    await bot.api.setWebhook(env.TELEGRAM_WEBHOOK_URL!, {
      secret_token: env.TELEGRAM_WEBHOOK_SECRET,
      allowed_updates: ['message', 'callback_query'],
    });
    logger.info({ url: env.TELEGRAM_WEBHOOK_URL, path: WEBHOOK_PATH }, 'updates by webhook');
  } else {
    // A webhook left set makes getUpdates fail (409): polling takes over from it.
    await bot.api.deleteWebhook();
    runner = run(bot);
    // A second poller on the same token (409 Conflict) ends this one outside bot.catch.
    void runner.task()?.catch((error: unknown) => {
      logger.fatal({ err: error }, 'polling stopped');
      process.exit(1);
    });
    logger.info('updates by long polling');
  }
  await configureBot(bot, env, logger);
}

const server = app.listen(listenOn(env.BOT_PORT, env.BOT_HOST));
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ url: `http://${env.BOT_HOST}:${port}`, sandbox }, 'bot service listening');
  outbox.start();
  const ready = emulator ? prepareSandboxAccounts().then(startUpdates) : startUpdates();
  ready.catch((error: unknown) => {
    // Telegram refused (a wrong token, no network): say so and stop, so it is noticed.
    logger.fatal({ err: error }, 'cannot start the bot');
    process.exit(1);
  });
});
exitIfCannotListen(server, logger);
keepIdleConnectionsOpen(server);

stopOnSignals(server, logger, async () => {
  // Messages in hand get a few seconds; the rest are taken over once their claims go stale.
  await outbox.stop(3_000);
  if (runner?.isRunning()) await runner.stop();
  // The sandbox's own long polls end with the runner; anything left is closed.
  server.closeAllConnections();
  await pool.end();
});

import express, { type Express } from 'express';
import { webhookCallback, type Bot } from 'grammy';

import type { Logger } from '@app/shared/log';

import type { Pool } from './db.ts';
import type { BotEnv } from './env.ts';
import { eventsRouter } from './events/handler.ts';
import type { Outbox } from './events/outbox.ts';

export const WEBHOOK_PATH = '/telegram/webhook';

/**
 * The bot service's HTTP side: health, the engine's event triggers (/events, queued in the
 * outbox, which sends them) and, in webhook mode, Telegram's updates (/telegram/webhook,
 * refused without Telegram's secret-token header).
 */
export function createBotApp(deps: {
  env: BotEnv;
  pool: Pool;
  bot: Bot;
  outbox: Pick<Outbox, 'kick'>;
  logger: Logger;
}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(
    eventsRouter({ env: deps.env, pool: deps.pool, outbox: deps.outbox, logger: deps.logger }),
  );
  app.post(
    WEBHOOK_PATH,
    express.json({ limit: '1mb' }),
    webhookCallback(deps.bot, 'express', { secretToken: deps.env.TELEGRAM_WEBHOOK_SECRET }),
  );
  return app;
}

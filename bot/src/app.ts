import express, { type Express } from 'express';
import { webhookCallback, type Bot } from 'grammy';

import type { Logger } from '@app/shared/log';
import {
  createServiceMetrics,
  metricsRoute,
  METRICS_PATH,
  observePool,
  requestObservability,
  scrapeGauge,
  type PoolCounts,
} from '@app/shared/observability';

import type { Pool } from './db.ts';
import type { BotEnv } from './env.ts';
import { eventsRouter } from './events/handler.ts';
import type { Outbox } from './events/outbox.ts';

export const WEBHOOK_PATH = '/telegram/webhook';

/** Messages the outbox still has to send (queued, or claimed and being sent). */
const OUTBOX_BACKLOG = `SELECT count(*)::int AS pending FROM bot.handled_events
  WHERE status IN ('queued', 'sending')`;

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
  /**
   * Request ids, an access-log line per request and GET /metrics (main.ts; `token`:
   * METRICS_TOKEN; `pool`: the pool's counts). Without it (tests) the service answers without.
   */
  observability?: { token: string | undefined; pool?: PoolCounts };
}): Express {
  const app = express();
  app.disable('x-powered-by');
  if (deps.observability) {
    const metrics = createServiceMetrics('bot');
    if (deps.observability.pool) observePool(metrics.registry, deps.observability.pool);
    scrapeGauge(
      metrics.registry,
      { name: 'bot_outbox_backlog', help: 'Bot messages queued or being sent.' },
      async (gauge) => {
        const { rows } = await deps.pool.query<{ pending: number }>(OUTBOX_BACKLOG);
        gauge.set(rows[0]?.pending ?? 0);
      },
    );
    app.use(
      requestObservability({
        logger: deps.logger,
        metrics,
        // The sandbox's Bot API calls and page polls (development): debug, not info.
        quiet: (path) => path.startsWith('/telegram-api/') || path.startsWith('/sandbox/'),
      }),
    );
    // Prometheus, on this service's own port (the public proxy never routes it).
    app.get(METRICS_PATH, metricsRoute(metrics, deps.observability.token));
  }
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

/*
 * The actions service: the HTTP handlers behind the engine's actions (quote, createExchange),
 * e-mail event triggers and the rates cron trigger, on ACTIONS_HOST:ACTIONS_PORT (4100). Only
 * the engine calls it, with ACTIONS_SECRET.
 */
import type { AddressInfo } from 'node:net';

import { createServicePool } from '@app/shared/db/service-pool';
import { loadEnv } from '@app/shared/env';
import { createLogger } from '@app/shared/log';
import { createOutboxMailer, createSmtpMailer } from '@app/shared/mail';
import {
  exitIfCannotListen,
  keepIdleConnectionsOpen,
  listenOn,
  stopOnSignals,
} from '@app/shared/service';

import { createActionsApp } from './app.ts';
import { ActionsEnv } from './env.ts';

const env = loadEnv(ActionsEnv);
const logger = createLogger('actions', { level: env.LOG_LEVEL });
// A dropped connection (idle, or checked out mid-transaction) must not crash the service.
const pool = createServicePool(env.DATABASE_URL, env.ACTIONS_DB_POOL_SIZE, (error) =>
  logger.warn({ err: error }, 'database connection lost'),
);
// Event-trigger e-mails: SMTP_URL, else .eml files in the outbox folder (development).
const mailer = env.SMTP_URL
  ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM)
  : createOutboxMailer(env.ACTIONS_OUTBOX_DIR, env.MAIL_FROM, logger);

const server = createActionsApp({
  env,
  pool,
  logger,
  mailer,
  observability: { logger, token: env.METRICS_TOKEN },
}).listen(listenOn(env.ACTIONS_PORT, env.ACTIONS_HOST));
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  logger.info(
    {
      url: `http://${env.ACTIONS_HOST}:${port}`,
      quoteMaxRateAgeSeconds: env.QUOTE_MAX_RATE_AGE_SECONDS,
      mail: env.SMTP_URL ? 'smtp' : env.ACTIONS_OUTBOX_DIR,
      ratesProviders: env.RATES_PROVIDER,
    },
    'actions service listening',
  );
});
exitIfCannotListen(server, logger);
keepIdleConnectionsOpen(server);

stopOnSignals(server, logger, async () => {
  mailer.close();
  await pool.end();
});

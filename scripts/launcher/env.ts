import * as z from 'zod';

import { DEV_TELEGRAM_BOT_TOKEN, NodeEnv, port, secret, telegramBotToken } from '@app/shared/env';

import { DEFAULT_PORTS } from './addresses.ts';

/** What the launcher reads; each service validates its own variables too. */
export const LauncherEnv = z.object({
  NODE_ENV: NodeEnv,
  /** A PostgreSQL server to use instead of the embedded one. */
  DATABASE_URL: z.string().min(1).optional(),
  EMBEDDED_DB_PORT: port(DEFAULT_PORTS.database),
  EMBEDDED_DB_DIR: z.string().min(1).default('.data/pglite'),
  ADMIN_EMAIL: z.email().default('admin@exchange.local'),
  ADMIN_PASSWORD: secret('dev-only-admin-password', 10),
  /** Shared by the engine (which calls actions) and the actions service (which checks it). */
  ACTIONS_SECRET: secret('dev-only-actions-secret', 16),
  /**
   * Where the engine reaches the actions service; by default the one the launcher starts. Set
   * or not, every address reaches the services through launcher/addresses.ts (decision 022).
   */
  ACTIONS_BASE_URL: z.url().optional(),
  /** Where the engine delivers the bot's event triggers; by default the bot service's /events. */
  BOT_EVENTS_URL: z.url().optional(),
  /** Shared by the engine (which sends it as x-events-secret) and the bot (which checks it). */
  BOT_EVENTS_SECRET: secret('dev-only-bot-events-secret', 16),
  /**
   * What the web server serves: `build` (the default of `npm start`: the production builds of
   * the portal and the mini-app, built first when missing or stale) or `dev` (`npm run dev`:
   * Vite's development server with hot reload).
   */
  WEB_SERVE: z.enum(['build', 'dev']).optional(),
  /** Where mail goes without SMTP_URL (the auth and actions services' outbox default). */
  SMTP_URL: z.string().min(1).optional(),
  AUTH_OUTBOX_DIR: z.string().min(1).default('.data/outbox'),
  /** The bot's token; without it (development only) the bot runs its Telegram sandbox. */
  TELEGRAM_BOT_TOKEN: telegramBotToken().optional(),
});
export type LauncherEnv = z.infer<typeof LauncherEnv>;

/**
 * Whether this stack runs the Telegram sandbox: outside production, without a real bot token
 * (the bot then emulates Telegram, and the auth service checks launch data against the public
 * development token). When it does not, the sandbox's accounts are removed at start.
 */
export const runsTelegramSandbox = (env: Pick<LauncherEnv, 'NODE_ENV' | 'TELEGRAM_BOT_TOKEN'>) =>
  env.NODE_ENV !== 'production' &&
  (env.TELEGRAM_BOT_TOKEN === undefined || env.TELEGRAM_BOT_TOKEN === DEV_TELEGRAM_BOT_TOKEN);

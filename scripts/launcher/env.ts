import * as z from 'zod';

import { NodeEnv, port, secret } from '@app/shared/env';

/** What the launcher reads; each service validates its own variables too. */
export const LauncherEnv = z.object({
  NODE_ENV: NodeEnv,
  /** A PostgreSQL server to use instead of the embedded one. */
  DATABASE_URL: z.string().min(1).optional(),
  EMBEDDED_DB_PORT: port(54320),
  EMBEDDED_DB_DIR: z.string().min(1).default('.data/pglite'),
  ADMIN_EMAIL: z.email().default('admin@exchange.local'),
  ADMIN_PASSWORD: secret('dev-only-admin-password', 10),
  /** Shared by the engine (which calls actions) and the actions service (which checks it). */
  ACTIONS_SECRET: secret('dev-only-actions-secret', 16),
  /** Where the engine reaches the actions service; by default the one the launcher starts. */
  ACTIONS_BASE_URL: z.url().optional(),
  /** Where the engine delivers the bot's event triggers; by default the bot service's /events. */
  BOT_EVENTS_URL: z.url().optional(),
  /** Shared by the engine (which sends it as x-events-secret) and the bot (which checks it). */
  BOT_EVENTS_SECRET: secret('dev-only-bot-events-secret', 16),
});
export type LauncherEnv = z.infer<typeof LauncherEnv>;

import * as z from 'zod';

import { commaList, NodeEnv, parseEnv, port, secret, telegramBotToken } from '@app/shared/env';
import { LOCALES } from '@app/shared/i18n';
import { metricsToken } from '@app/shared/observability';

/** Comma-separated Telegram chat ids (a group's is negative). */
const chatIds = commaList().pipe(
  z.array(
    z
      .string()
      .regex(/^-?\d{1,20}$/, 'must be numeric chat ids')
      .transform(Number),
  ),
);

export const BotEnv = z
  .object({
    NODE_ENV: NodeEnv,
    BOT_PORT: port(4200),
    BOT_HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z.string().min(1),
    BOT_DB_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(5),
    /**
     * The bot's token from BotFather. Unset (development only), the bot talks to the Telegram
     * sandbox this service runs itself, under the development token.
     */
    TELEGRAM_BOT_TOKEN: telegramBotToken().optional(),
    /** The Bot API server; Telegram's by default, the sandbox's without a token. */
    TELEGRAM_API_ROOT: z.url().optional(),
    /** How updates arrive: webhook (default in production) or long polling. */
    BOT_UPDATES: z.enum(['webhook', 'polling']).optional(),
    /** The public HTTPS address of this service's /telegram/webhook (webhook mode). */
    TELEGRAM_WEBHOOK_URL: z.url().optional(),
    /** Telegram sends it back in X-Telegram-Bot-Api-Secret-Token; other calls are refused. */
    TELEGRAM_WEBHOOK_SECRET: secret('dev-only-telegram-webhook-secret', 16).pipe(
      z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'letters, digits, _ and - only'),
    ),
    /** The engine's event triggers send it as x-events-secret (BOT_EVENTS_SECRET there too). */
    BOT_EVENTS_SECRET: secret('dev-only-bot-events-secret', 16),
    /** Staff chats that hear about new orders and support requests. */
    TELEGRAM_STAFF_CHAT_IDS: chatIds.optional(),
    /** The language of staff chat messages. */
    TELEGRAM_STAFF_LOCALE: z.enum(LOCALES).default('en'),
    /** The bot's username (t.me links); the sandbox's by default. */
    TELEGRAM_BOT_USERNAME: z
      .string()
      .regex(/^\w{5,32}$/)
      .default('exchange_sandbox_bot'),
    /** The mini-app as Telegram opens it (HTTPS in production; BotFather's Mini App URL). */
    MINIAPP_URL: z.url().default('http://localhost:3000/telegram-app'),
    /** The web portal: order and staff console links. */
    PUBLIC_WEB_URL: z.url().default('http://localhost:3000'),
    PUBLIC_CONTACT_EMAIL: z.email().default('support@exchange.local'),
    PUBLIC_TELEGRAM_URL: z.url().default('https://t.me/exchange_support'),
    PUBLIC_TELEGRAM_CHANNEL_URL: z.url().default('https://t.me/exchange_news'),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /** Bearer for GET /metrics; unset, only loopback callers may read it (@app/shared/observability). */
    METRICS_TOKEN: metricsToken(),
  })
  .superRefine((env, context) => {
    if (env.NODE_ENV !== 'production') return;
    if (!env.TELEGRAM_BOT_TOKEN) {
      context.addIssue({
        code: 'custom',
        path: ['TELEGRAM_BOT_TOKEN'],
        message: 'is required in production (the sandbox is for development)',
      });
    }
    if ((env.BOT_UPDATES ?? 'webhook') === 'webhook' && !env.TELEGRAM_WEBHOOK_URL) {
      context.addIssue({
        code: 'custom',
        path: ['TELEGRAM_WEBHOOK_URL'],
        message: 'is required for webhook updates (or set BOT_UPDATES=polling)',
      });
    }
  });
export type BotEnv = z.infer<typeof BotEnv>;

export const parseBotEnv = (source: Record<string, string | undefined>): BotEnv =>
  parseEnv(BotEnv, source);

/** Whether the bot runs against its own Telegram sandbox (no real token). */
export const usesSandbox = (env: BotEnv): boolean => env.TELEGRAM_BOT_TOKEN === undefined;

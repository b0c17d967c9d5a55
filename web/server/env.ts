import * as z from 'zod';

// DEFAULT_PORTS and siteUrl: the stack's addresses, derived from its ports (decision 022).
import { DEFAULT_PORTS, NodeEnv, port, siteUrl, telegramBotToken } from '@app/shared/env';
import { metricsToken } from '@app/shared/observability';
import type { PublicEnv } from '@app/shared/public-env';

/** The web server's configuration; the `PUBLIC_` part reaches the browser (getPublicEnv). */
export const WebEnv = z
  .object({
    NODE_ENV: NodeEnv,
    WEB_PORT: port(DEFAULT_PORTS.web),
    WEB_HOST: z.string().min(1).default('127.0.0.1'),
    /**
     * `build` serves the output of `npm run build -w web`; `dev` renders through Vite. Default:
     * `build` in production, `dev` otherwise (end-to-end tests set `build` to test what ships).
     */
    WEB_SERVE: z.enum(['build', 'dev']).optional(),
    /** The build to serve (default web/build); `npm run bench:web` serves a build of its own. */
    WEB_BUILD_DIR: z.string().min(1).optional(),
    /**
     * Where the portal is served, for canonical, hreflang and referral links. Unset (the empty
     * default, which no variable can give: parseEnv drops empty strings): http://localhost:WEB_PORT.
     */
    PUBLIC_SITE_URL: z.url().default(''),
    /** The engine's GraphQL endpoint as the browser reaches it (HTTP; ws:// is derived). */
    PUBLIC_GRAPHQL_URL: z.url().default('http://localhost:8080/v1/graphql'),
    /** The auth service as the browser reaches it. */
    PUBLIC_AUTH_URL: z.url().default('http://localhost:4000'),
    /** Contact routes shown on the contact page (spec section 2). */
    PUBLIC_CONTACT_EMAIL: z.email().default('support@exchange.local'),
    PUBLIC_TELEGRAM_URL: z.url().default('https://t.me/exchange_support'),
    PUBLIC_TELEGRAM_CHANNEL_URL: z.url().default('https://t.me/exchange_news'),
    /** The bot's username (as the bot and the auth service have it): the mini-app's invite link. */
    TELEGRAM_BOT_USERNAME: z
      .string()
      .regex(/^\w{5,32}$/)
      .default('exchange_sandbox_bot'),
    /** A third-party live-chat script; unset, no widget loads (spec section 4). */
    PUBLIC_LIVE_CHAT_SRC: z.url().optional(),
    /** The live-chat script's global, polled every 300 ms until it appears. */
    PUBLIC_LIVE_CHAT_GLOBAL: z.string().min(1).default('LiveChatWidget'),
    /** The mini-app's build to serve (default miniapp/dist; `npm run build -w miniapp`). */
    MINIAPP_BUILD_DIR: z.string().min(1).optional(),
    /**
     * Development outside Telegram: the mini-app asks this server for launch data signed with
     * TELEGRAM_BOT_TOKEN (the development token by default), so quick-auth runs for real. On by
     * default outside production; production refuses it (anyone could sign in as anyone).
     */
    MINIAPP_DEV_LAUNCH: z.enum(['true', 'false']).optional(),
    /**
     * The product's database, for MINIAPP_DEV_LAUNCH only: a development launch never signs for
     * a Telegram user linked to a staff account, and without the database it signs for no one.
     */
    DATABASE_URL: z.string().min(1).optional(),
    /** The bot's token, for MINIAPP_DEV_LAUNCH only (the auth service must have the same). */
    TELEGRAM_BOT_TOKEN: telegramBotToken().optional(),
    /**
     * The bot's port (the launcher gives every service the same environment): outside
     * production its sandbox page at http://localhost:BOT_PORT frames the mini-app, so the
     * mini-app's frame-ancestors name it.
     */
    BOT_PORT: port(4200),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /** Bearer for GET /metrics; unset, only loopback callers may read it (@app/shared/observability). */
    METRICS_TOKEN: metricsToken(),
  })
  .overwrite((env) => ({ ...env, PUBLIC_SITE_URL: env.PUBLIC_SITE_URL || siteUrl(env.WEB_PORT) }));
export type WebEnv = z.infer<typeof WebEnv>;

/** What the browser may know: whitelisted, never a secret. */
export function getPublicEnv(env: WebEnv, buildId: string): PublicEnv {
  return {
    PUBLIC_SITE_URL: env.PUBLIC_SITE_URL.replace(/\/$/, ''),
    PUBLIC_GRAPHQL_URL: env.PUBLIC_GRAPHQL_URL,
    PUBLIC_AUTH_URL: env.PUBLIC_AUTH_URL,
    PUBLIC_CONTACT_EMAIL: env.PUBLIC_CONTACT_EMAIL,
    PUBLIC_TELEGRAM_URL: env.PUBLIC_TELEGRAM_URL,
    PUBLIC_TELEGRAM_CHANNEL_URL: env.PUBLIC_TELEGRAM_CHANNEL_URL,
    PUBLIC_TELEGRAM_BOT_USERNAME: env.TELEGRAM_BOT_USERNAME,
    PUBLIC_LIVE_CHAT_SRC: env.PUBLIC_LIVE_CHAT_SRC,
    PUBLIC_LIVE_CHAT_GLOBAL: env.PUBLIC_LIVE_CHAT_GLOBAL,
    BUILD_ID: buildId,
  };
}

import { fileURLToPath } from 'node:url';

import * as z from 'zod';

import {
  commaList,
  DEFAULT_PORTS,
  DEV_TELEGRAM_BOT_TOKEN,
  NodeEnv,
  parseEnv,
  port,
  secret,
  siteUrl,
  telegramBotToken,
  trustedProxies,
  webOrigins,
} from '@app/shared/env';
import { metricsToken } from '@app/shared/observability';

/** Same default as hasura/engine/src/env.ts: the engine verifies what this service signs. */
export const DEV_JWT_SECRET = '{"type":"HS256","key":"dev-only-jwt-signing-key-0123456789abcdef"}';

export { DEV_TELEGRAM_BOT_TOKEN };

const seconds = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** An origin such as `https://exchange.example` (scheme, host, optional port; nothing else). */
const origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}, 'must be an origin like https://example.com (no path, no trailing slash)');

const originList = commaList().pipe(z.array(origin).min(1));

const stringBool = z.enum(['true', 'false']).transform((value) => value === 'true');

export const AuthEnv = z
  .object({
    NODE_ENV: NodeEnv,
    AUTH_PORT: port(4000),
    AUTH_HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z.string().min(1),
    AUTH_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** Hasura's JWT config JSON; kept a string so production's dev-secret check sees its key. */
    HASURA_GRAPHQL_JWT_SECRET: z.string().min(1).default(DEV_JWT_SECRET),
    /** Key of the HMAC under which e-mailed codes are stored. */
    AUTH_CODE_PEPPER: secret('dev-only-auth-code-pepper-0123456789abcdef', 32),
    AUTH_ACCESS_TOKEN_TTL: seconds(900, 60, 3600),
    AUTH_REFRESH_TOKEN_TTL: seconds(2_592_000, 3600, 7_776_000),
    /**
     * The portal's port (every service gets the launcher's environment): unless set, the
     * origins below follow it, the portal at both http://localhost:WEB_PORT and
     * http://127.0.0.1:WEB_PORT, so a stack on other ports signs in without more settings.
     */
    WEB_PORT: port(DEFAULT_PORTS.web),
    // Unset (the empty default, which no variable can give: parseEnv drops empty strings) is
    // filled from WEB_PORT below.
    AUTH_CORS_ORIGINS: originList.default([]),
    AUTH_WEB_ORIGIN: origin.default(''),
    AUTH_MINIAPP_ORIGIN: origin.default(''),
    AUTH_ACCESS_TOKEN_COOKIE: stringBool.default(false),
    AUTH_ACCESS_TOKEN_COOKIE_DOMAIN: z.string().min(1).optional(),
    AUTH_TRUST_PROXY: trustedProxies(),
    AUTH_RATE_LIMIT_FACTOR: z.coerce.number().positive().max(1_000_000).default(1),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Exchange <no-reply@exchange.local>'),
    TELEGRAM_BOT_TOKEN: telegramBotToken().default(DEV_TELEGRAM_BOT_TOKEN),
    TELEGRAM_INIT_DATA_MAX_AGE_SECONDS: seconds(600, 30, 3600),
    /** The bot's username, for the t.me link that links an account's Telegram (decision 037). */
    TELEGRAM_BOT_USERNAME: z
      .string()
      .regex(/^\w{5,32}$/)
      .default('exchange_sandbox_bot'),
    AUTH_OUTBOX_DIR: z
      .string()
      .min(1)
      .default(fileURLToPath(new URL('../../.data/outbox/', import.meta.url))),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /** Bearer for GET /metrics; unset, only loopback callers may read it (@app/shared/observability). */
    METRICS_TOKEN: metricsToken(),
  })
  .overwrite((env) => {
    const portal = siteUrl(env.WEB_PORT);
    return {
      ...env,
      AUTH_CORS_ORIGINS:
        env.AUTH_CORS_ORIGINS.length > 0 ? env.AUTH_CORS_ORIGINS : webOrigins(env.WEB_PORT),
      AUTH_WEB_ORIGIN: env.AUTH_WEB_ORIGIN || portal,
      AUTH_MINIAPP_ORIGIN: env.AUTH_MINIAPP_ORIGIN || portal,
    };
  })
  .superRefine((env, context) => {
    if (env.NODE_ENV === 'production' && env.SMTP_URL === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'is required in production (the outbox folder is for development)',
      });
    }
  });
export type AuthEnv = z.infer<typeof AuthEnv>;

/** Parses (and in production, vets) an environment; throws InvalidEnvironmentError. */
export const parseAuthEnv = (source: Record<string, string | undefined>): AuthEnv =>
  parseEnv(AuthEnv, source);

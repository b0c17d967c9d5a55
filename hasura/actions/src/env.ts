import { fileURLToPath } from 'node:url';

import * as z from 'zod';

import { NodeEnv, parseEnv, port, secret } from '@app/shared/env';
import { metricsToken } from '@app/shared/observability';

/** Development default of the secret the engine sends as `x-actions-secret` (metadata headers). */
export const DEV_ACTIONS_SECRET = 'dev-only-actions-secret';

/** Development default of the key that signs orders' secret links (orders/link-token.ts). */
export const DEV_ORDER_LINK_SECRET = 'dev-only-order-link-secret-0123456789';

/**
 * Ten years: the seeded offline rates snapshot (hasura/seeds) keeps quoting in development.
 * Production refuses anything above one day and must set a real value (e.g. 300).
 */
export const DEV_MAX_RATE_AGE_SECONDS = 315_360_000;
const ONE_DAY_SECONDS = 86_400;

/** Where e-mail links point when PUBLIC_WEB_URL is not set (the launcher's web portal). */
export const DEFAULT_PUBLIC_WEB_URL = 'http://localhost:3000';

/** An origin such as `https://exchange.example` (no path, no trailing slash). */
const webOrigin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}, 'must be an origin like https://example.com (no path, no trailing slash)');

/** The rate providers hasura/actions/src/rates has. */
export const RATES_PROVIDERS = ['offline', 'binance', 'kraken'] as const;
export type RatesProviderName = (typeof RATES_PROVIDERS)[number];
export const OFFLINE_RATES_PROVIDER: RatesProviderName = 'offline';

/** `binance` or `binance,kraken` (first preferred, next when it has no acceptable price). */
const ratesProviders = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()))
  .pipe(
    z
      .array(z.enum(RATES_PROVIDERS))
      .min(1)
      .refine((names) => new Set(names).size === names.length, 'names a provider twice'),
  );

export const ActionsEnv = z
  .object({
    NODE_ENV: NodeEnv,
    ACTIONS_PORT: port(4100),
    ACTIONS_HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z.string().min(1),
    ACTIONS_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** Shared with the engine (`value_from_env: ACTIONS_SECRET` in hasura/metadata/actions.yaml). */
    ACTIONS_SECRET: secret(DEV_ACTIONS_SECRET, 16),
    /** Signs the secret order links e-mailed with each order; rotating it ends every link. */
    ORDER_LINK_SECRET: secret(DEV_ORDER_LINK_SECRET, 32),
    /** A quote on a price older than this is refused (`stale-rate`). */
    QUOTE_MAX_RATE_AGE_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(DEV_MAX_RATE_AGE_SECONDS)
      .default(DEV_MAX_RATE_AGE_SECONDS),
    /** Outgoing mail (order and support notifications); without it, .eml files in the outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Exchange <no-reply@exchange.local>'),
    ACTIONS_OUTBOX_DIR: z
      .string()
      .min(1)
      .default(fileURLToPath(new URL('../../../.data/outbox/', import.meta.url))),
    /** The web portal's origin, for links in e-mails (`<origin>/ru/transaction/<id>`). */
    PUBLIC_WEB_URL: webOrigin.default(DEFAULT_PUBLIC_WEB_URL),
    /** Staff inbox that receives support requests; unset: they are only in the console. */
    SUPPORT_INBOX_EMAIL: z.email().optional(),
    /** Rate providers of the refresh_rates cron trigger, in order of preference. */
    RATES_PROVIDER: ratesProviders.default([OFFLINE_RATES_PROVIDER]),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /** Bearer for GET /metrics; unset, only loopback callers may read it (@app/shared/observability). */
    METRICS_TOKEN: metricsToken(),
  })
  .superRefine((env, context) => {
    if (env.NODE_ENV === 'production' && env.SMTP_URL === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'is required in production (the outbox folder is for development)',
      });
    }
    if (env.NODE_ENV === 'production' && env.RATES_PROVIDER.includes(OFFLINE_RATES_PROVIDER)) {
      context.addIssue({
        code: 'custom',
        path: ['RATES_PROVIDER'],
        message: 'must name market providers in production (offline is the development snapshot)',
      });
    }
    if (env.NODE_ENV === 'production' && env.QUOTE_MAX_RATE_AGE_SECONDS > ONE_DAY_SECONDS) {
      context.addIssue({
        code: 'custom',
        path: ['QUOTE_MAX_RATE_AGE_SECONDS'],
        message: `must be at most ${ONE_DAY_SECONDS} in production (the default is for the development snapshot)`,
      });
    }
  });
export type ActionsEnv = z.infer<typeof ActionsEnv>;

/** Parses (and in production, vets) an environment; throws InvalidEnvironmentError. */
export const parseActionsEnv = (source: Record<string, string | undefined>): ActionsEnv =>
  parseEnv(ActionsEnv, source);

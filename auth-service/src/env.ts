import { isIP, isIPv4 } from 'node:net';
import { fileURLToPath } from 'node:url';

import * as z from 'zod';

import {
  DEV_TELEGRAM_BOT_TOKEN,
  NodeEnv,
  parseEnv,
  port,
  secret,
  telegramBotToken,
} from '@app/shared/env';

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

const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  )
  .pipe(z.array(origin).min(1));

const stringBool = z.enum(['true', 'false']).transform((value) => value === 'true');

/** proxy-addr's named ranges, which Express's `trust proxy` accepts beside addresses. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, `address/prefix` or IPv4 `address/netmask`, as Express's `trust proxy` takes. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIPv4(range);
}

/**
 * The reverse proxies in front of the service, by address (SECURITY.md 23): only a request
 * that arrives from one of them has its X-Forwarded-For believed, so a client that reaches the
 * service directly never chooses the address its limits count against. Empty: none. A hop
 * count is refused: it believes whoever connects, proxy or not.
 */
const trustedProxies = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  )
  .superRefine((entries, context) => {
    for (const entry of entries) {
      if (/^\d+$/.test(entry)) {
        context.addIssue({
          code: 'custom',
          message: `is a hop count (${entry}); list the proxy's own address instead (e.g. 127.0.0.1, 10.0.0.0/8, loopback), or leave it empty to trust none`,
        });
      } else if (!isProxyAddress(entry)) {
        context.addIssue({
          code: 'custom',
          message: `"${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
        });
      }
    }
  });

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
    AUTH_CORS_ORIGINS: originList.default(['http://localhost:3000']),
    AUTH_WEB_ORIGIN: origin.default('http://localhost:3000'),
    AUTH_MINIAPP_ORIGIN: origin.default('http://localhost:3000'),
    AUTH_ACCESS_TOKEN_COOKIE: stringBool.default(false),
    AUTH_ACCESS_TOKEN_COOKIE_DOMAIN: z.string().min(1).optional(),
    AUTH_TRUST_PROXY: trustedProxies.default([]),
    AUTH_RATE_LIMIT_FACTOR: z.coerce.number().positive().max(1_000_000).default(1),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Exchange <no-reply@exchange.local>'),
    TELEGRAM_BOT_TOKEN: telegramBotToken().default(DEV_TELEGRAM_BOT_TOKEN),
    TELEGRAM_INIT_DATA_MAX_AGE_SECONDS: seconds(600, 30, 3600),
    AUTH_OUTBOX_DIR: z
      .string()
      .min(1)
      .default(fileURLToPath(new URL('../../.data/outbox/', import.meta.url))),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
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

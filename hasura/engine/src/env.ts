import { fileURLToPath } from 'node:url';

import * as z from 'zod';

import { NodeEnv, port, secret, trustedProxies } from '@app/shared/env';
import { metricsToken } from '@app/shared/observability';

import { DEFAULT_VISITOR_BUDGET } from './http/visitor-budget.ts';
import { DEFAULT_LIMITS } from './plan/limits.ts';

const stringBool = z.enum(['true', 'false']).transform((value) => value === 'true');
const limit = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * The engine reads Hasura's own variables, so one .env serves it and the official engine alike.
 * The JWT secret's development default is a shared HS256 key the auth service signs with.
 */
export const EngineEnv = z.object({
  NODE_ENV: NodeEnv,
  HASURA_GRAPHQL_DATABASE_URL: z.string().min(1).optional(),
  DATABASE_URL: z.string().min(1).optional(),
  HASURA_GRAPHQL_SERVER_PORT: port(8080),
  HASURA_GRAPHQL_SERVER_HOST: z.string().default('127.0.0.1'),
  HASURA_GRAPHQL_ADMIN_SECRET: secret('dev-only-hasura-admin-secret'),
  HASURA_GRAPHQL_JWT_SECRET: z
    .string()
    .min(1)
    .default('{"type":"HS256","key":"dev-only-jwt-signing-key-0123456789abcdef"}'),
  HASURA_GRAPHQL_UNAUTHORIZED_ROLE: z.string().min(1).default('anonymous'),
  HASURA_GRAPHQL_STRINGIFY_NUMERIC_TYPES: stringBool.default(true),
  HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: z.coerce
    .number()
    .int()
    .positive()
    .default(1000),
  HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: z.coerce
    .number()
    .int()
    .positive()
    .default(100),
  /** Origins browsers may call from: `*` (Hasura's default) or a list with `*.` wildcards. */
  HASURA_GRAPHQL_CORS_DOMAIN: z.string().min(1).default('*'),
  HASURA_GRAPHQL_DISABLE_CORS: stringBool.default(false),
  /** Compiled SQL as named prepared statements (database/prepared-statements.ts), as Hasura. */
  HASURA_GRAPHQL_USE_PREPARED_STATEMENTS: stringBool.default(true),
  HASURA_GRAPHQL_PG_CONNECTIONS: z.coerce.number().int().positive().default(20),
  /** Only the metadata's allow-listed operations for every role but admin (plan/allowlist.ts). */
  HASURA_GRAPHQL_ENABLE_ALLOWLIST: stringBool.default(false),
  HASURA_GRAPHQL_METADATA_DIR: z
    .string()
    .default(fileURLToPath(new URL('../../metadata/', import.meta.url))),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Bearer for GET /metrics; unset, only loopback callers may read it (@app/shared/observability). */
  METRICS_TOKEN: metricsToken(),
  /*
   * Bounds on one request (ours; the official engine does not read them). What each one stops
   * and why its default is safe: plan/limits.ts.
   */
  /** Deepest selection (relationships within relationships). */
  ENGINE_MAX_QUERY_DEPTH: limit(DEFAULT_LIMITS.maxDepth),
  /** Most fields one operation selects, fragments expanded. */
  ENGINE_MAX_QUERY_FIELDS: limit(DEFAULT_LIMITS.maxNodes),
  /** Deepest nesting of objects and lists in one argument or variable. */
  ENGINE_MAX_INPUT_DEPTH: limit(DEFAULT_LIMITS.maxInputDepth),
  /** Longest `_regex` / `_similar` pattern (and their variants). */
  ENGINE_MAX_PATTERN_LENGTH: limit(DEFAULT_LIMITS.maxPatternLength),
  /** Most rows an operation may make the database build, estimated from its plan. */
  ENGINE_MAX_ESTIMATED_ROWS: limit(DEFAULT_LIMITS.maxEstimatedRows),
  /** Most operations in one batched HTTP request. */
  ENGINE_MAX_BATCH_SIZE: limit(DEFAULT_LIMITS.maxBatchSize),
  /** Most operations (live subscriptions, queries in flight) at once on one WebSocket. */
  ENGINE_MAX_WS_OPERATIONS: limit(DEFAULT_LIMITS.maxOperationsPerConnection),
  /*
   * A visitor's (the unauthorized role's) engine time per client address, refused only while
   * someone else waits (http/visitor-budget.ts, decision 020).
   */
  /** The most engine time, in ms, a visitor may spend at once. */
  ENGINE_VISITOR_BURST_MS: limit(DEFAULT_VISITOR_BUDGET.burstMs),
  /** Engine time, in ms, a visitor earns back each second. */
  ENGINE_VISITOR_REFILL_MS_PER_S: limit(DEFAULT_VISITOR_BUDGET.refillMsPerSecond),
  /** The proxies in front of the engine whose X-Forwarded-For is believed; empty: none. */
  ENGINE_TRUST_PROXY: trustedProxies(),
});
export type EngineEnv = z.infer<typeof EngineEnv>;

/**
 * Metadata may name any variable (`{{ACTION_BASE_URL}}`, `webhook_from_env`, `value_from_env`),
 * so the engine hands it the whole environment, read once here.
 */
export const metadataEnvironment = (): Record<string, string | undefined> => ({ ...process.env });

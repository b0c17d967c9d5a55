import type { Logger } from '@app/shared/log';

import type { VisitorBudgetSettings } from './http/visitor-budget.ts';
import type { EngineLimits } from './plan/limits.ts';

/** Where the engine reads Hasura metadata from. */
export type MetadataSource =
  /** A Hasura project's `metadata/` directory (v3 layout, with `!include`). */
  | { directory: string }
  /** The `export_metadata` / `replace_metadata` object (`{ version: 3, sources: [...] }`). */
  | { object: unknown };

/** Everything the engine is configured with; `main.ts` fills it from HASURA_GRAPHQL_* env. */
export interface EngineOptions {
  databaseUrl: string;
  metadata: MetadataSource;
  /** HASURA_GRAPHQL_ADMIN_SECRET; when unset every request may act as admin (dev mode). */
  adminSecret?: string | undefined;
  /** HASURA_GRAPHQL_JWT_SECRET, the raw JSON string (`{"type":"HS256","key":"..."}`). */
  jwtSecret?: string | undefined;
  /** HASURA_GRAPHQL_UNAUTHORIZED_ROLE: the role of requests without credentials. */
  unauthorizedRole?: string | undefined;
  /** HASURA_GRAPHQL_STRINGIFY_NUMERIC_TYPES: bigint, numeric and float8 as JSON strings. */
  stringifyNumericTypes?: boolean;
  /** HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL, in ms (default 1000). */
  liveQueryRefetchIntervalMs?: number;
  /** HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE (default 100). */
  liveQueryBatchSize?: number;
  /** Values for `{{VAR}}` URL templates and `*_from_env` in metadata (main.ts passes the process environment). */
  environment?: Record<string, string | undefined>;
  /**
   * HASURA_GRAPHQL_CORS_DOMAIN: origins browsers may call from (`*`, or a comma-separated list
   * with `*.` wildcards). Default `*`, as Hasura; `null` disables CORS (HASURA_GRAPHQL_DISABLE_CORS).
   */
  corsDomain?: string | null;
  /**
   * HASURA_GRAPHQL_USE_PREPARED_STATEMENTS: compiled SQL runs as named prepared statements
   * (database/prepared-statements.ts). Default true, as Hasura; always off on PGlite. Turn it
   * off behind a pooler that does not keep them (PgBouncer in transaction mode before 1.21).
   */
  usePreparedStatements?: boolean;
  /**
   * Keep each query's compiled statement, keyed by role, operation and the values that shape
   * it, and re-bind it for later requests (execute/query-cache.ts); on unless false.
   */
  queryPlanCache?: boolean;
  /** Database connections in the engine's pool (default 10). */
  poolSize?: number;
  /**
   * Bounds on one request (ENGINE_MAX_QUERY_DEPTH, ENGINE_MAX_QUERY_FIELDS,
   * ENGINE_MAX_INPUT_DEPTH, ENGINE_MAX_PATTERN_LENGTH, ENGINE_MAX_ESTIMATED_ROWS,
   * ENGINE_MAX_BATCH_SIZE, ENGINE_MAX_WS_OPERATIONS; plan/limits.ts);
   * unset ones keep their defaults.
   */
  limits?: Partial<EngineLimits>;
  /**
   * HASURA_GRAPHQL_ENABLE_ALLOWLIST: every role but admin may run only the operations in the
   * metadata's global allow-list collections (plan/allowlist.ts). Default false, as Hasura.
   */
  enableAllowlist?: boolean;
  /**
   * The unauthorized role's engine time per client address (ENGINE_VISITOR_BURST_MS,
   * ENGINE_VISITOR_REFILL_MS_PER_S, ENGINE_TRUST_PROXY; http/visitor-budget.ts). Unset ones
   * keep their defaults; `false` turns the budget off.
   */
  visitorBudget?: Partial<VisitorBudgetSettings> | false;
  logger?: Logger;
  /**
   * Prometheus metrics on GET /metrics and request ids with an access-log line per request
   * (main.ts turns them on; tests may leave them off). `token`: METRICS_TOKEN.
   */
  observability?: { token: string | undefined };
}

/** A running engine. */
export interface Engine {
  /** Serves /v1/graphql (HTTP and WebSocket) and /healthz. */
  listen(port: number, host?: string): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
}

/*
 * The data service: serves hasura/metadata over the database at HASURA_GRAPHQL_DATABASE_URL
 * (or DATABASE_URL) on /v1/graphql, HTTP and WebSocket.
 */
import { loadEnv } from '@app/shared/env';
import { createLogger } from '@app/shared/log';

import { createEngine } from './engine.ts';
import { EngineEnv, metadataEnvironment } from './env.ts';

const env = loadEnv(EngineEnv);
const logger = createLogger('engine', { level: env.LOG_LEVEL });
const databaseUrl = env.HASURA_GRAPHQL_DATABASE_URL ?? env.DATABASE_URL;
if (!databaseUrl) {
  logger.fatal('set HASURA_GRAPHQL_DATABASE_URL or DATABASE_URL');
  process.exit(1);
}

const engine = await createEngine({
  databaseUrl,
  metadata: { directory: env.HASURA_GRAPHQL_METADATA_DIR },
  adminSecret: env.HASURA_GRAPHQL_ADMIN_SECRET,
  jwtSecret: env.HASURA_GRAPHQL_JWT_SECRET,
  unauthorizedRole: env.HASURA_GRAPHQL_UNAUTHORIZED_ROLE,
  stringifyNumericTypes: env.HASURA_GRAPHQL_STRINGIFY_NUMERIC_TYPES,
  liveQueryRefetchIntervalMs: env.HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL,
  liveQueryBatchSize: env.HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE,
  corsDomain: env.HASURA_GRAPHQL_DISABLE_CORS ? null : env.HASURA_GRAPHQL_CORS_DOMAIN,
  poolSize: env.HASURA_GRAPHQL_PG_CONNECTIONS,
  usePreparedStatements: env.HASURA_GRAPHQL_USE_PREPARED_STATEMENTS,
  enableAllowlist: env.HASURA_GRAPHQL_ENABLE_ALLOWLIST,
  limits: {
    maxDepth: env.ENGINE_MAX_QUERY_DEPTH,
    maxNodes: env.ENGINE_MAX_QUERY_FIELDS,
    maxInputDepth: env.ENGINE_MAX_INPUT_DEPTH,
    maxPatternLength: env.ENGINE_MAX_PATTERN_LENGTH,
    maxEstimatedRows: env.ENGINE_MAX_ESTIMATED_ROWS,
    maxBatchSize: env.ENGINE_MAX_BATCH_SIZE,
    maxOperationsPerConnection: env.ENGINE_MAX_WS_OPERATIONS,
  },
  visitorBudget: {
    burstMs: env.ENGINE_VISITOR_BURST_MS,
    refillMsPerSecond: env.ENGINE_VISITOR_REFILL_MS_PER_S,
    trustedProxies: env.ENGINE_TRUST_PROXY,
  },
  environment: metadataEnvironment(),
  logger,
  observability: { token: env.METRICS_TOKEN },
});
const { url } = await engine.listen(env.HASURA_GRAPHQL_SERVER_PORT, env.HASURA_GRAPHQL_SERVER_HOST);
logger.info({ url: `${url}/v1/graphql` }, 'engine listening');

const stop = () => {
  logger.info('stopping');
  engine.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

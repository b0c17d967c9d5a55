import type { AddressInfo } from 'node:net';

import type pg from 'pg';

import { createServiceMetrics, observePool, scrapeGauge } from '@app/shared/observability';
import { listenOn } from '@app/shared/service';

import { createSessionResolver, parseJwtConfig } from './auth/index.ts';
import { introspect } from './catalog/introspect.ts';
import { createPool } from './database/pool.ts';
import {
  createPreparedStatements,
  isSharedSessionDatabase,
} from './database/prepared-statements.ts';
import type { Engine, EngineOptions } from './engine-options.ts';
import { startEventTriggers } from './events/index.ts';
import { createGraphQLHandler } from './http/graphql-handler.ts';
import { corsPolicy } from './http/cors.ts';
import { createOperationObserver } from './http/operation-log.ts';
import { createHttpServer } from './http/server.ts';
import { createVisitorBudget, DEFAULT_VISITOR_BUDGET } from './http/visitor-budget.ts';
import { loadMetadata } from './metadata/load.ts';
import { createOperationGate } from './plan/allowlist.ts';
import { DEFAULT_LIMITS } from './plan/limits.ts';
import { buildSchemaModel } from './schema/build.ts';
import { answerIntrospection } from './schema/introspection.ts';
import { PERMISSION_CHECK_FUNCTION_DDL } from './sql/mutation.ts';
import { attachWebSockets } from './ws/index.ts';

/**
 * Loads metadata, introspects the database, builds every role's API and returns an engine
 * ready to listen. Fails at start-up on inconsistent metadata rather than mid-request.
 */
/**
 * Installs the permission-check function, one engine at a time: engines starting together on
 * one database raced on CREATE OR REPLACE FUNCTION, and PostgreSQL failed one of them with a
 * unique violation on pg_proc (issue 11, two instances).
 */
async function installPermissionCheck(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['engine:permission-check']);
    await client.query(PERMISSION_CHECK_FUNCTION_DDL);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Events the triggers still have to deliver (claimable now or retrying later). */
const EVENT_BACKLOG = `SELECT count(*)::int AS pending FROM hdb_catalog.event_log
  WHERE delivered = 'f' AND error = 'f' AND archived = 'f'`;

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const metadata = await loadMetadata(options.metadata);
  // A dropped connection (idle, or checked out mid-transaction) must not crash the engine.
  const pool = createPool(options.databaseUrl, options.poolSize ?? 10, (error) =>
    options.logger?.warn({ err: error }, 'database connection lost'),
  );
  try {
    await installPermissionCheck(pool);
    const source = metadata.sources[0];
    const catalog = await introspect(
      pool,
      (source?.tables ?? []).map((table) => table.table),
      (source?.tables ?? []).flatMap((table) =>
        table.computed_fields.map((field) => field.definition.function),
      ),
    );
    const model = buildSchemaModel(metadata, catalog);
    const stringifyNumericTypes = options.stringifyNumericTypes ?? true;
    const resolveSession = createSessionResolver({
      adminSecret: options.adminSecret,
      jwt: options.jwtSecret ? parseJwtConfig(JSON.parse(options.jwtSecret)) : undefined,
      unauthorizedRole: options.unauthorizedRole,
    });
    const environment = options.environment ?? {};
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    const gate = createOperationGate(metadata, {
      enableAllowlist: options.enableAllowlist ?? false,
    });
    const logger = options.logger;
    const metrics = options.observability && logger ? createServiceMetrics('engine') : undefined;
    if (metrics) {
      observePool(metrics.registry, pool);
      scrapeGauge(
        metrics.registry,
        { name: 'event_trigger_backlog', help: 'Table events not yet delivered.' },
        async (gauge) => {
          const { rows } = await pool.query<{ pending: number }>(EVENT_BACKLOG);
          gauge.set(rows[0]?.pending ?? 0);
        },
      );
    }
    const observer = logger ? createOperationObserver(logger, metrics) : undefined;
    const statements = createPreparedStatements({
      enabled: (options.usePreparedStatements ?? true) && !(await isSharedSessionDatabase(pool)),
    });
    const handler = createGraphQLHandler({
      model,
      pool,
      statements,
      resolveSession,
      stringifyNumericTypes,
      environment,
      introspect: (plan, session) => answerIntrospection(model.forRole(session.role), plan),
      logger: options.logger,
      limits,
      gate,
      observer,
      queryCache: options.queryPlanCache,
      visitors:
        options.visitorBudget === false || options.unauthorizedRole === undefined
          ? undefined
          : {
              role: options.unauthorizedRole,
              budget: createVisitorBudget({ ...DEFAULT_VISITOR_BUDGET, ...options.visitorBudget }),
            },
    });
    const server = createHttpServer(
      handler,
      corsPolicy(options.corsDomain === null ? undefined : (options.corsDomain ?? '*')),
      metrics && logger
        ? { logger, metrics, metricsToken: options.observability?.token }
        : undefined,
    );
    const websockets = attachWebSockets({
      server,
      handler,
      model,
      pool,
      statements,
      resolveSession,
      stringifyNumericTypes,
      liveQueryRefetchIntervalMs: options.liveQueryRefetchIntervalMs ?? 1000,
      liveQueryBatchSize: options.liveQueryBatchSize ?? 100,
      logger: options.logger,
      limits,
      gate,
      observer,
    });
    if (metrics)
      scrapeGauge(
        metrics.registry,
        { name: 'websocket_connections', help: 'Open GraphQL WebSocket connections.' },
        (gauge) => Promise.resolve(gauge.set(websockets.connectionCount())),
      );
    const events = await startEventTriggers({
      pool,
      metadata,
      model,
      environment,
      stringifyNumericTypes,
      logger: options.logger,
    });
    return {
      listen(port, host = '127.0.0.1') {
        return new Promise((resolve, reject) => {
          server.once('error', reject);
          server.listen(listenOn(port, host), () => {
            const address = server.address() as AddressInfo;
            resolve({ url: `http://${host}:${address.port}`, port: address.port });
          });
        });
      },
      async close() {
        await events.close();
        await websockets.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

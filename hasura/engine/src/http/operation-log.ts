import type { Logger } from '@app/shared/log';
import { Counter, Gauge, Histogram, type ServiceMetrics } from '@app/shared/observability';

import { ActionError } from '../actions/errors.ts';
import type { HasuraError } from '../errors.ts';

/*
 * One log line per GraphQL operation (issue 20): request id, operation name, type, role,
 * duration and error code. Never the variables, the query text or a header: they may hold
 * secrets and client text. The name is the client's: a JSON string field, cut to 100 chars.
 * Subscriptions log once when they start and once when they stop.
 */

const MAX_NAME = 100;

export interface OperationFacts {
  requestId: string | undefined;
  /** The client's operation name, if any. */
  name: string | undefined;
  type: 'query' | 'mutation' | 'subscription' | 'unknown';
  role: string | undefined;
  /** A query the plan cache could keep: whether its statement was kept already. */
  planCache?: 'hit' | 'miss' | undefined;
}

/** How an operation failed: the code the client sees, and whether the fault is the server's. */
export interface OperationFailure {
  code: string;
  serverFault: boolean;
}

/**
 * An error as the operation line reports it. An action handler's refusal (a 4xx, e.g. the
 * one-a-minute rule) carries the handler's own code, which the client sees in `extensions`;
 * Hasura files it under `unexpected` when the handler gave no top-level `code`, and logging
 * that as a server error would bury real faults under routine refusals.
 */
export function operationFailure(error: HasuraError | undefined): OperationFailure | undefined {
  if (!error) return undefined;
  if (error instanceof ActionError) {
    const extensions = error.handlerExtensions as { code?: unknown } | undefined;
    const code = typeof extensions?.code === 'string' ? extensions.code : error.actionCode;
    return { code, serverFault: error.status >= 500 };
  }
  return {
    code: error.code,
    serverFault:
      error.status >= 500 || error.code === 'unexpected' || error.code === 'postgres-error',
  };
}

export interface OperationObserver {
  /** A query, mutation or one-shot subscription answered, `failure` when it failed. */
  finished(facts: OperationFacts, ms: number, failure: OperationFailure | undefined): void;
  /** A live subscription registered; the returned function logs its stop (once). */
  subscribed(facts: OperationFacts): () => void;
}

const fields = (facts: OperationFacts) => ({
  reqId: facts.requestId,
  operationName: facts.name === undefined ? undefined : facts.name.slice(0, MAX_NAME),
  operationType: facts.type,
  role: facts.role,
  ...(facts.planCache ? { planCache: facts.planCache } : {}),
});

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export function createOperationObserver(
  logger: Logger | undefined,
  metrics: ServiceMetrics | undefined,
): OperationObserver {
  const registers = metrics ? [metrics.registry] : [];
  const operations = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations answered, by type (unknown when refused before it was known) and outcome (ok, or the error code).',
    labelNames: ['type', 'outcome'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'Time to answer a GraphQL operation, by type.',
    labelNames: ['type'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const planCache = new Counter({
    name: 'graphql_query_plan_cache_total',
    help: 'Queries the plan cache could keep, by result: hit (re-bound a kept statement) or miss (planned).',
    labelNames: ['result'] as const,
    registers,
  });
  const active = new Gauge({
    name: 'graphql_subscriptions_active',
    help: 'Live subscriptions (live queries) running.',
    registers,
  });
  return {
    finished(facts, ms, failure) {
      operations.inc({ type: facts.type, outcome: failure?.code ?? 'ok' });
      if (facts.planCache) planCache.inc({ result: facts.planCache });
      duration.observe({ type: facts.type }, ms / 1000);
      const line = {
        ...fields(facts),
        ms: round(ms),
        ...(failure ? { errorCode: failure.code } : {}),
      };
      // A server's trouble is an error; a client's bad request or a handler's refusal is routine.
      if (failure?.serverFault) logger?.error(line, 'graphql operation');
      else logger?.info(line, 'graphql operation');
    },
    subscribed(facts) {
      const started = performance.now();
      operations.inc({ type: facts.type, outcome: 'ok' });
      active.inc();
      logger?.info({ ...fields(facts), event: 'start' }, 'graphql subscription');
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        active.dec();
        logger?.info(
          { ...fields(facts), event: 'stop', ms: round(performance.now() - started) },
          'graphql subscription',
        );
      };
    },
  };
}

import type pg from 'pg';

import type { Logger } from '@app/shared/log';
import { parseRequestId, REQUEST_ID_HEADER } from '@app/shared/observability';

import type { RequestHeaders, SessionResolver } from '../auth/index.ts';
import type { Session } from '../auth/session.ts';
import { HasuraError } from '../errors.ts';
import {
  bindTemplate,
  createQueryCache,
  queryKey,
  templateOf,
  type QueryCache,
} from '../execute/query-cache.ts';
import { executeOperation, runQueryStatement } from '../execute/run.ts';
import { connectionError, isConnectionError, isDatabaseError } from '../execute/pg-errors.ts';
import {
  createPreparedStatements,
  type PreparedStatements,
} from '../database/prepared-statements.ts';
import type { OperationGate } from '../plan/allowlist.ts';
import { DEFAULT_LIMITS, type EngineLimits } from '../plan/limits.ts';
import {
  planPrepared,
  prepareOperation,
  type GraphQLRequest,
  type OperationPlan,
  type PreparedOperation,
} from '../plan/operation.ts';
import type { SchemaModel } from '../schema/model.ts';

import { operationFailure, type OperationFacts, type OperationObserver } from './operation-log.ts';
import { overBudget, type VisitorBudget } from './visitor-budget.ts';

export interface GraphQLHandlerOptions {
  model: SchemaModel;
  pool: pg.Pool;
  /** Named prepared statements (database/prepared-statements.ts); off when unset. */
  statements?: PreparedStatements | undefined;
  resolveSession: SessionResolver;
  stringifyNumericTypes: boolean;
  environment: Record<string, string | undefined>;
  introspect: (plan: OperationPlan, session: Session) => Promise<Record<string, unknown>>;
  logger: Logger | undefined;
  /** Bounds on operations and batches (plan/limits.ts); DEFAULT_LIMITS when unset. */
  limits?: EngineLimits | undefined;
  /** The allow-list and introspection rule (plan/allowlist.ts). */
  gate?: OperationGate | undefined;
  /** Engine time per client address for the unauthorized role (http/visitor-budget.ts). */
  visitors?: { role: string; budget: VisitorBudget } | undefined;
  /** Logs and counts each operation (operation-log.ts). */
  observer?: OperationObserver | undefined;
  /** Keep compiled queries for re-use (execute/query-cache.ts); on unless false. */
  queryCache?: boolean | undefined;
}

/** A response body as JSON text, and whether it carries errors (for status codes). */
export interface GraphQLResponse {
  body: string;
  error: HasuraError | undefined;
  /** Set when a visitor is over their budget: when to come back (Retry-After). */
  retryAfterS?: number;
}

const errorBody = (error: HasuraError) => JSON.stringify({ errors: [error] });

function isRequest(value: unknown): value is GraphQLRequest {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as GraphQLRequest).query === 'string'
  );
}

/** The operation's type and name for its log line, once it is known to be valid. */
function identify(facts: OperationFacts, prepared: PreparedOperation): void {
  facts.type = prepared.type;
  facts.name = prepared.operation.name?.value ?? facts.name;
}

/** Answers GraphQL requests (single or batched) for a transport that already read the body. */
export function createGraphQLHandler(options: GraphQLHandlerOptions) {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const visitors = options.visitors;
  const statements = options.statements ?? createPreparedStatements({ enabled: false });
  const queries: QueryCache | undefined =
    options.queryCache === false ? undefined : createQueryCache();

  /**
   * Runs one operation. With a visitor budget, every non-admin operation counts as in flight
   * for its client address, and a visitor's is refused while their budget is spent and someone
   * else is waiting, then paid for (http/visitor-budget.ts).
   */
  async function runOne(
    request: unknown,
    session: Session,
    headers: RequestHeaders = {},
  ): Promise<GraphQLResponse> {
    if (visitors === undefined || session.isAdmin) return execute(request, session, headers);
    const client = visitors.budget.clientOf(headers);
    const isVisitor = session.role === visitors.role;
    const retryAfterS = isVisitor ? visitors.budget.wait(client) : undefined;
    if (retryAfterS !== undefined) {
      const error = overBudget(retryAfterS);
      return { body: errorBody(error), error, retryAfterS };
    }
    const end = visitors.budget.begin(client);
    const started = performance.now();
    try {
      return await execute(request, session, headers);
    } finally {
      end();
      if (isVisitor) visitors.budget.charge(client, performance.now() - started);
    }
  }

  /** Runs one operation and reports it to the observer, whatever its outcome. */
  async function execute(
    request: unknown,
    session: Session,
    headers: RequestHeaders = {},
  ): Promise<GraphQLResponse> {
    const observer = options.observer;
    if (!observer) return executeUnobserved(request, session, headers);
    const started = performance.now();
    const facts: OperationFacts = {
      // The transport put the request's (checked) id here (server.ts, ws/index.ts).
      requestId: parseRequestId(headers[REQUEST_ID_HEADER]),
      name:
        isRequest(request) && typeof request.operationName === 'string'
          ? request.operationName
          : undefined,
      type: 'unknown',
      role: session.role,
    };
    const response = await executeUnobserved(request, session, headers, facts);
    observer.finished(facts, performance.now() - started, operationFailure(response.error));
    return response;
  }

  async function executeUnobserved(
    request: unknown,
    session: Session,
    headers: RequestHeaders = {},
    facts?: OperationFacts,
  ): Promise<GraphQLResponse> {
    try {
      if (!isRequest(request)) {
        throw new HasuraError(
          'bad-request',
          'the request body must be an object with a "query" string',
          '$',
        );
      }
      if (
        request.variables !== undefined &&
        request.variables !== null &&
        (typeof request.variables !== 'object' || Array.isArray(request.variables))
      ) {
        throw new HasuraError('validation-failed', 'variables must be an object', '$.variables');
      }
      const backendOnly =
        session.isAdmin &&
        headers['x-hasura-use-backend-only-permissions']?.toLowerCase() === 'true';
      const base = {
        model: options.model,
        schema: options.model.forRole(session.role, { backendOnly }),
        session,
        stringifyNumericTypes: options.stringifyNumericTypes,
        limits,
        gate: options.gate,
      };
      const prepared = prepareOperation(request, base);
      const key =
        queries && prepared.type === 'query'
          ? queryKey({
              query: request.query,
              operationName: request.operationName,
              operation: prepared.operation,
              role: session.role,
              backendOnly,
              variables: prepared.variables,
            })
          : undefined;
      const kept =
        key === undefined
          ? undefined
          : queries?.find(prepared.document, key, prepared.variables, session);
      if (facts && key !== undefined) facts.planCache = kept ? 'hit' : 'miss';
      if (kept) {
        const params = bindTemplate(kept, prepared.variables, session);
        if (facts) identify(facts, prepared);
        const data = await runQueryStatement({ pool: options.pool, statements }, kept.sql, params);
        return { body: `{"data":${data}}`, error: undefined };
      }
      const plan = planPrepared(prepared, { ...base, recordBindings: key !== undefined });
      if (facts) identify(facts, prepared);
      const bindings = plan.bindings;
      const data = await executeOperation(plan, {
        pool: options.pool,
        statements,
        session,
        headers,
        requestQuery: request.query,
        environment: options.environment,
        stringifyNumericTypes: options.stringifyNumericTypes,
        introspect: (operationPlan) => options.introspect(operationPlan, session),
        onQueryCompiled:
          key !== undefined && bindings
            ? (sql, builder) => {
                const template = templateOf(
                  sql,
                  builder,
                  bindings,
                  prepared.operation,
                  prepared.variables,
                  session,
                );
                if (template) queries?.keep(prepared.document, key, template);
              }
            : undefined,
      });
      return { body: `{"data":${data}}`, error: undefined };
    } catch (error) {
      if (HasuraError.is(error)) return { body: errorBody(error), error };
      if (isConnectionError(error)) {
        // A connection the pool could not open, or one that dropped mid-transaction.
        options.logger?.warn({ err: error }, 'database unreachable');
        const unavailable = connectionError();
        return { body: errorBody(unavailable), error: unavailable };
      }
      if (isDatabaseError(error)) options.logger?.error({ err: error }, 'database error');
      else options.logger?.error({ err: error }, 'unexpected error');
      const unexpected = new HasuraError('unexpected', 'an unexpected error occurred', '$', 500);
      return { body: errorBody(unexpected), error: unexpected };
    }
  }

  return {
    /** Resolves the session once for the request, then answers each operation in it. */
    async handle(payload: unknown, headers: RequestHeaders): Promise<GraphQLResponse> {
      let session: Session;
      try {
        session = options.resolveSession(headers);
      } catch (error) {
        if (HasuraError.is(error)) return { body: errorBody(error), error };
        throw error;
      }
      if (Array.isArray(payload)) {
        if (payload.length > limits.maxBatchSize) {
          const error = new HasuraError(
            'bad-request',
            `a batched request may hold at most ${limits.maxBatchSize} operations`,
            '$',
          );
          return { body: errorBody(error), error };
        }
        const results: GraphQLResponse[] = [];
        for (const request of payload) results.push(await runOne(request, session, headers));
        return { body: `[${results.map((result) => result.body).join(',')}]`, error: undefined };
      }
      return runOne(payload, session, headers);
    },
    runOne,
  };
}

export type GraphQLHandler = ReturnType<typeof createGraphQLHandler>;

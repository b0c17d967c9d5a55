import WebSocket from 'ws';

import type { Logger } from '@app/shared/log';
import { parseRequestId, REQUEST_ID_HEADER } from '@app/shared/observability';

import type { RequestHeaders, SessionResolver } from '../auth/index.ts';
import type { Session } from '../auth/session.ts';
import { HasuraError, type HasuraErrorCode } from '../errors.ts';
import type { GraphQLHandler } from '../http/graphql-handler.ts';
import type { OperationObserver } from '../http/operation-log.ts';
import {
  checkSubscriptionRoots,
  compileLiveQuery,
  isLiveQueryPlan,
  type LiveQueryMultiplexer,
  type LiveSubscription,
} from '../live/index.ts';
import type { OperationGate } from '../plan/allowlist.ts';
import { DEFAULT_LIMITS, type EngineLimits } from '../plan/limits.ts';
import { planOperation, type OperationPlan } from '../plan/operation.ts';
import type { SchemaModel } from '../schema/model.ts';

import {
  CloseCode,
  TRANSPORT_PROTOCOL,
  closeReason,
  connectionHeaders,
  parseClientMessage,
  type OperationPayload,
  type SubProtocol,
} from './protocol.ts';

/** What every connection shares. */
export interface ConnectionContext {
  handler: GraphQLHandler;
  model: SchemaModel;
  resolveSession: SessionResolver;
  stringifyNumericTypes: boolean;
  live: LiveQueryMultiplexer;
  logger: Logger | undefined;
  /** Apollo `ka` / graphql-transport-ws `ping` period; 0 disables. */
  keepAliveMs: number;
  /** graphql-transport-ws: how long a client may wait before connection_init. */
  connectionInitTimeoutMs: number;
  /** Bounds on operations (plan/limits.ts); DEFAULT_LIMITS when unset. */
  limits?: EngineLimits | undefined;
  /** The allow-list and introspection rule (plan/allowlist.ts). */
  gate?: OperationGate | undefined;
  /** Logs a live subscription's start and stop (http/operation-log.ts). */
  observer?: OperationObserver | undefined;
}

type Operation =
  /** A query, mutation or one-shot subscription still running; `stopped` once the client stopped it. */
  | { kind: 'single'; stopped: boolean }
  | { kind: 'live'; subscription: LiveSubscription; ended: (() => void) | undefined };

/** Errors Hasura reports after execution began (Apollo sends those as `data`, not `error`). */
const EXECUTION_ERROR_CODES = new Set<HasuraErrorCode>([
  'postgres-error',
  'unexpected',
  'constraint-violation',
  'constraint-error',
  'data-exception',
  'permission-error',
  'action-error',
]);

/** The longest delay setTimeout takes; longer expiries are re-armed. */
const MAX_TIMER_MS = 2_147_483_647;

/** Hasura's `start-failed` error (not one of the request error codes). */
const startFailed = (message: string) => ({
  message,
  extensions: { path: '$', code: 'start-failed' },
});

/**
 * One WebSocket client, in either protocol. Messages are handled in arrival order; queries
 * and mutations run concurrently, subscriptions are registered with the live-query
 * multiplexer synchronously, so a `stop` that follows a `start` always finds it.
 */
export class Connection {
  private initReceived = false;
  private session: Session | undefined;
  private headers: RequestHeaders = {};
  private readonly operations = new Map<string, Operation>();
  private initTimer: NodeJS.Timeout | undefined;
  private keepAliveTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    readonly protocol: SubProtocol,
    private readonly requestHeaders: RequestHeaders,
    private readonly ctx: ConnectionContext,
  ) {
    if (protocol === TRANSPORT_PROTOCOL && ctx.connectionInitTimeoutMs > 0) {
      this.initTimer = setTimeout(() => {
        if (!this.initReceived)
          this.close(
            CloseCode.ConnectionInitialisationTimeout,
            'Connection initialisation timeout',
          );
      }, ctx.connectionInitTimeoutMs);
    }
  }

  private get legacy(): boolean {
    return this.protocol !== TRANSPORT_PROTOCOL;
  }

  /** Operations in flight or subscribed (tests, metrics). */
  get operationCount(): number {
    return this.operations.size;
  }

  handleMessage(text: string): void {
    if (this.closed) return;
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      const message = `parsing ClientMessage failed: ${parsed.error}`;
      if (this.legacy) this.sendRaw(JSON.stringify({ type: 'connection_error', payload: message }));
      else this.close(CloseCode.BadRequest, `Parsing client message failed: ${parsed.error}`);
      return;
    }
    const { message } = parsed;
    switch (message.type) {
      case 'connection_init':
        this.onInit(message.payload);
        return;
      case 'start':
        this.onStart(message.id, message.payload);
        return;
      case 'stop':
        this.onStop(message.id);
        return;
      case 'connection_terminate':
        this.close(CloseCode.Normal, 'GQL_CONNECTION_TERMINATE received');
        return;
      case 'ping':
        this.sendRaw(
          JSON.stringify(
            message.payload === undefined
              ? { type: 'pong' }
              : { type: 'pong', payload: message.payload },
          ),
        );
        return;
      case 'pong':
        return;
    }
  }

  /** Drops every operation and timer (the socket closed). */
  dispose(): void {
    this.closed = true;
    this.clearTimers();
    for (const operation of this.operations.values()) {
      if (operation.kind === 'live') {
        operation.subscription.unsubscribe();
        operation.ended?.();
      } else operation.stopped = true;
    }
    this.operations.clear();
  }

  /** Closes the socket with a code and reason, dropping every operation. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.dispose();
    if (
      this.socket.readyState === WebSocket.OPEN ||
      this.socket.readyState === WebSocket.CONNECTING
    ) {
      this.socket.close(code, closeReason(reason));
    }
  }

  private clearTimers(): void {
    clearTimeout(this.initTimer);
    clearInterval(this.keepAliveTimer);
    clearTimeout(this.expiryTimer);
    this.initTimer = undefined;
    this.keepAliveTimer = undefined;
    this.expiryTimer = undefined;
  }

  private onInit(payload: Record<string, unknown> | undefined): void {
    if (this.initReceived && !this.legacy) {
      this.close(CloseCode.TooManyInitialisationRequests, 'Too many initialisation requests');
      return;
    }
    this.initReceived = true;
    clearTimeout(this.initTimer);
    this.initTimer = undefined;
    const headers = connectionHeaders(this.requestHeaders, payload);
    let session: Session;
    try {
      session = this.ctx.resolveSession(headers);
    } catch (error) {
      const message = HasuraError.is(error) ? error.message : 'an unexpected error occurred';
      if (!HasuraError.is(error))
        this.ctx.logger?.error({ err: error }, 'websocket connection_init failed');
      if (this.legacy) {
        this.sendRaw(JSON.stringify({ type: 'connection_error', payload: message }));
        this.close(CloseCode.BadRequest, `Connection initialization failed: ${message}`);
      } else {
        this.close(CloseCode.Forbidden, 'Forbidden');
      }
      return;
    }
    this.session = session;
    this.headers = headers;
    this.sendRaw('{"type":"connection_ack"}');
    this.startKeepAlive();
    this.watchExpiry(session.expiresAt);
  }

  private startKeepAlive(): void {
    if (this.keepAliveTimer || this.ctx.keepAliveMs <= 0) return;
    const message = this.legacy
      ? '{"type":"ka"}'
      : '{"type":"ping","payload":{"message":"keepalive"}}';
    if (this.legacy) this.sendRaw(message);
    this.keepAliveTimer = setInterval(() => this.sendRaw(message), this.ctx.keepAliveMs);
  }

  /** Closes the connection when its credential (a JWT's `exp`) runs out. */
  private watchExpiry(expiresAt: Date | undefined): void {
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    if (!expiresAt) return;
    const arm = () => {
      const remaining = expiresAt.getTime() - Date.now();
      if (remaining <= 0) {
        this.close(CloseCode.Forbidden, 'Forbidden: JWT expired');
        return;
      }
      this.expiryTimer = setTimeout(arm, Math.min(remaining, MAX_TIMER_MS));
    };
    arm();
  }

  private onStart(id: string, payload: OperationPayload): void {
    const session = this.session;
    if (!session) {
      if (this.legacy)
        this.sendStartFailed(id, 'start received before the connection is initialised');
      else this.close(CloseCode.Unauthorized, 'Unauthorized');
      return;
    }
    if (this.operations.has(id)) {
      if (this.legacy) this.sendStartFailed(id, `an operation already exists with this id: ${id}`);
      else this.close(CloseCode.SubscriberAlreadyExists, `Subscriber for ${id} already exists`);
      return;
    }
    const maxOperations = (this.ctx.limits ?? DEFAULT_LIMITS).maxOperationsPerConnection;
    if (this.operations.size >= maxOperations) {
      // One client's thousands of live queries kept every other client waiting (issue 11).
      this.sendRequestError(
        id,
        new HasuraError(
          'validation-failed',
          `at most ${maxOperations} operations may run at once on one connection`,
          '$',
        ),
      );
      this.sendComplete(id);
      return;
    }
    let plan: OperationPlan;
    try {
      plan = planOperation(payload, {
        model: this.ctx.model,
        schema: this.ctx.model.forRole(session.role),
        session,
        stringifyNumericTypes: this.ctx.stringifyNumericTypes,
        ...(this.ctx.limits ? { limits: this.ctx.limits } : {}),
        gate: this.ctx.gate,
      });
      if (plan.type === 'subscription') checkSubscriptionRoots(plan);
    } catch (error) {
      this.sendRequestError(id, this.asHasuraError(error));
      this.sendComplete(id);
      return;
    }
    if (plan.type !== 'subscription') {
      this.runSingle(id, payload, session, true);
      return;
    }
    if (!isLiveQueryPlan(plan)) {
      if (plan.roots.some((root) => root.kind === 'action')) {
        this.sendRequestError(
          id,
          new HasuraError('not-supported', 'async actions are not supported in subscriptions', '$'),
        );
        this.sendComplete(id);
        return;
      }
      if (plan.roots.some((root) => root.kind !== 'introspection' && root.kind !== 'typename')) {
        this.sendRequestError(
          id,
          new HasuraError(
            'not-supported',
            'introspection and database fields cannot be mixed in a subscription',
            '$',
          ),
        );
        this.sendComplete(id);
        return;
      }
      // Introspection never changes while the engine runs: answer once, stay subscribed.
      this.runSingle(id, payload, session, false);
      return;
    }
    let subscription: LiveSubscription;
    try {
      const compiled = compileLiveQuery(plan, session, this.ctx.stringifyNumericTypes);
      subscription = this.ctx.live.subscribe(compiled, (body) => this.sendData(id, body));
    } catch (error) {
      this.sendRequestError(id, this.asHasuraError(error));
      this.sendComplete(id);
      return;
    }
    const ended = this.ctx.observer?.subscribed({
      requestId: parseRequestId(this.headers[REQUEST_ID_HEADER]),
      name: plan.operation.name?.value,
      type: 'subscription',
      role: session.role,
    });
    this.operations.set(id, { kind: 'live', subscription, ended });
  }

  /** A query or mutation (complete afterwards), or a one-shot subscription (no complete). */
  private runSingle(
    id: string,
    payload: OperationPayload,
    session: Session,
    complete: boolean,
  ): void {
    const operation: Operation = { kind: 'single', stopped: false };
    this.operations.set(id, operation);
    this.ctx.handler
      .runOne(payload, session, this.headers)
      .then((result) => {
        if (operation.stopped || this.closed) return;
        if (result.error) this.sendExecutionError(id, result.error, result.body);
        else this.sendData(id, result.body);
        if (complete) {
          this.operations.delete(id);
          this.sendComplete(id);
        }
      })
      .catch((error: unknown) => {
        this.ctx.logger?.error({ err: error }, 'websocket operation failed');
        if (operation.stopped || this.closed) return;
        this.operations.delete(id);
        this.sendRequestError(
          id,
          new HasuraError('unexpected', 'an unexpected error occurred', '$', 500),
        );
        this.sendComplete(id);
      });
  }

  private onStop(id: string): void {
    const operation = this.operations.get(id);
    if (!operation) return;
    this.operations.delete(id);
    if (operation.kind === 'live') {
      operation.subscription.unsubscribe();
      operation.ended?.();
    } else operation.stopped = true;
  }

  private asHasuraError(error: unknown): HasuraError {
    if (HasuraError.is(error)) return error;
    this.ctx.logger?.error({ err: error }, 'websocket operation failed');
    return new HasuraError('unexpected', 'an unexpected error occurred', '$', 500);
  }

  private sendRaw(text: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  /** A response body (`{"data":...}` or `{"errors":[...]}`) as `data` / `next`. */
  private sendData(id: string, body: string): void {
    this.sendRaw(
      `{"type":"${this.legacy ? 'data' : 'next'}","id":${JSON.stringify(id)},"payload":${body}}`,
    );
  }

  /** A request error (before execution): `error` with `{errors}` (Apollo) or the errors list. */
  private sendRequestError(id: string, error: HasuraError): void {
    const payload = this.legacy ? { errors: [error] } : [error];
    this.sendRaw(JSON.stringify({ type: 'error', id, payload }));
  }

  /** An execution error: Apollo answers it as `data` with errors, graphql-transport-ws as `error`. */
  private sendExecutionError(id: string, error: HasuraError, body: string): void {
    // Hasura answers a failed action as data on both protocols, with `data: null` beside the errors.
    if (error.code === 'action-error' && body.startsWith('{"errors"')) {
      this.sendData(id, `{"data":null,${body.slice(1)}`);
      return;
    }
    if (this.legacy && EXECUTION_ERROR_CODES.has(error.code)) this.sendData(id, body);
    else this.sendRequestError(id, error);
  }

  private sendStartFailed(id: string, message: string): void {
    this.sendRaw(JSON.stringify({ type: 'error', id, payload: startFailed(message) }));
    this.sendComplete(id);
  }

  private sendComplete(id: string): void {
    this.sendRaw(`{"type":"complete","id":${JSON.stringify(id)}}`);
  }
}

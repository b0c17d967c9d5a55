import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

import type pg from 'pg';
import WebSocket, { WebSocketServer } from 'ws';

import type { Logger } from '@app/shared/log';
import { REQUEST_ID_HEADER, requestIdFrom } from '@app/shared/observability';

import { withObservedPeer } from '../actions/forwarded-for.ts';
import type { SessionResolver } from '../auth/index.ts';
import type { PreparedStatements } from '../database/prepared-statements.ts';
import type { GraphQLHandler } from '../http/graphql-handler.ts';
import type { OperationObserver } from '../http/operation-log.ts';
import type { OperationGate } from '../plan/allowlist.ts';
import type { EngineLimits } from '../plan/limits.ts';
import { MAX_BODY_BYTES } from '../http/server.ts';
import {
  LiveQueryMultiplexer,
  type LiveQueryStatementEvent,
  type LiveQueryStats,
} from '../live/index.ts';
import type { SchemaModel } from '../schema/model.ts';

import { Connection } from './connection.ts';
import {
  CloseCode,
  HANDSHAKE_HEADERS,
  LEGACY_PROTOCOL,
  TRANSPORT_PROTOCOL,
  type SubProtocol,
} from './protocol.ts';

/** What the WebSocket transport and the live-query multiplexer need from the engine. */
export interface WebSocketDeps {
  server: Server;
  /** Executes queries and mutations exactly as over HTTP. */
  handler: GraphQLHandler;
  model: SchemaModel;
  pool: pg.Pool;
  /** Named prepared statements for the multiplexed live queries; off when unset. */
  statements?: PreparedStatements | undefined;
  resolveSession: SessionResolver;
  stringifyNumericTypes: boolean;
  liveQueryRefetchIntervalMs: number;
  liveQueryBatchSize: number;
  logger: Logger | undefined;
  /** HASURA_GRAPHQL_WEBSOCKET_KEEPALIVE (s in Hasura; ms here): Apollo `ka` / graphql-transport-ws `ping` period. Default 5000; 0 disables. */
  keepAliveMs?: number | undefined;
  /** HASURA_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT (s in Hasura; ms here): graphql-transport-ws only. Default 3000. */
  connectionInitTimeoutMs?: number | undefined;
  /** Bounds on operations (plan/limits.ts); DEFAULT_LIMITS when unset. */
  limits?: EngineLimits | undefined;
  /** The allow-list and introspection rule (plan/allowlist.ts). */
  gate?: OperationGate | undefined;
  /** Logs and counts live subscriptions (http/operation-log.ts). */
  observer?: OperationObserver | undefined;
  /** Called after every multiplexed live-query statement (benchmarks, metrics). */
  onLiveQueryStatement?: ((event: LiveQueryStatementEvent) => void) | undefined;
}

export interface WebSockets {
  close(): Promise<void>;
  /** Live-query counters: cohorts, subscribers, statements run so far, ... */
  liveQueryStats(): LiveQueryStats;
  /** Open WebSocket connections. */
  connectionCount(): number;
}

/** The paths Hasura serves WebSockets on (relay is not served by this engine). */
const WS_PATHS = new Set(['/v1/graphql', '/v1alpha1/graphql']);

/** How long close() lets clients answer the close frame before dropping them. */
const CLOSE_GRACE_MS = 1000;

/**
 * Picks the sub-protocol: graphql-transport-ws when offered, else the legacy graphql-ws.
 * A client that offers neither is refused (4406) once connected; one that offers none at
 * all gets the legacy protocol, as Hasura defaults to it.
 */
function chooseProtocol(offered: Set<string>): string | false {
  if (offered.has(TRANSPORT_PROTOCOL)) return TRANSPORT_PROTOCOL;
  if (offered.has(LEGACY_PROTOCOL)) return LEGACY_PROTOCOL;
  return false;
}

function rejectUpgrade(socket: Duplex, status: number, statusText: string, message: string): void {
  const body = JSON.stringify({
    errors: [
      { message, extensions: { path: '$', code: status === 404 ? 'not-found' : 'unexpected' } },
    ],
  });
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function clientHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HANDSHAKE_HEADERS.has(lower)) continue;
    headers[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  // One id for the connection's operations: the handshake's, when it has a safe shape.
  headers[REQUEST_ID_HEADER] = requestIdFrom(request.headers[REQUEST_ID_HEADER]);
  // The client's address as this engine saw it, last in X-Forwarded-For (actions/forwarded-for.ts).
  return withObservedPeer(headers, request.socket.remoteAddress);
}

/** Serves /v1/graphql over WebSocket (graphql-transport-ws and the legacy graphql-ws protocol). */
export function attachWebSockets(deps: WebSocketDeps): WebSockets {
  const statements = deps.statements;
  const live = new LiveQueryMultiplexer({
    pool: statements
      ? { query: (text, values) => statements.query(deps.pool, text, values) }
      : deps.pool,
    refetchIntervalMs: deps.liveQueryRefetchIntervalMs,
    batchSize: deps.liveQueryBatchSize,
    logger: deps.logger,
    onStatement: deps.onLiveQueryStatement,
  });
  const context = {
    handler: deps.handler,
    model: deps.model,
    resolveSession: deps.resolveSession,
    stringifyNumericTypes: deps.stringifyNumericTypes,
    live,
    logger: deps.logger,
    keepAliveMs: deps.keepAliveMs ?? 5000,
    connectionInitTimeoutMs: deps.connectionInitTimeoutMs ?? 3000,
    limits: deps.limits,
    gate: deps.gate,
    observer: deps.observer,
  };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_BODY_BYTES,
    perMessageDeflate: false,
    handleProtocols: chooseProtocol,
  });
  const connections = new Map<WebSocket, Connection>();
  let closing = false;

  function accept(socket: WebSocket, request: IncomingMessage): void {
    const offered = request.headers['sec-websocket-protocol'];
    if (socket.protocol === '' && offered !== undefined && offered.trim() !== '') {
      socket.close(CloseCode.SubprotocolNotAcceptable, 'Subprotocol not acceptable');
      return;
    }
    const protocol = (
      socket.protocol === TRANSPORT_PROTOCOL ? TRANSPORT_PROTOCOL : LEGACY_PROTOCOL
    ) satisfies SubProtocol;
    const connection = new Connection(socket, protocol, clientHeaders(request), context);
    connections.set(socket, connection);
    socket.on('message', (data: WebSocket.RawData) => {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      connection.handleMessage(text);
    });
    socket.on('close', () => {
      connection.dispose();
      connections.delete(socket);
    });
    socket.on('error', (error) => {
      deps.logger?.debug({ err: error }, 'websocket error');
    });
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (closing) {
      rejectUpgrade(socket, 503, 'Service Unavailable', 'Server is shutting down');
      return;
    }
    if (!WS_PATHS.has(path)) {
      rejectUpgrade(
        socket,
        404,
        'Not Found',
        "only '/v1/graphql' and '/v1alpha1/graphql' are supported on websockets",
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request));
  };
  deps.server.on('upgrade', onUpgrade);

  return {
    async close() {
      if (closing) return;
      closing = true;
      deps.server.off('upgrade', onUpgrade);
      const sockets = [...wss.clients];
      const allClosed = Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.readyState === WebSocket.CLOSED) resolve();
              else socket.once('close', () => resolve());
            }),
        ),
      );
      for (const socket of sockets) {
        const connection = connections.get(socket);
        if (connection) connection.close(CloseCode.GoingAway, 'Server shutting down');
        else if (socket.readyState === WebSocket.OPEN)
          socket.close(CloseCode.GoingAway, 'Server shutting down');
      }
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        allClosed,
        new Promise<void>((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS))),
      ]);
      clearTimeout(grace);
      for (const socket of wss.clients) socket.terminate();
      await allClosed;
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await live.close();
    },
    liveQueryStats: () => live.stats(),
    connectionCount: () => connections.size,
  };
}

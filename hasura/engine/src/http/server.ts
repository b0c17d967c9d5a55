import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import type { Logger } from '@app/shared/log';
import {
  answerMetrics,
  METRICS_PATH,
  observeRequest,
  REQUEST_ID_HEADER,
  type ServiceMetrics,
} from '@app/shared/observability';
import { keepIdleConnectionsOpen } from '@app/shared/service';

import { withObservedPeer } from '../actions/forwarded-for.ts';
import type { RequestHeaders } from '../auth/index.ts';
import { HasuraError } from '../errors.ts';

import { applyCors, type CorsPolicy } from './cors.ts';
import type { GraphQLHandler } from './graphql-handler.ts';

export { KEEP_ALIVE_TIMEOUT_MS } from '@app/shared/service';

/** Largest request body accepted (Hasura has no default; a bound keeps one client from exhausting memory). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The request body as text, or `undefined` when it is larger than MAX_BODY_BYTES (declared in
 * Content-Length, or found while reading). An oversized body is still read to its end and
 * dropped rather than left in the socket: destroying the request mid-upload reset the
 * connection, and with it the next request a client sent on it (issue 11).
 */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > MAX_BODY_BYTES;
    if (tooLarge) resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        resolve(undefined);
      } else chunks.push(chunk);
    });
    request.on('end', () => {
      if (!tooLarge) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', reject);
    request.on('close', () => {
      if (!request.complete)
        reject(new Error('the client went away before sending the whole body'));
    });
  });
}

function send(response: ServerResponse, status: number, body: string, retryAfterS?: number): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    // 503: the database (or an action's handler) is briefly unavailable; ask for a retry soon.
    // 429: a visitor over their engine-time budget (visitor-budget.ts) comes back when it refills.
    ...(retryAfterS !== undefined
      ? { 'retry-after': String(retryAfterS) }
      : status === 503
        ? { 'retry-after': '1' }
        : {}),
  });
  response.end(body);
}

const sendError = (response: ServerResponse, status: number, error: HasuraError) =>
  send(response, status, JSON.stringify({ errors: [error] }));

export function headersOf(request: IncomingMessage): RequestHeaders {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  // The client's address as this engine saw it, last in X-Forwarded-For (actions/forwarded-for.ts).
  return withObservedPeer(headers, request.socket.remoteAddress);
}

/** The engine's own routes, the label of its requests in logs and metrics (never raw paths). */
const ROUTES = new Set(['/v1/graphql', '/v1alpha1/graphql', '/healthz', METRICS_PATH]);

/** Access log, request ids and GET /metrics (@app/shared/observability). */
export interface HttpObservabilityOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  /** METRICS_TOKEN; unset, /metrics answers loopback callers only. */
  metricsToken: string | undefined;
}

/**
 * The engine's HTTP surface: POST /v1/graphql (request errors answered with 200, as Hasura
 * does), POST /v1alpha1/graphql (the same API with error statuses), GET /healthz, and with
 * `observability` GET /metrics; CORS per `cors` (http/cors.ts). Every answer carries the
 * request's `x-request-id`, which the operation's log line and its action calls carry too.
 */
export function createHttpServer(
  handler: GraphQLHandler,
  cors?: CorsPolicy,
  observability?: HttpObservabilityOptions,
): Server {
  const server = createServer((request, response) => {
    let requestId: string | undefined;
    if (observability) {
      requestId = observeRequest(
        {
          ...observability,
          routeOf: (req) => {
            const path = new URL(req.url ?? '/', 'http://localhost').pathname;
            return ROUTES.has(path) ? path : undefined;
          },
        },
        request,
        response,
      ).id;
    }
    void (async () => {
      if (applyCors(cors, request, response)) return;
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (observability && url.pathname === METRICS_PATH && request.method === 'GET') {
        await answerMetrics(observability.metrics, observability.metricsToken, request, response);
        return;
      }
      if (url.pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
        send(response, 200, '"OK"');
        return;
      }
      const alpha = url.pathname === '/v1alpha1/graphql';
      if (url.pathname !== '/v1/graphql' && !alpha) {
        sendError(response, 404, new HasuraError('not-found', 'resource does not exist', '$', 404));
        return;
      }
      if (request.method !== 'POST') {
        sendError(
          response,
          405,
          new HasuraError('bad-request', 'only POST is allowed on this endpoint', '$', 405),
        );
        return;
      }
      const text = await readBody(request);
      if (text === undefined) {
        // The connection closes after this answer: the client must not send more on it while
        // the rest of its body is still arriving.
        response.setHeader('connection', 'close');
        sendError(
          response,
          413,
          new HasuraError('bad-request', `request body exceeds ${MAX_BODY_BYTES} bytes`, '$', 413),
        );
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        sendError(
          response,
          alpha ? 400 : 200,
          new HasuraError(
            'invalid-json',
            'Error in $: Failed reading: not a valid json value',
            '$',
          ),
        );
        return;
      }
      // The checked id (or ours), never the client's raw header, reaches logs and webhooks.
      const headers =
        requestId === undefined
          ? headersOf(request)
          : { ...headersOf(request), [REQUEST_ID_HEADER]: requestId };
      const result = await handler.handle(payload, headers);
      // Request errors answer 200 on /v1/graphql, as Hasura does; a server's trouble (5xx) and
      // a refusal to run at all (429, with Retry-After) keep their status for clients and
      // proxies that act on it.
      const status = result.error
        ? alpha || result.error.status >= 500 || result.retryAfterS !== undefined
          ? result.error.status
          : 200
        : 200;
      send(response, status, result.body, result.retryAfterS);
    })().catch(() => {
      if (!response.headersSent)
        sendError(
          response,
          500,
          new HasuraError('unexpected', 'an unexpected error occurred', '$', 500),
        );
      else response.destroy();
    });
  });
  // Under hostile load a stalled second was enough for a client to reuse a connection as the
  // server dropped it (issue 11).
  keepIdleConnectionsOpen(server);
  return server;
}

import type { IncomingMessage, ServerResponse } from 'node:http';

import { safeEqual } from '#src/crypto/safe-equal';
import type { Logger } from '#src/log/index';

import type { ServiceMetrics } from './metrics.ts';
import { REQUEST_ID_HEADER, requestIdFrom, runWithRequestId } from './request-id.ts';

/*
 * The HTTP side every service shares: the request id taken or made and answered, one
 * access-log line per answer, the request counted in the service's metrics, and GET /metrics.
 *
 * The access line is `{ reqId, method, route, status, ms }`: the route pattern, never the raw
 * path or query (a portal path may hold a secret link's token, a query a reset code).
 */

export const METRICS_PATH = '/metrics';

/** Answers logged at debug: the supervisor's health polls and Prometheus' scrapes. */
const QUIET_PATHS = new Set(['/healthz', METRICS_PATH]);

/** The access-log line's fields (besides the logger's own `reqId` binding). */
export interface AccessLine {
  method: string;
  route: string;
  status: number;
  ms: number;
}

export interface HttpObservability {
  logger: Logger;
  metrics: ServiceMetrics;
  /**
   * The route pattern of an answered request, for the log line and the metrics label; the
   * default reads Express's matched route, and names anything else `unmatched` (404) or `other`.
   */
  routeOf?: (request: IncomingMessage, response: ServerResponse) => string | undefined;
  /**
   * Paths whose access line is debug rather than info when no route of the service matched
   * them (static files, a sandbox's polls).
   */
  quiet?: (path: string) => boolean;
}

interface ExpressLike {
  route?: { path?: unknown };
  baseUrl?: string;
}

/** Express's matched route (`/actions/:name`), with the path of the router it is in. */
export function expressRoute(request: IncomingMessage): string | undefined {
  const { route, baseUrl } = request as IncomingMessage & ExpressLike;
  return typeof route?.path === 'string' ? `${baseUrl ?? ''}${route.path}` : undefined;
}

const pathOf = (request: IncomingMessage) => {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * Starts observing one request: sets `x-request-id` on the answer and, when it is sent, writes
 * the access line (401 and 403 at warn, as attacks show there; 5xx at error) and counts it.
 * Returns the request's id and its logger (bound to the id).
 */
export function observeRequest(
  options: HttpObservability,
  request: IncomingMessage,
  response: ServerResponse,
): { id: string; log: Logger } {
  const id = requestIdFrom(request.headers[REQUEST_ID_HEADER]);
  const log = options.logger.child({ reqId: id });
  response.setHeader(REQUEST_ID_HEADER, id);
  const started = process.hrtime.bigint();
  const path = pathOf(request);
  response.once('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const status = response.statusCode;
    const matched = (options.routeOf ?? expressRoute)(request, response);
    const route =
      matched ?? (QUIET_PATHS.has(path) ? path : status === 404 ? 'unmatched' : 'other');
    // A route of the service's own is never quiet, whatever its path looks like.
    const quiet =
      QUIET_PATHS.has(path) || (matched === undefined && options.quiet?.(path) === true);
    const method = request.method ?? 'GET';
    options.metrics.observeRequest(method, route, status, seconds);
    const line: AccessLine = { method, route, status, ms: Math.round(seconds * 1e6) / 1e3 };
    if (status >= 500) log.error(line, 'request failed');
    else if (status === 401 || status === 403) log.warn(line, 'request refused');
    else if (quiet) log.debug(line, 'request');
    else log.info(line, 'request');
  });
  return { id, log };
}

/**
 * Express middleware: `observeRequest`, then the rest of the chain with the id as the current
 * request id (runWithRequestId), so calls made for the request can forward it.
 */
export function requestObservability(options: HttpObservability) {
  return (
    request: IncomingMessage & { id?: string; log?: Logger },
    response: ServerResponse,
    next: () => void,
  ) => {
    const { id, log } = observeRequest(options, request, response);
    request.id = id;
    request.log = log;
    runWithRequestId(id, next);
  };
}

/** Who may read /metrics: `token` set, a bearer with it; unset, loopback callers only. */
export function metricsAllowed(request: IncomingMessage, token: string | undefined): boolean {
  if (token !== undefined) {
    return safeEqual(request.headers.authorization, `Bearer ${token}`);
  }
  // Without a token: this machine only, and not through a proxy on it (the proxy's request
  // comes from loopback too, but names the client it forwards).
  const peer = request.socket.remoteAddress ?? '';
  const loopback = peer === '::1' || peer.startsWith('127.') || peer.startsWith('::ffff:127.');
  return loopback && request.headers['x-forwarded-for'] === undefined;
}

/**
 * Answers GET /metrics in Prometheus' text format: 404 to anyone `metricsAllowed` refuses (it
 * does not say there is something to guess at), 500 if collecting fails.
 */
export async function answerMetrics(
  metrics: ServiceMetrics,
  token: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (!metricsAllowed(request, token)) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
    return;
  }
  try {
    const body = await metrics.registry.metrics();
    response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body);
  } catch {
    response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed');
  }
}

/** Express handler of GET /metrics (answerMetrics). */
export function metricsRoute(metrics: ServiceMetrics, token: string | undefined) {
  return (request: IncomingMessage, response: ServerResponse) =>
    void answerMetrics(metrics, token, request, response);
}

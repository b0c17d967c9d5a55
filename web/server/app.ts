import { createRequestHandler } from '@react-router/express';
import express, { type Express } from 'express';
import type { ServerBuild } from 'react-router';

import { createLogger, type Logger } from '@app/shared/log';
import {
  createServiceMetrics,
  expressRoute,
  forwardRequestIdOnFetch,
  metricsRoute,
  METRICS_PATH,
  requestObservability,
} from '@app/shared/observability';
import type { PublicEnv } from '@app/shared/public-env';

import type { WebEnv } from './env.ts';
import { cspNonce, securityConfig, securityHeaders } from './security.ts';

declare module 'react-router' {
  interface AppLoadContext {
    publicEnv: PublicEnv;
    /** The nonce of this response's Content-Security-Policy (security.ts). */
    cspNonce: string | undefined;
  }
}

/**
 * The React Router request handler, with the public env and the response's CSP nonce in every
 * loader's context; documents render with the nonce (web/app/entry.server.tsx).
 */
export function createPortalHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  publicEnv: PublicEnv,
) {
  return createRequestHandler({
    build: build,
    getLoadContext: (_req, res) => ({ publicEnv, cspNonce: cspNonce(res) }),
  });
}

/** Static files and Vite's modules: their access lines are debug, pages' are info. */
const isAsset = (path: string) =>
  /^\/(assets|@[a-z]+|node_modules|app|src)\//.test(path) || /\.[a-z0-9]+$/i.test(path);

/** The portal's routes as logged and counted: its pages are one route, `page`. */
const routeOf = (request: Parameters<typeof expressRoute>[0]) => {
  const route = expressRoute(request);
  return route === '/{*splat}' ? 'page' : route;
};

/**
 * The server's Express application before any route: no X-Powered-By; the request id, access
 * line and metrics (@app/shared/observability), with the id forwarded on the server's own calls
 * to the engine and the auth service (the loaders' `fetch`); GET /metrics (METRICS_TOKEN); and
 * the security headers (security.ts) first, so every answer has them: pages, assets, errors,
 * Vite's in development.
 */
export function createWebApp(
  env: WebEnv,
  publicEnv: PublicEnv,
  logger: Logger = createLogger('web', { level: env.LOG_LEVEL }),
): Express {
  const app = express();
  app.disable('x-powered-by');
  const metrics = createServiceMetrics('web');
  const services = new Set(
    [publicEnv.PUBLIC_GRAPHQL_URL, publicEnv.PUBLIC_AUTH_URL].map((url) => new URL(url).origin),
  );
  forwardRequestIdOnFetch((url) => services.has(url.origin));
  app.use(requestObservability({ logger, metrics, routeOf, quiet: isAsset }));
  app.use(securityHeaders(securityConfig(env, publicEnv)));
  // Prometheus, on this server's own port (the public proxy never routes it).
  app.get(METRICS_PATH, metricsRoute(metrics, env.METRICS_TOKEN));
  return app;
}

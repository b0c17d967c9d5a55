import { createRequestHandler } from '@react-router/express';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { ServerBuild } from 'react-router';

import { resources, splitLocalePath } from '@app/shared/i18n';

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

/** A request whose address is not valid percent-encoding (`/transaction/%E0%A4%A`). */
export function isMalformedPath(path: string): boolean {
  try {
    // The decoded value is used, so no bundler drops the call as free of side effects (Rolldown
    // did: the check never failed).
    return decodeURIComponent(path).length < 0;
  } catch {
    return true;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The last resort, when even the portal could not render: a plain page in the address's language
 * with the status and nothing of the error. Express's own handler would print the stack and the
 * server's paths whenever NODE_ENV is not `production`, which is how `npm start` runs.
 */
export function plainErrorPage(path: string, status: number): string {
  const locale = splitLocalePath(path.startsWith('/') ? path : '/').locale;
  const { errors } = resources[locale].common;
  const [title, text] =
    status === 400
      ? [errors.badRequestTitle, errors.badRequestText]
      : status === 404
        ? [errors.notFoundTitle, errors.notFoundText]
        : [errors.serverTitle, errors.serverText];
  const home = locale === 'en' ? '/' : `/${locale}`;
  return [
    '<!doctype html>',
    `<html lang="${locale === 'ua' ? 'uk-UA' : locale}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>`,
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`,
    `<p><a href="${home}">${escapeHtml(errors.backHome)}</a></p></main></body></html>`,
  ].join('');
}

/**
 * The portal's answer to errors Express meets before a page renders. A malformed address (the
 * router cannot decode its parameters, `send` cannot decode its file path) is the visitor's
 * mistake: it goes to the portal, whose root loader answers 400 with the branded page in the
 * address's language (web/app/root.tsx). Anything else, or a failure of that render, gets
 * plainErrorPage: never a stack trace or a server path, whatever NODE_ENV says.
 */
export function pageErrors(portal: RequestHandler, logger: Logger): ErrorRequestHandler {
  const last: ErrorRequestHandler = (error: unknown, req, res, next) => {
    // Mid-answer there is nothing left to say; Express closes the connection.
    if (res.headersSent) return next(error);
    const status = statusOf(error);
    if (status >= 500) logger.error({ err: error }, 'request failed');
    res
      .status(status)
      .set('content-type', 'text/html; charset=utf-8')
      .set('cache-control', 'no-store')
      .send(plainErrorPage(req.path, status));
  };
  return (error: unknown, req, res, next) => {
    const page = req.method === 'GET' || req.method === 'HEAD';
    if (page && !res.headersSent && isMalformedPath(req.path)) {
      // The address stays the visitor's mistake (400) even if the branded page fails.
      const fallback = (failure?: unknown) => {
        if (failure) logger.error({ err: failure }, 'the error page failed');
        last(error, req, res, next);
      };
      try {
        void Promise.resolve(portal(req, res, fallback)).catch(fallback);
      } catch (failure) {
        fallback(failure);
      }
      return;
    }
    last(error, req, res, next);
  };
}

/** The HTTP status an error carries (http-errors' `status`, `send`'s `statusCode`), else 500. */
function statusOf(error: unknown): number {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
}

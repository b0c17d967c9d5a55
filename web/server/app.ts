import { createRequestHandler } from '@react-router/express';
import express, { type Express } from 'express';
import type { ServerBuild } from 'react-router';

import type { PublicEnv, WebEnv } from './env.ts';
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

/**
 * The server's Express application before any route: no X-Powered-By, and the security headers
 * (security.ts) first, so every answer has them: pages, assets, errors, Vite's in development.
 */
export function createWebApp(env: WebEnv, publicEnv: PublicEnv): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders(securityConfig(env, publicEnv)));
  return app;
}

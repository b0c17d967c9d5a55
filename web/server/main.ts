/*
 * The web portal's server on WEB_HOST:WEB_PORT (3000): React Router's SSR handler on Express.
 * Development renders through Vite's middleware (no build step; edits reload); production serves
 * the output of `npm run build -w web` with immutable, fingerprinted assets.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import compression from 'compression';
import express from 'express';
import type { ServerBuild } from 'react-router';

import { loadEnv } from '@app/shared/env';
import { createLogger } from '@app/shared/log';
import { keepIdleConnectionsOpen, listenOn } from '@app/shared/service';

import { createPortalHandler, createWebApp, pageErrors } from './app.ts';
import { devServerFs } from './dev-fs.ts';
import { getPublicEnv, WebEnv } from './env.ts';
import { mountMiniapp } from './miniapp.ts';
import { RATE_FEED_PATH, rateFeedHandler } from './rate-feed.ts';

const env = loadEnv(WebEnv);
const logger = createLogger('web', { level: env.LOG_LEVEL });
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const buildDir = env.WEB_BUILD_DIR ? path.resolve(env.WEB_BUILD_DIR) : path.join(root, 'build');

const servingBuild =
  (env.WEB_SERVE ?? (env.NODE_ENV === 'production' ? 'build' : 'dev')) === 'build';
let build: ServerBuild | undefined;
if (servingBuild) {
  const serverBuild = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverBuild)) {
    logger.fatal({ serverBuild }, 'no production build: run `npm run build -w web` first');
    process.exit(1);
  }
  build = (await import(serverBuild)) as ServerBuild;
}
// The build's own id, so clients notice a deployment (spec section 2: new-build check).
const buildId = build ? build.assets.version : `dev-${Date.now()}`;
const publicEnv = getPublicEnv(env, buildId);

const app = createWebApp(env, publicEnv, logger);
// gzip or brotli for the HTML, scripts and styles: the uncompressed bundles cost seconds on a
// mobile connection (Lighthouse "enable text compression"; React Router's server templates do
// the same).
app.use(compression());
// Created first so Vite's hot reload shares its port in development.
const server = createServer(app);
keepIdleConnectionsOpen(server);

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

// The rates for exchange monitors (BestChange's export file), from the engine's rateFeed.
app.get(RATE_FEED_PATH, rateFeedHandler(env.PUBLIC_GRAPHQL_URL, { logger }));

const miniappOptions = { app, server, env, servingBuild, root, logger, publicEnv };
if (build) {
  app.use(
    '/assets',
    express.static(path.join(buildDir, 'client', 'assets'), { immutable: true, maxAge: '1y' }),
  );
  app.use(express.static(path.join(buildDir, 'client'), { maxAge: '1h' }));
  app.get('/build.json', (_req, res) => {
    res.set('cache-control', 'no-store').json({ buildId });
  });
  await mountMiniapp(miniappOptions);
  const portal = createPortalHandler(build, publicEnv);
  app.all('/{*splat}', portal);
  app.use(pageErrors(portal, logger));
} else {
  const vite = await import('vite');
  const devServer = await vite.createServer({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: { server }, fs: devServerFs(path.dirname(root)) },
    logLevel: 'warn',
  });
  // The mini-app's Vite server answers its own paths first.
  await mountMiniapp(miniappOptions);
  app.use(devServer.middlewares);
  app.get('/build.json', (_req, res) => {
    res.set('cache-control', 'no-store').json({ buildId });
  });
  const portal = createPortalHandler(
    () => devServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
    publicEnv,
  );
  app.all('/{*splat}', portal);
  app.use(pageErrors(portal, logger));
}

server.listen(listenOn(env.WEB_PORT, env.WEB_HOST));
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ url: `http://${env.WEB_HOST}:${port}`, servingBuild }, 'web portal listening');
});
server.once('error', (error) => {
  logger.fatal({ err: error }, 'cannot listen');
  process.exit(1);
});

const stop = (signal: string) => {
  logger.info({ signal }, 'stopping');
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 3_000).unref();
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

/*
 * The Telegram mini-app on the portal's server (spec section 2: /telegram-app,
 * /telegram-app/transaction/{id}, /telegram-app/transactions-history, also under /ru and /ua).
 * Production serves the build in miniapp/dist; development renders through the mini-app's own
 * Vite server. Every page is the app's index.html with the public env written in; in
 * development, /telegram-app/dev-launch signs launch data for use outside Telegram.
 */
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';

import express, { type Express, type Request, type Response } from 'express';

import { createServicePool } from '@app/shared/db/service-pool';
import { DEV_TELEGRAM_BOT_TOKEN } from '@app/shared/env';
import type { Logger } from '@app/shared/log';
import type { PublicEnv } from '@app/shared/public-env';
import {
  devLaunchParams,
  devLaunchUserId,
  isStaffTelegramUser,
} from '@app/shared/telegram/dev-launch';
import { TELEGRAM_THEMES } from '@app/shared/telegram/themes';

import { loadExchangeCatalog } from '../app/exchange/catalog.server.ts';
import { devServerFs } from './dev-fs.ts';
import type { WebEnv } from './env.ts';
import { cspNonce } from './security.ts';

export { devLaunchParams, TELEGRAM_THEMES };

export const MINIAPP_BASE = '/telegram-app';
/** The app's pages in each locale: no prefix (English), /ru and /ua. */
const PAGE_PATHS = ['', '/ru', '/ua'].flatMap((prefix) => [
  `${prefix}${MINIAPP_BASE}`,
  `${prefix}${MINIAPP_BASE}/{*rest}`,
]);
const ENV_MARKER = '<!--miniapp-env-->';

/** JSON for an inline script: nothing in it can close the script element. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** ` nonce="…"` for a script element, when the response has a CSP nonce (security.ts). */
const nonceAttribute = (nonce: string | undefined): string => (nonce ? ` nonce="${nonce}"` : '');

/**
 * The page's own script elements (the template's, which is ours and carries no request data)
 * with the response's nonce: the build's module script, and in development Vite's client and
 * React's refresh preamble, which is inline.
 */
const withNonces = (html: string, nonce: string | undefined): string =>
  nonce ? html.replace(/<script\b/g, `<script${nonceAttribute(nonce)}`) : html;

/** A navigation to one of the app's screens, not a request for a module or an asset. */
const isPageRequest = (req: Request): boolean =>
  req.method === 'GET' && !/\.[a-z0-9]+$/i.test(req.path) && !req.path.includes('/@');

/** The built chunk of each locale's texts, from the build's Vite manifest. */
async function localeChunks(buildDir: string): Promise<Partial<Record<string, string>>> {
  try {
    const manifest = JSON.parse(
      await readFile(path.join(buildDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Record<string, { file: string }>;
    const chunks: Record<string, string> = {};
    for (const [source, { file }] of Object.entries(manifest)) {
      const locale = /shared\/src\/i18n\/resources\/(en|ru|ua)\.ts$/.exec(source)?.[1];
      if (locale) chunks[locale] = `${MINIAPP_BASE}/${file}`;
    }
    return chunks;
  } catch {
    return {};
  }
}

/**
 * An inline script that starts downloading the page's language before the app's code runs (the
 * app needs it for its first render, and would otherwise ask for it only after loading): the
 * locale prefix, else the Telegram user's language_code from the launch data, else the
 * browser's, as miniapp/src/main.tsx chooses.
 */
export function localePreloadScript(
  chunks: Partial<Record<string, string>>,
  devInitData?: string,
  nonce?: string,
): string {
  if (!chunks['en'] || !chunks['ru'] || !chunks['ua']) return '';
  return `<script${nonceAttribute(nonce)}>(function(m,d){try{var p=/^\\/(ru|ua)\\//.exec(location.pathname),l=p&&p[1];if(!l){var i=new URLSearchParams(location.hash.slice(1)).get('tgWebAppData')||d,u=i&&JSON.parse(new URLSearchParams(i).get('user')||'null'),c=((u&&u.language_code)||navigator.language||'').toLowerCase().split(/[-_]/)[0];l=c==='uk'?'ua':c==='ru'?'ru':'en'}var a=document.createElement('link');a.rel='modulepreload';a.href=m[l];document.head.appendChild(a)}catch(e){}})(${scriptJson(chunks)},${scriptJson(devInitData ?? '')})</script>`;
}

/** Whether development launches are on: by default outside production, never in it. */
export function devLaunchEnabled(env: WebEnv): boolean {
  const asked = env.MINIAPP_DEV_LAUNCH;
  if (env.NODE_ENV === 'production') {
    if (asked === 'true') throw new Error('MINIAPP_DEV_LAUNCH cannot be on in production');
    return false;
  }
  return asked !== 'false';
}

/** The base path a page request belongs to: /telegram-app, /ru/telegram-app or /ua/telegram-app. */
function basePathOf(pathname: string): string {
  const match = /^(\/(?:ru|ua))?\/telegram-app(?=\/|$)/.exec(pathname);
  return match ? match[0] : MINIAPP_BASE;
}

export interface MiniappOptions {
  app: Express;
  server: Server;
  env: WebEnv;
  publicEnv: PublicEnv;
  servingBuild: boolean;
  root: string;
  logger: Logger;
}

/** Mounts the mini-app's assets, pages and (in development) its launch signer. */
export async function mountMiniapp(options: MiniappOptions): Promise<void> {
  const { app, env, publicEnv } = options;
  const devLaunch = devLaunchEnabled(env);
  const appDir = path.join(options.root, '..', 'miniapp');
  const buildDir = env.MINIAPP_BUILD_DIR
    ? path.resolve(env.MINIAPP_BUILD_DIR)
    : path.join(appDir, 'dist');

  const token = env.TELEGRAM_BOT_TOKEN ?? DEV_TELEGRAM_BOT_TOKEN;
  // A development launch signs for whoever asks, so it must know who is staff: it never signs
  // for them (issue 19, point 2). Without the database it signs for no one.
  const database =
    devLaunch && env.DATABASE_URL
      ? createServicePool(env.DATABASE_URL, 2, (error) =>
          options.logger.warn({ err: error }, 'database connection lost'),
        )
      : undefined;
  const signDevLaunch = async (
    query: Record<string, unknown>,
  ): Promise<{ params: string } | { status: 403 | 503; reason: string }> => {
    const telegramId = devLaunchUserId(query);
    if (!database) {
      return { status: 503, reason: 'development launches need DATABASE_URL (who is staff)' };
    }
    try {
      if (await isStaffTelegramUser(database, telegramId)) {
        options.logger.warn({ telegramId }, 'development launch refused: a staff account');
        return {
          status: 403,
          reason: `Telegram user ${telegramId} is linked to a staff account; development launches never sign staff in (use the portal's sign-in)`,
        };
      }
    } catch (error) {
      options.logger.warn({ err: error }, 'development launch refused: staff check failed');
      return { status: 503, reason: 'could not check who is staff (the database did not answer)' };
    }
    return { params: devLaunchParams(query, token) };
  };
  // The services the app calls first: connecting to them starts with the page.
  const preconnect = [
    ...new Set([
      new URL(publicEnv.PUBLIC_GRAPHQL_URL).origin,
      new URL(publicEnv.PUBLIC_AUTH_URL).origin,
    ]),
  ]
    .map((origin) => `<link rel="preconnect" href="${origin}" crossorigin>`)
    .join('');

  /**
   * The page: the app's index.html with its settings, the exchange catalog (so the first screen
   * renders without waiting for a GraphQL round trip; without the engine, the app asks itself)
   * and, for a development launch, launch data signed for the address's query.
   */
  // Built: each language's chunk, to preload (development serves sources; nothing to preload).
  const chunks = options.servingBuild ? await localeChunks(buildDir) : {};
  const withSettings = async (template: string, req: Request, nonce: string | undefined) => {
    const html = withNonces(template, nonce);
    const catalog = await loadExchangeCatalog(publicEnv.PUBLIC_GRAPHQL_URL).catch(() => undefined);
    const launch = devLaunch ? await signDevLaunch(req.query) : undefined;
    const launchParams = launch && 'params' in launch ? launch.params : undefined;
    const settings = {
      devLaunch,
      basePath: basePathOf(req.path),
      ...(launchParams ? { devLaunchParams: launchParams } : {}),
      ...(catalog ? { catalog } : {}),
    };
    const devInitData = launchParams
      ? (new URLSearchParams(launchParams).get('tgWebAppData') ?? undefined)
      : undefined;
    return html.replace(
      ENV_MARKER,
      `${preconnect}${localePreloadScript(chunks, devInitData, nonce)}<script${nonceAttribute(nonce)}>window.__PUBLIC_ENV__=${scriptJson(publicEnv)};window.__MINIAPP__=${scriptJson(settings)};</script>`,
    );
  };

  if (devLaunch) {
    app.get(
      ['', '/ru', '/ua'].map((prefix) => `${prefix}${MINIAPP_BASE}/dev-launch`),
      async (req, res) => {
        const launch = await signDevLaunch(req.query);
        res.set('cache-control', 'no-store').type('text/plain');
        if ('params' in launch) res.send(launch.params);
        else res.status(launch.status).send(launch.reason);
      },
    );
  }

  let page: (req: Request, nonce: string | undefined) => Promise<string>;
  if (options.servingBuild) {
    const template = await readFile(path.join(buildDir, 'index.html'), 'utf8').catch(() => {
      options.logger.fatal({ buildDir }, 'no mini-app build: run `npm run build -w miniapp` first');
      process.exit(1);
    });
    app.use(
      `${MINIAPP_BASE}/assets`,
      express.static(path.join(buildDir, 'assets'), {
        immutable: true,
        maxAge: '1y',
        fallthrough: false,
      }),
    );
    page = (req, nonce) => withSettings(template, req, nonce);
  } else {
    const vite = await import('vite');
    const devServer = await vite.createServer({
      configFile: path.join(appDir, 'vite.config.ts'),
      appType: 'custom',
      server: {
        middlewareMode: true,
        hmr: { server: options.server, path: `${MINIAPP_BASE}/__hmr` },
        fs: devServerFs(path.dirname(options.root)),
      },
      logLevel: 'warn',
    });
    // Vite answers the app's modules and assets; pages fall through to the handler below.
    app.use((req, res, next) => {
      if (!req.path.startsWith(`${MINIAPP_BASE}/`) || isPageRequest(req)) return next();
      devServer.middlewares(req, res, next);
    });
    page = async (req, nonce) =>
      withSettings(
        await devServer.transformIndexHtml(
          req.originalUrl,
          await readFile(path.join(appDir, 'index.html'), 'utf8'),
        ),
        req,
        nonce,
      );
  }

  app.get(PAGE_PATHS, (req: Request, res: Response, next) => {
    if (!isPageRequest(req)) return next();
    page(req, cspNonce(res)).then(
      (html) => {
        res
          .status(200)
          .set('cache-control', 'no-cache')
          .set('referrer-policy', 'no-referrer')
          .type('html')
          .send(html);
      },
      (error: unknown) => next(error),
    );
  });
}

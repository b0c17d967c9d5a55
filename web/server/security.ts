/*
 * The web server's security headers (issue 11, hostile input): a Content-Security-Policy per
 * response with a fresh nonce for the inline scripts the server writes, framing allowed only
 * where Telegram (and in development the bot's sandbox) shows the mini-app, nosniff, a referrer
 * policy, HSTS in production, and in production every cookie the server sets is Secure.
 *
 * The portal's policy: scripts from this origin, the nonced inline scripts of the server render
 * (React Router's hydration data and React's streaming scripts, see web/app/entry.server.tsx) and, by hash,
 * the public-env script root.tsx writes; connections to this origin, the engine (HTTP and
 * WebSocket) and the auth service; the live-chat widget's origin when one is configured. Styles
 * may be inline (React writes style attributes into the server's HTML); scripts never are.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { PublicEnv } from '@app/shared/public-env';

import { HOLD_SUBMITS_SCRIPT } from '../app/components/forms/hold-submits-script.ts';

import type { WebEnv } from './env.ts';

/** The mini-app's pages and assets, in every locale. */
export const MINIAPP_PATH = /^(?:\/(?:ru|ua))?\/telegram-app(?:\/|$)/;

/**
 * Who may frame the mini-app: Telegram Web (web.telegram.org, its K and A clients) and
 * Telegram's other web hosts. Telegram's apps open it in a web view of their own, unframed.
 */
export const TELEGRAM_FRAME_ANCESTORS = ['https://web.telegram.org', 'https://*.telegram.org'];

/** One year, and the subdomains too: the site is HTTPS only once this is sent. */
export const HSTS = 'max-age=31536000; includeSubDomains';

export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** What the policies are made of; fixed per server (securityConfig). */
export interface SecurityConfig {
  production: boolean;
  /** Origins the pages call: the engine (http and ws) and the auth service. */
  connectOrigins: string[];
  /** The live-chat widget's origin (PUBLIC_LIVE_CHAT_SRC), when there is one. */
  liveChatOrigin: string | undefined;
  /** Inline scripts whose text the server knows in advance, as CSP hash sources. */
  portalScriptHashes: string[];
  /** Who may frame the mini-app: Telegram, and in development the bot's sandbox. */
  miniappFrameAncestors: string[];
}

/** A CSP hash source (`'sha256-…'`) for an inline script's exact text. */
export const scriptHash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The public-env script of web/app/root.tsx, exactly as it renders it. It carries no nonce,
 * so the policy allows its text by hash; its text depends only on the server's configuration.
 */
export const publicEnvScript = (publicEnv: PublicEnv): string =>
  `window.__PUBLIC_ENV__=${JSON.stringify(publicEnv).replace(/</g, '\\u003c')}`;

/** The WebSocket origin of an HTTP URL (`http` → `ws`, `https` → `wss`), as ws-client.ts dials. */
const websocketOrigin = (url: URL): string =>
  `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;

export function securityConfig(env: WebEnv, publicEnv: PublicEnv): SecurityConfig {
  const production = env.NODE_ENV === 'production';
  const graphql = new URL(publicEnv.PUBLIC_GRAPHQL_URL);
  const auth = new URL(publicEnv.PUBLIC_AUTH_URL);
  const liveChatOrigin = publicEnv.PUBLIC_LIVE_CHAT_SRC
    ? new URL(publicEnv.PUBLIC_LIVE_CHAT_SRC).origin
    : undefined;
  // The sandbox page (bot/src/sandbox) frames the mini-app; it is development only.
  const sandbox = production
    ? []
    : [`http://localhost:${env.BOT_PORT}`, `http://127.0.0.1:${env.BOT_PORT}`];
  return {
    production,
    connectOrigins: [...new Set([graphql.origin, websocketOrigin(graphql), auth.origin])],
    liveChatOrigin,
    portalScriptHashes: [scriptHash(publicEnvScript(publicEnv)), scriptHash(HOLD_SUBMITS_SCRIPT)],
    miniappFrameAncestors: [...TELEGRAM_FRAME_ANCESTORS, ...sandbox],
  };
}

/** A fresh nonce: 128 random bits. */
export const newNonce = (): string => randomBytes(16).toString('base64');

type Page = 'portal' | 'miniapp';

/** The Content-Security-Policy of one response. */
export function contentSecurityPolicy(page: Page, nonce: string, config: SecurityConfig): string {
  const chat = config.liveChatOrigin && page === 'portal' ? [config.liveChatOrigin] : [];
  const chatSockets = chat.map((origin) => origin.replace(/^http/, 'ws'));
  const directives: Array<[string, ...string[]]> = [
    ['default-src', "'self'"],
    [
      'script-src',
      "'self'",
      `'nonce-${nonce}'`,
      ...(page === 'portal' ? config.portalScriptHashes : []),
      ...chat,
    ],
    // Inline styles: React writes style attributes into the HTML, and Vite (development) and
    // Telegram's UI kit add style elements. Styles cannot run code.
    ['style-src', "'self'", "'unsafe-inline'", ...chat],
    ['img-src', "'self'", 'data:', ...chat],
    ['font-src', "'self'", 'data:', ...chat],
    ['connect-src', "'self'", ...config.connectOrigins, ...chat, ...chatSockets],
    ['frame-src', "'self'", ...chat],
    ['worker-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', ...(page === 'miniapp' ? config.miniappFrameAncestors : ["'none'"])],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** The nonce of this response's policy (undefined without securityHeaders: no policy). */
export function cspNonce(res: Response): string | undefined {
  const nonce: unknown = res.locals['cspNonce'];
  return typeof nonce === 'string' ? nonce : undefined;
}

/** `cookie` with the Secure attribute (kept as it is when it has it). */
export const withSecure = (cookie: string): string =>
  /;\s*secure\s*(?:;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`;

/** From here on every cookie this response sets is Secure, whoever sets it. */
function secureCookies(res: Response): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) => {
    if (name.toLowerCase() !== 'set-cookie') return setHeader(name, value);
    return setHeader(
      name,
      typeof value === 'string'
        ? withSecure(value)
        : Array.isArray(value)
          ? value.map((cookie: string) => withSecure(cookie))
          : value,
    );
  };
}

/**
 * The headers of every response: first in the chain, so pages, assets, errors and Vite's
 * development answers all carry them. The mini-app (MINIAPP_PATH) may be framed by Telegram;
 * everything else by nobody.
 */
export function securityHeaders(config: SecurityConfig): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = newNonce();
    res.locals['cspNonce'] = nonce;
    const page: Page = MINIAPP_PATH.test(req.path) ? 'miniapp' : 'portal';
    res.set({
      'content-security-policy': contentSecurityPolicy(page, nonce, config),
      'x-content-type-options': 'nosniff',
      'referrer-policy': REFERRER_POLICY,
    });
    // frame-ancestors is the rule; X-Frame-Options is for browsers without it. It has no form
    // that allows Telegram, so the mini-app goes without.
    if (page === 'portal') res.set('x-frame-options', 'DENY');
    if (config.production) {
      res.set('strict-transport-security', HSTS);
      secureCookies(res);
    }
    next();
  };
}

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { LOCALE_COOKIE_MAX_AGE } from '@app/shared/i18n';
import { createLogger } from '@app/shared/log';

import { REFERRAL_COOKIE_MAX_AGE } from '../app/auth/referral.ts';
import { HOLD_SUBMITS_SCRIPT } from '../app/components/forms/hold-submits-script.ts';
import { loader as rootLoader } from '../app/root.tsx';

import { createWebApp } from './app.ts';
import { getPublicEnv, WebEnv } from './env.ts';
import { mountMiniapp } from './miniapp.ts';
import {
  contentSecurityPolicy,
  HSTS,
  publicEnvScript,
  scriptHash,
  securityConfig,
  withSecure,
} from './security.ts';

/*
 * The web server's security headers (security.ts) per path and per NODE_ENV, on the server's
 * own Express application (createWebApp) with the built mini-app mounted and, for the portal,
 * the root route's real loader answering as React Router's handler does (its Set-Cookie
 * headers, one `res.append` each).
 */

const envOf = (values: Record<string, string>) => WebEnv.parse(values);

/** One policy's directives by name. */
function directives(policy: string | null): Record<string, string[]> {
  expect(policy).toBeTruthy();
  return Object.fromEntries(
    policy!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The `'nonce-…'` of a policy's script-src. */
const nonceOf = (policy: string | null): string =>
  /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? '')![1]!;

let server: Server | undefined;
let buildDir: string | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

/** The web server's app on a loopback port, with a mini-app build and the root loader. */
async function start(values: Record<string, string>): Promise<string> {
  buildDir = await mkdtemp(path.join(tmpdir(), 'security-build-'));
  await mkdir(path.join(buildDir, 'assets'));
  await writeFile(
    path.join(buildDir, 'index.html'),
    '<html><head><!--miniapp-env--></head><body><script type="module" src="/telegram-app/assets/index-abc.js"></script></body></html>',
  );
  await writeFile(path.join(buildDir, 'assets', 'index-abc.js'), 'console.log(1)');
  const env = envOf({
    // No engine: the mini-app page comes without the catalog.
    PUBLIC_GRAPHQL_URL: 'http://127.0.0.1:9/v1/graphql',
    ...values,
    MINIAPP_BUILD_DIR: buildDir,
  });
  const publicEnv = getPublicEnv(env, 'build-1');
  const app = createWebApp(env, publicEnv);
  await mountMiniapp({
    app,
    server: createServer(),
    env,
    publicEnv,
    servingBuild: true,
    root: path.join(import.meta.dirname, '..'),
    logger: createLogger('test', { level: 'silent' }),
  });
  // The portal: the root loader's headers, then a page (React Router's handler does the same).
  app.all('/{*splat}', (req, res) => {
    let headers = new Headers();
    try {
      const result = rootLoader({
        request: new Request(`http://localhost${req.originalUrl}`, {
          headers: { cookie: req.get('cookie') ?? '' },
        }),
        context: { publicEnv, cspNonce: undefined },
        params: {},
      } as never) as { init?: { headers?: Headers } };
      headers = result.init?.headers ?? headers;
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      headers = thrown.headers;
      res.status(thrown.status);
    }
    for (const [name, value] of headers.entries()) res.append(name, value);
    res.type('html').send('<!doctype html><p>page</p>');
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const PORTAL_PATHS = [
  '/',
  '/products/car-purchase',
  '/ru/transaction/3f2a9c4e-1b7d-4e2a-9c3b-8d1e5f6a7b8c',
  '/admin/transactions',
  '/ua/admin/support-requests',
  '/telegram-apps',
  '/assets/entry.client-abc.js',
  '/healthz',
];
const MINIAPP_PATHS = [
  '/telegram-app',
  '/telegram-app/transaction/3f2a9c4e-1b7d-4e2a-9c3b-8d1e5f6a7b8c',
  '/ru/telegram-app/transactions-history',
  '/ua/telegram-app',
  '/telegram-app/assets/index-abc.js',
];

describe('security headers', () => {
  it('on the portal: a nonce policy that frames nothing, nosniff, a referrer policy, DENY', async () => {
    const base = await start({
      BOT_PORT: '4321',
      PUBLIC_AUTH_URL: 'http://localhost:4000',
    });
    const nonces = new Set<string>();
    for (const pathname of PORTAL_PATHS) {
      const response = await fetch(`${base}${pathname}`, { redirect: 'manual' });
      const headers = response.headers;
      const policy = directives(headers.get('content-security-policy'));
      expect(policy['frame-ancestors'], pathname).toEqual(["'none'"]);
      expect(policy['default-src']).toEqual(["'self'"]);
      expect(policy['object-src']).toEqual(["'none'"]);
      expect(policy['base-uri']).toEqual(["'self'"]);
      expect(policy['script-src']).not.toContain("'unsafe-inline'");
      expect(policy['script-src']).not.toContain("'unsafe-eval'");
      expect(policy['connect-src']).toEqual([
        "'self'",
        'http://127.0.0.1:9',
        'ws://127.0.0.1:9',
        'http://localhost:4000',
      ]);
      nonces.add(nonceOf(headers.get('content-security-policy')));
      expect(headers.get('x-content-type-options'), pathname).toBe('nosniff');
      expect(headers.get('referrer-policy'), pathname).toBe('strict-origin-when-cross-origin');
      expect(headers.get('x-frame-options'), pathname).toBe('DENY');
      expect(headers.get('x-powered-by'), pathname).toBeNull();
      // Development: no HSTS (it would pin localhost to HTTPS).
      expect(headers.get('strict-transport-security'), pathname).toBeNull();
    }
    // A nonce of its own per response.
    expect(nonces.size).toBe(PORTAL_PATHS.length);
  });

  it('on the mini-app: framed by Telegram (and the bot sandbox in development), no DENY', async () => {
    const base = await start({ BOT_PORT: '4321' });
    for (const pathname of MINIAPP_PATHS) {
      const response = await fetch(`${base}${pathname}`);
      expect(response.status, pathname).toBe(200);
      const headers = response.headers;
      const policy = directives(headers.get('content-security-policy'));
      expect(policy['frame-ancestors'], pathname).toEqual([
        'https://web.telegram.org',
        'https://*.telegram.org',
        'http://localhost:4321',
        'http://127.0.0.1:4321',
      ]);
      expect(policy['script-src']).not.toContain("'unsafe-inline'");
      expect(headers.get('x-frame-options'), pathname).toBeNull();
      expect(headers.get('x-content-type-options'), pathname).toBe('nosniff');
      expect(headers.get('x-powered-by'), pathname).toBeNull();
      if (pathname.includes('/assets/')) continue;
      // The page's scripts, its own and the server's inline ones, all carry this response's nonce.
      const nonce = nonceOf(headers.get('content-security-policy'));
      const html = await response.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThanOrEqual(2);
      for (const tag of scripts) expect(tag).toContain(` nonce="${nonce}"`);
      // The mini-app keeps its stricter referrer policy: its addresses carry order ids.
      expect(headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('in production: HSTS everywhere, Telegram alone frames the mini-app', async () => {
    const base = await start({
      NODE_ENV: 'production',
      BOT_PORT: '4321',
      PUBLIC_SITE_URL: 'https://exchange.example',
    });
    for (const pathname of [...PORTAL_PATHS, ...MINIAPP_PATHS]) {
      const headers = (await fetch(`${base}${pathname}`, { redirect: 'manual' })).headers;
      expect(headers.get('strict-transport-security'), pathname).toBe(HSTS);
      expect(headers.get('x-content-type-options'), pathname).toBe('nosniff');
    }
    const miniapp = (await fetch(`${base}/telegram-app`)).headers;
    expect(directives(miniapp.get('content-security-policy'))['frame-ancestors']).toEqual([
      'https://web.telegram.org',
      'https://*.telegram.org',
    ]);
  });
});

describe('the policy', () => {
  const env = envOf({
    PUBLIC_GRAPHQL_URL: 'https://api.exchange.example/v1/graphql',
    PUBLIC_AUTH_URL: 'https://auth.exchange.example',
    PUBLIC_LIVE_CHAT_SRC: 'https://chat.example/widget.js',
  });
  const publicEnv = getPublicEnv(env, 'build-1');
  const config = securityConfig(env, publicEnv);

  it('allows the engine over HTTPS and WSS, the auth service and the live chat', () => {
    const policy = directives(contentSecurityPolicy('portal', 'abc', config));
    expect(policy['connect-src']).toEqual([
      "'self'",
      'https://api.exchange.example',
      'wss://api.exchange.example',
      'https://auth.exchange.example',
      'https://chat.example',
      'wss://chat.example',
    ]);
    expect(policy['script-src']).toEqual([
      "'self'",
      "'nonce-abc'",
      scriptHash(publicEnvScript(publicEnv)),
      // The script that holds a form's submit until hydration (decision 047).
      scriptHash(HOLD_SUBMITS_SCRIPT),
      'https://chat.example',
    ]);
    expect(policy['frame-src']).toEqual(["'self'", 'https://chat.example']);
    // The widget is the portal's: the mini-app loads nothing from it.
    const miniapp = directives(contentSecurityPolicy('miniapp', 'abc', config));
    expect(miniapp['script-src']).toEqual(["'self'", "'nonce-abc'"]);
  });

  it('allows the public-env script of root.tsx by the hash of its exact text', () => {
    const text = publicEnvScript({ ...publicEnv, PUBLIC_SITE_URL: 'https://x.example/</script>' });
    expect(text).not.toContain('</script>');
    expect(text.startsWith('window.__PUBLIC_ENV__={')).toBe(true);
    // CSP's hash: SHA-256 of the script's UTF-8 text, base64.
    expect(scriptHash('alert(1)')).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });
});

describe('cookies', () => {
  /** The Set-Cookie headers of one answer, by cookie name. */
  async function cookiesOf(url: string): Promise<Record<string, string>> {
    const response = await fetch(url, { redirect: 'manual' });
    return Object.fromEntries(
      response.headers.getSetCookie().map((cookie) => [cookie.split('=')[0]!, cookie]),
    );
  }

  it('referral_code lives 30 days and locale 365, both SameSite=Lax, not Secure in development', async () => {
    expect(REFERRAL_COOKIE_MAX_AGE).toBe(2_592_000);
    expect(LOCALE_COOKIE_MAX_AGE).toBe(31_536_000);
    const base = await start({});
    const cookies = await cookiesOf(`${base}/ru/?ref=alice42`);
    expect(cookies['referral_code']).toBe(
      'referral_code=alice42; Max-Age=2592000; Path=/; SameSite=Lax',
    );
    expect(cookies['locale']).toBe('locale=ru; Max-Age=31536000; Path=/; SameSite=Lax');
    // `?lang=` on an unprefixed page remembers the choice too (and redirects to its prefix).
    const chosen = await cookiesOf(`${base}/products/car-purchase?lang=ua`);
    expect(chosen['locale']).toBe('locale=ua; Max-Age=31536000; Path=/; SameSite=Lax');
  });

  it('are Secure in production, whoever sets them', async () => {
    const base = await start({ NODE_ENV: 'production', PUBLIC_SITE_URL: 'https://x.example' });
    const cookies = await cookiesOf(`${base}/ua/?ref=bob1234`);
    expect(cookies['referral_code']).toBe(
      'referral_code=bob1234; Max-Age=2592000; Path=/; SameSite=Lax; Secure',
    );
    expect(cookies['locale']).toBe('locale=ua; Max-Age=31536000; Path=/; SameSite=Lax; Secure');
    const redirected = await cookiesOf(`${base}/?lang=ru&ref=carol99`);
    expect(Object.values(redirected)).toHaveLength(2);
    for (const cookie of Object.values(redirected)) expect(cookie).toMatch(/; Secure$/);
  });

  it('Secure is added once', () => {
    expect(withSecure('a=1; Path=/')).toBe('a=1; Path=/; Secure');
    expect(withSecure('a=1; Secure; Path=/')).toBe('a=1; Secure; Path=/');
    expect(withSecure('a=1; Path=/; secure')).toBe('a=1; Path=/; secure');
  });
});

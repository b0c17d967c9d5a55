import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';

import { validate } from '@telegram-apps/init-data-node';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_MIGRATIONS_DIR, migrateUp } from '@app/engine/database';
import { DEV_TELEGRAM_BOT_TOKEN } from '@app/shared/env';
import { createLogger } from '@app/shared/log';
import { getPublicEnv, WebEnv } from '@app/web/server/env';
import {
  devLaunchEnabled,
  devLaunchParams,
  localePreloadScript,
  mountMiniapp,
  TELEGRAM_THEMES,
} from '@app/web/server/miniapp';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

const envOf = (values: Record<string, string>) => WebEnv.parse(values);

describe('development launches', () => {
  it('are on by default outside production, off in it, and cannot be forced on there', () => {
    expect(devLaunchEnabled(envOf({}))).toBe(true);
    expect(devLaunchEnabled(envOf({ MINIAPP_DEV_LAUNCH: 'false' }))).toBe(false);
    expect(devLaunchEnabled(envOf({ NODE_ENV: 'production' }))).toBe(false);
    expect(() =>
      devLaunchEnabled(envOf({ NODE_ENV: 'production', MINIAPP_DEV_LAUNCH: 'true' })),
    ).toThrow(/production/);
  });

  it('sign launch data that Telegram’s check accepts, with the chosen user, theme and link', () => {
    const params = new URLSearchParams(
      devLaunchParams(
        { user: '4242', lang: 'uk', theme: 'light', startapp: 'pair_btc-to-xmr__ref_alice' },
        DEV_TELEGRAM_BOT_TOKEN,
      ),
    );
    const initData = params.get('tgWebAppData')!;
    expect(() => validate(initData, DEV_TELEGRAM_BOT_TOKEN, { expiresIn: 60 })).not.toThrow();
    expect(() => validate(initData, '123456:another-bot-token-000000000000000')).toThrow();
    const fields = new URLSearchParams(initData);
    expect(JSON.parse(fields.get('user')!)).toMatchObject({ id: 4242, language_code: 'uk' });
    expect(fields.get('start_param')).toBe('pair_btc-to-xmr__ref_alice');
    expect(params.get('tgWebAppStartParam')).toBe('pair_btc-to-xmr__ref_alice');
    expect(JSON.parse(params.get('tgWebAppThemeParams')!)).toEqual(TELEGRAM_THEMES.light);
    expect(params.get('tgWebAppPlatform')).toBe('tdesktop');
  });

  it('leave out a deep link outside Telegram’s alphabet and fall back to the default user', () => {
    const params = new URLSearchParams(
      devLaunchParams({ user: '-1', startapp: 'a b<script>' }, DEV_TELEGRAM_BOT_TOKEN),
    );
    const fields = new URLSearchParams(params.get('tgWebAppData')!);
    expect(fields.get('start_param')).toBeNull();
    expect(params.get('tgWebAppStartParam')).toBeNull();
    expect(JSON.parse(fields.get('user')!)).toMatchObject({ id: 100000001 });
  });
});

describe('serving the built mini-app', () => {
  let server: Server | undefined;
  let buildDir: string | undefined;
  // Development launches ask the database who is staff (they never sign for staff).
  let db: TestDatabase;
  beforeAll(async () => {
    db = await databaseTargets[0]!.create();
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
  });
  afterAll(async () => {
    await db?.dispose();
  });
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  async function start(values: Record<string, string>): Promise<string> {
    buildDir = await mkdtemp(path.join(tmpdir(), 'miniapp-build-'));
    await mkdir(path.join(buildDir, 'assets'));
    await writeFile(
      path.join(buildDir, 'index.html'),
      '<html><head><!--miniapp-env--></head><body></body></html>',
    );
    await writeFile(path.join(buildDir, 'assets', 'index-abc.js'), 'console.log(1)');
    const env = envOf({ ...values, MINIAPP_BUILD_DIR: buildDir });
    const app = express();
    server = createServer(app);
    await mountMiniapp({
      app,
      server,
      env,
      publicEnv: getPublicEnv(env, 'build-1'),
      servingBuild: true,
      root: path.join(import.meta.dirname, '../../../web'),
      logger: createLogger('test', { level: 'silent' }),
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** The settings the page hands the app (`window.__MINIAPP__`). */
  const settingsOf = (html: string) =>
    JSON.parse(/window\.__MINIAPP__=(\{.*?\});<\/script>/.exec(html)![1]!) as {
      devLaunch: boolean;
      basePath: string;
      devLaunchParams?: string;
      catalog?: { currencies: Array<{ code: string }>; directions: Record<string, string[]> };
    };

  it('answers every app path in every locale with the page and its settings', async () => {
    const base = await start({
      DATABASE_URL: db.url,
      // No engine there: the page comes without the catalog, and the app asks for it itself.
      PUBLIC_GRAPHQL_URL: 'http://127.0.0.1:9/v1/graphql',
      PUBLIC_LIVE_CHAT_GLOBAL: '</script><script>alert(1)</script>',
    });
    for (const [pathname, basePath] of [
      ['/telegram-app?user=4242&lang=uk', '/telegram-app'],
      ['/telegram-app/transaction/3f2a9c4e-1b7d-4e2a-9c3b-8d1e5f6a7b8c', '/telegram-app'],
      ['/ru/telegram-app/transactions-history', '/ru/telegram-app'],
      ['/ua/telegram-app', '/ua/telegram-app'],
    ] as const) {
      const response = await fetch(`${base}${pathname}`);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      const settings = settingsOf(html);
      expect(settings).toMatchObject({ devLaunch: true, basePath });
      expect(settings.catalog).toBeUndefined();
      // Launch data signed for the page's own query, as Telegram would hand it over.
      const launch = new URLSearchParams(settings.devLaunchParams);
      expect(() => validate(launch.get('tgWebAppData')!, DEV_TELEGRAM_BOT_TOKEN)).not.toThrow();
      // Settings cannot end the script element they are written into.
      expect(html).not.toContain('<script>alert(1)');
      expect(html).toContain('<link rel="preconnect" href="http://127.0.0.1:9" crossorigin>');
      expect(html).not.toContain('<!--miniapp-env-->');
    }
    const home = settingsOf(await (await fetch(`${base}/telegram-app?user=4242&lang=uk`)).text());
    const user = new URLSearchParams(
      new URLSearchParams(home.devLaunchParams).get('tgWebAppData')!,
    ).get('user')!;
    expect(JSON.parse(user)).toMatchObject({ id: 4242, language_code: 'uk' });

    const asset = await fetch(`${base}/telegram-app/assets/index-abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${base}/telegram-app/assets/missing.js`)).status).toBe(404);
  });

  it('hands the app the exchange catalog, so its first screen needs no GraphQL round trip', async () => {
    const engine = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          data: {
            currencies: [
              {
                code: 'BTC',
                symbol: 'BTC',
                name: 'Bitcoin',
                kind: 'crypto',
                network: null,
                precision: 8,
                min_amount: '0.0005',
                max_amount: '5',
              },
              {
                code: 'XMR',
                symbol: 'XMR',
                name: 'Monero',
                kind: 'crypto',
                network: null,
                precision: 8,
                min_amount: '0.1',
                max_amount: '500',
              },
            ],
            exchange_directions: [{ from_currency: 'BTC', to_currency: 'XMR' }],
          },
        }),
      );
    });
    await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
    try {
      const port = (engine.address() as AddressInfo).port;
      const base = await start({ PUBLIC_GRAPHQL_URL: `http://127.0.0.1:${port}/v1/graphql` });
      const settings = settingsOf(await (await fetch(`${base}/telegram-app`)).text());
      expect(settings.catalog?.currencies.map((currency) => currency.code)).toEqual(['BTC', 'XMR']);
      expect(settings.catalog?.directions).toEqual({ BTC: ['XMR'] });
    } finally {
      await new Promise((resolve) => engine.close(resolve));
    }
  });

  it('signs development launches for no one without the database (it cannot tell staff)', async () => {
    const base = await start({ PUBLIC_GRAPHQL_URL: 'http://127.0.0.1:9/v1/graphql' });
    const launch = await fetch(`${base}/telegram-app/dev-launch?user=4242`);
    expect(launch.status).toBe(503);
    expect(await launch.text()).not.toContain('tgWebAppData');
    const settings = settingsOf(await (await fetch(`${base}/telegram-app?user=4242`)).text());
    expect(settings.devLaunchParams).toBeUndefined();
  });

  it('offers no development launch in production', async () => {
    const base = await start({
      NODE_ENV: 'production',
      PUBLIC_SITE_URL: 'https://exchange.example',
    });
    // The path is just another page of the app: no signed launch data comes back.
    const answer = await (await fetch(`${base}/telegram-app/dev-launch?user=1`)).text();
    expect(answer).not.toContain('tgWebAppData');
    expect(await (await fetch(`${base}/telegram-app`)).text()).toContain('"devLaunch":false');
  });
});

describe("preloading the page's language", () => {
  const chunks = { en: '/a/en.js', ru: '/a/ru.js', ua: '/a/ua.js' };

  /** Runs the inline script against a page at `url` and returns what it preloaded. */
  function preloaded(url: string, options: { devInitData?: string; browser?: string } = {}) {
    const html = localePreloadScript(chunks, options.devInitData);
    const code = /<script>(.*)<\/script>/.exec(html)![1]!;
    const links: Array<{ rel: string; href: string }> = [];
    const document = {
      createElement: () => ({ rel: '', href: '' }),
      head: { appendChild: (link: { rel: string; href: string }) => links.push(link) },
    };
    const location = new URL(url);
    // The page's globals, in a context of their own (what a browser gives the script).
    runInNewContext(code, {
      location,
      navigator: { language: options.browser ?? 'en-US' },
      document,
      URLSearchParams,
    });
    return links.map((link) => `${link.rel} ${link.href}`);
  }
  const launchHash = (languageCode: string) =>
    `#tgWebAppData=${encodeURIComponent(
      new URLSearchParams({
        user: JSON.stringify({ id: 1, language_code: languageCode }),
      }).toString(),
    )}`;

  it('follows the prefix, then Telegram’s language, then the browser’s', () => {
    expect(preloaded('http://x/ru/telegram-app/transactions-history')).toEqual([
      'modulepreload /a/ru.js',
    ]);
    expect(preloaded(`http://x/telegram-app${launchHash('uk')}`)).toEqual([
      'modulepreload /a/ua.js',
    ]);
    expect(preloaded(`http://x/telegram-app${launchHash('de')}`)).toEqual([
      'modulepreload /a/en.js',
    ]);
    expect(preloaded('http://x/telegram-app', { browser: 'ru-RU' })).toEqual([
      'modulepreload /a/ru.js',
    ]);
    const devInitData = new URLSearchParams({
      user: JSON.stringify({ id: 2, language_code: 'ru' }),
    }).toString();
    expect(preloaded('http://x/telegram-app', { devInitData })).toEqual(['modulepreload /a/ru.js']);
  });

  it('is left out when the build has no manifest', () => {
    expect(localePreloadScript({})).toBe('');
  });
});

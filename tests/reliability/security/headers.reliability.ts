import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';

import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, spawnTs, type Spawned } from '../../support/processes.ts';
import { recordFigures } from '../figures.ts';

import { ADMIN, Api, uniqueEmail } from './api.ts';
import { hydrated, launchBrowser, signInScript, watchedPage, type WatchedPage } from './browser.ts';
import { startRawMailbox, type RawMailbox } from './mail.ts';
import { portsAt, ROOT, startStack, waitHealthy, type Stack } from './stack.ts';

/*
 * Security headers in a real browser (issue 11, hostile input): the whole stack on ports of its
 * own with the production builds, and Debian's Chromium loading the home page, a product page,
 * an order's page, the staff console and the mini-app with zero Content-Security-Policy
 * violations while they still do their work (the widget quotes, the order page follows staff
 * live over WebSocket, the queue lists the order, the mini-app quotes). Framing: the mini-app
 * inside the bot sandbox's origin loads, anywhere else it and the portal are refused. A second
 * web server in production mode shows HSTS and Secure cookies; the auth service's token
 * answers are nosniff, no-store, and its optional access-token cookie has the spec's flags.
 */

const OFFSET = 8000;

let stack: Stack;
let mailbox: RawMailbox;
let browser: Browser;
let api: Api;
let production: Spawned | undefined;
let productionUrl: string;
const pagesChecked: Record<string, { violations: number; errors: number }> = {};
let startMs = 0;

beforeAll(async () => {
  mailbox = await startRawMailbox(portsAt(OFFSET).smtp);
  const started = Date.now();
  stack = await startStack({ offset: OFFSET, env: { AUTH_ACCESS_TOKEN_COOKIE: 'true' } });
  startMs = Date.now() - started;
  api = new Api(stack);
  browser = await launchBrowser();
  // The same build served as production serves it, beside the stack, against its services.
  const port = stack.ports.web + 9;
  productionUrl = `http://localhost:${port}`;
  production = spawnTs('server/main.ts', [], {
    cwd: path.join(ROOT, 'web'),
    env: {
      ...process.env,
      ...stack.serviceEnv,
      NODE_ENV: 'production',
      WEB_PORT: String(port),
      PUBLIC_SITE_URL: productionUrl,
    },
  });
  await waitHealthy(`${productionUrl}/healthz`, production);
});

afterAll(async () => {
  recordFigures({
    check: 'security-headers',
    figures: {},
    // The start includes the launcher's production builds when they were stale.
    details: { pages: pagesChecked, stack_start_ms: startMs },
  });
  production?.child.kill('SIGTERM');
  await production?.exited;
  await browser?.close();
  await stack?.stop();
  await mailbox?.close();
});

/** A page in a fresh context; after `use`, no CSP violation and no console error. */
async function checkPage(
  name: string,
  use: (watched: WatchedPage, context: BrowserContext) => Promise<void>,
  options: { initScripts?: string[]; viewport?: { width: number; height: number } } = {},
): Promise<void> {
  const context = await browser.newContext({
    baseURL: stack.webUrl,
    ...(options.viewport ? { viewport: options.viewport } : {}),
  });
  try {
    const watched = await watchedPage(context, options.initScripts);
    await use(watched, context);
    const violations = await watched.violations();
    pagesChecked[name] = { violations: violations.length, errors: watched.errors.length };
    expect(violations, `${name}: CSP violations`).toEqual([]);
    expect(watched.errors, `${name}: console errors`).toEqual([]);
  } finally {
    await context.close();
  }
}

describe('the portal and the mini-app under their policies', () => {
  it('the home page quotes in its widget', async () => {
    await checkPage('home', async ({ page }) => {
      const response = await page.goto('/');
      expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await hydrated(page);
      await page.getByLabel('You Send').fill('0.05');
      await expect
        .poll(() => page.getByLabel('You Get').inputValue(), { timeout: 15_000 })
        .toMatch(/^\d+(\.\d+)?$/);
      await page.getByRole('button', { name: 'Exchange', exact: true }).waitFor();
    });
  });

  it('a product page and the login page render and hydrate', async () => {
    await checkPage('product page', async ({ page }) => {
      await page.goto('/products/car-purchase');
      await hydrated(page);
      await page.getByRole('heading', { level: 1 }).waitFor();
    });
    await checkPage('login', async ({ page }) => {
      await page.goto('/login');
      await hydrated(page);
      await page.getByLabel('Email', { exact: true }).waitFor();
    });
  });

  it("an order's page follows the operator live", async () => {
    const email = uniqueEmail('csp');
    const tokens = await api.register(email);
    const order = await api.createOrder(tokens, {
      email,
      fullName: 'Vera Policy',
      reason: 'Savings',
    });
    const id = order.data!.createExchange.id;
    await checkPage(
      'transaction',
      async ({ page }) => {
        await page.goto(`/transaction/${id}`);
        await hydrated(page);
        await page.getByText('Waiting for operator').first().waitFor();
        await api.staff.supply(id);
        // Over the engine's WebSocket (connect-src ws:), without a reload.
        await page.getByText('Waiting for payment').first().waitFor({ timeout: 20_000 });
      },
      { initScripts: [signInScript(tokens)] },
    );
    await checkPage(
      'history',
      async ({ page }) => {
        await page.goto('/transactions-history');
        await hydrated(page);
        await page.getByText('0.05 BTC').first().waitFor();
      },
      { initScripts: [signInScript(tokens)] },
    );
  });

  it('the staff console lists the queue', async () => {
    const email = uniqueEmail('csp-queue');
    const tokens = await api.register(email);
    await api.createOrder(tokens, { email, fullName: 'Queue Policy', reason: 'Savings' });
    const admin = await api.login(ADMIN.email, ADMIN.password);
    await checkPage(
      'admin',
      async ({ page }) => {
        await page.goto('/admin/transactions');
        await hydrated(page);
        await page.getByText(email).first().waitFor({ timeout: 20_000 });
        await page.goto('/admin/support-requests');
        await hydrated(page);
        await page.getByRole('heading', { level: 1 }).waitFor();
      },
      { initScripts: [signInScript(admin)] },
    );
  });

  it('the mini-app signs in and quotes', async () => {
    await checkPage(
      'mini-app',
      async ({ page }) => {
        const response = await page.goto('/telegram-app?user=812345001');
        expect(response?.headers()['content-security-policy']).toContain(
          'frame-ancestors https://web.telegram.org https://*.telegram.org',
        );
        await page.getByRole('heading', { level: 1, name: 'Exchange' }).waitFor();
        await page.locator('#send-amount').fill('0.05');
        await page.getByText(/1 BTC ≈/).waitFor({ timeout: 15_000 });
      },
      { viewport: { width: 390, height: 844 } },
    );
  });
});

describe('the watch itself', () => {
  it('sees a refused script: an injected inline script and handler do not run', async () => {
    const context = await browser.newContext({ baseURL: stack.webUrl });
    try {
      const watched = await watchedPage(context);
      await watched.page.goto('/products/car-purchase');
      await hydrated(watched.page);
      await watched.page.evaluate(`(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__pwned = 1';
        document.body.append(script);
        const image = document.createElement('img');
        image.setAttribute('onerror', 'window.__pwned = 2');
        image.src = 'data:,x';
        document.body.append(image);
      })()`);
      await expect.poll(async () => (await watched.violations()).length).toBe(2);
      expect((await watched.violations()).map((violation) => violation.directive)).toEqual([
        'script-src-elem',
        'script-src-attr',
      ]);
      expect(await watched.page.evaluate('window.__pwned')).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});

describe('framing', () => {
  /** Messages in which Chromium reports a frame refused by frame-ancestors. */
  const refusals = (messages: string[]) =>
    messages.filter((text) =>
      /violates the following Content Security Policy directive: "frame-ancestors/.test(text),
    );

  it('the bot sandbox frames the mini-app; other sites frame neither it nor the portal', async () => {
    // The sandbox page as a developer uses it: /start, then the bot's button opens the app.
    const context = await browser.newContext();
    try {
      const watched = await watchedPage(context);
      const { page } = watched;
      await page.goto(`${stack.botUrl}/`);
      const userChat = page.getByRole('region', { name: 'You and the bot (Developer)' });
      await userChat.getByLabel('Message the bot, e.g. /start').fill('/start');
      await userChat.getByRole('button', { name: 'Send' }).click();
      await userChat.getByRole('button', { name: 'Open the exchange' }).last().click();
      const app = page.frameLocator('#web-app');
      await app.locator('#send-amount').fill('0.012');
      await app.getByText(/1 BTC ≈/).waitFor({ timeout: 20_000 });
      expect(await watched.violations()).toEqual([]);
      expect(watched.errors).toEqual([]);
      pagesChecked['mini-app in the bot sandbox'] = { violations: 0, errors: 0 };

      // Production has no sandbox: its mini-app refuses the sandbox's origin.
      await page.evaluate(
        `document.getElementById('web-app').src = ${JSON.stringify(`${productionUrl}/telegram-app`)}`,
      );
      await expect.poll(() => refusals(watched.errors).length, { timeout: 15_000 }).toBe(1);
      expect(refusals(watched.errors)[0]).toContain(
        `Framing '${productionUrl}/' violates the following Content Security Policy directive: "frame-ancestors https://web.telegram.org https://*.telegram.org"`,
      );
    } finally {
      await context.close();
    }

    // Another site (a local one: Chromium keeps public pages from framing local ones anyway).
    const port = await freePort();
    const framer = createServer((req, res) => {
      const targets = new URL(req.url ?? '/', 'http://x').searchParams.getAll('src');
      res.setHeader('content-type', 'text/html');
      res.end(targets.map((src) => `<iframe src="${src}"></iframe>`).join(''));
    });
    await new Promise<void>((resolve) => framer.listen(port, '127.0.0.1', resolve));
    const elsewhere = await browser.newContext();
    try {
      const page = await elsewhere.newPage();
      const messages: string[] = [];
      page.on('console', (message) => messages.push(message.text()));
      const query = new URLSearchParams([
        ['src', `${stack.webUrl}/telegram-app?user=812345003`],
        ['src', `${stack.webUrl}/`],
        ['src', `${stack.webUrl}/admin/transactions`],
      ]);
      await page.goto(`http://127.0.0.1:${port}/?${query.toString()}`);
      await expect.poll(() => refusals(messages).length, { timeout: 15_000 }).toBe(3);
      const text = refusals(messages).join('\n');
      expect(text).toContain(`"frame-ancestors 'none'"`);
      expect(text).toContain('"frame-ancestors https://web.telegram.org https://*.telegram.org');
    } finally {
      await elsewhere.close();
      await new Promise((resolve) => framer.close(resolve));
    }
  });
});

describe('headers of every kind of answer', () => {
  it('nosniff everywhere, no X-Powered-By, DENY except on the mini-app, no HSTS in development', async () => {
    const home = await (await fetch(`${stack.webUrl}/`)).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(home)![0];
    const answers: Array<[string, boolean]> = [
      ['/', false],
      ['/products/car-purchase', false],
      ['/ru/transactions-history', false],
      ['/admin/transactions', false],
      ['/no-such-page', false],
      [asset, false],
      ['/build.json', false],
      ['/healthz', false],
      ['/favicon-32.png', false],
      ['/telegram-app', true],
      ['/ua/telegram-app/transactions-history', true],
    ];
    for (const [pathname, miniapp] of answers) {
      const response = await fetch(`${stack.webUrl}${pathname}`, { redirect: 'manual' });
      const headers = response.headers;
      expect(headers.get('x-content-type-options'), pathname).toBe('nosniff');
      expect(headers.get('x-powered-by'), pathname).toBeNull();
      expect(headers.get('strict-transport-security'), pathname).toBeNull();
      expect(headers.get('content-security-policy'), pathname).toMatch(/script-src 'self' 'nonce-/);
      expect(headers.get('content-security-policy'), pathname).not.toMatch(
        /script-src[^;]*'unsafe-inline'/,
      );
      expect(headers.get('x-frame-options'), pathname).toBe(miniapp ? null : 'DENY');
      if (!miniapp) {
        expect(headers.get('referrer-policy'), pathname).toBe('strict-origin-when-cross-origin');
      }
    }
    // Every inline script of a page carries the response's nonce, or is one of the two the
    // policy names by hash: the public env, and the held-submit script (decision 047).
    const response = await fetch(`${stack.webUrl}/products/car-purchase`);
    const policy = response.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    const scripts = [...(await response.text()).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    const unnonced = scripts.filter(
      // JSON-LD is data, not a script the browser runs (CSP does not apply to it).
      ([, attributes]) =>
        !attributes!.includes(`nonce="${nonce}"`) && !attributes!.includes('application/ld+json'),
    );
    expect(unnonced).toHaveLength(2);
    for (const [, , text] of unnonced) {
      const hash = createHash('sha256').update(text!, 'utf8').digest('base64');
      expect(policy, text).toContain(`'sha256-${hash}'`);
    }
  });

  it('in production: HSTS, Secure cookies from the real pages, Telegram alone frames the app', async () => {
    const home = await fetch(`${productionUrl}/ru/?ref=alice42`, { redirect: 'manual' });
    expect(home.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
    const cookies = home.headers.getSetCookie();
    expect(cookies).toEqual([
      'referral_code=alice42; Max-Age=2592000; Path=/; SameSite=Lax; Secure',
      'locale=ru; Max-Age=31536000; Path=/; SameSite=Lax; Secure',
    ]);
    const miniapp = await fetch(`${productionUrl}/telegram-app`);
    expect(miniapp.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(miniapp.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://web.telegram.org https://*.telegram.org',
    );
    expect(miniapp.headers.get('content-security-policy')).not.toContain(String(stack.ports.bot));
    // The same pages in development: the same cookies without Secure (plain http on localhost).
    const development = await fetch(`${stack.webUrl}/ru/?ref=alice42`, { redirect: 'manual' });
    expect(development.headers.getSetCookie()).toEqual([
      'referral_code=alice42; Max-Age=2592000; Path=/; SameSite=Lax',
      'locale=ru; Max-Age=31536000; Path=/; SameSite=Lax',
    ]);

    const context = await browser.newContext({ baseURL: productionUrl });
    try {
      const watched = await watchedPage(context);
      await watched.page.goto('/');
      await hydrated(watched.page);
      await watched.page.getByLabel('You Send').fill('0.05');
      await expect
        .poll(() => watched.page.getByLabel('You Get').inputValue(), { timeout: 15_000 })
        .toMatch(/^\d+(\.\d+)?$/);
      expect(await watched.violations()).toEqual([]);
      expect(watched.errors).toEqual([]);
      pagesChecked['home (production)'] = { violations: 0, errors: 0 };
    } finally {
      await context.close();
    }
  });

  it("the auth service's token answers: nosniff, no-store, the access cookie's flags", async () => {
    const email = uniqueEmail('cookie');
    const registered = await api.auth<{ refreshToken: string }>('/register', {
      email,
      password: 'Correct horse 1',
      confirmPassword: 'Correct horse 1',
    });
    const refreshed = await api.auth('/refresh_tokens', {
      refreshToken: registered.body.refreshToken,
    });
    const login = await api.auth('/login', { email, password: 'Correct horse 1' });
    for (const [name, answer] of [
      ['register', registered],
      ['refresh', refreshed],
      ['login', login],
    ] as const) {
      expect(answer.status, name).toBe(200);
      expect(answer.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(answer.headers.get('cache-control'), name).toBe('no-store');
      expect(answer.headers.get('x-powered-by'), name).toBeNull();
      const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('accessToken='));
      expect(cookie, name).toBeDefined();
      const attributes = cookie!
        .split(';')
        .slice(1)
        .map((part) => part.trim());
      expect(attributes, name).toEqual(
        expect.arrayContaining(['Max-Age=604800', 'Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']),
      );
    }
  });
});

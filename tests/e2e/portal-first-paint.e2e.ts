import { expect, hydrated, test } from './support.ts';

/*
 * What the first paint of a portal page needs and what it does not (issue 23,
 * docs/decisions/048-portal-first-paint.md), on the production build `npm start` serves: the
 * stylesheet is in the page, the scripts (which only hydrate it) are preloaded at low priority,
 * the page's own catalogs are among them instead of a round trip after the shell, and the icons
 * are PNG files.
 */

/** The `<link rel="modulepreload">` tags of a page, as written. */
const modulePreloads = (html: string): string[] =>
  html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];

const hrefOf = (tag: string): string => /href="([^"]+)"/.exec(tag)?.[1] ?? '';

test('the stylesheet is in the page and every script is preloaded at low priority', async ({
  request,
}) => {
  for (const path of [
    '/',
    '/ru/products/car-purchase',
    '/ua/create-transaction/btc-to-usdttrc20',
  ]) {
    const html = await (await request.get(path)).text();
    // The site's styles, inline; no stylesheet request before the first paint.
    const style = html.slice(html.indexOf('<style>'), html.indexOf('</style>'));
    expect(style, path).toContain('.field__label--required');
    expect(html, path).not.toMatch(/<link[^>]+rel="stylesheet"/);
    const preloads = modulePreloads(html);
    expect(preloads.length, path).toBeGreaterThan(3);
    for (const tag of preloads) expect(tag, path).toContain('fetchpriority="low"');
  }
});

for (const [prefix, locale, other] of [
  ['', 'en', 'ru'],
  ['/ru', 'ru', 'en'],
  ['/ua', 'ua', 'en'],
] as const) {
  test(`a ${locale} page preloads its own catalogs, which hydration then uses`, async ({
    page,
    request,
  }) => {
    const html = await (await request.get(`${prefix}/`)).text();
    const catalogs = modulePreloads(html)
      .map(hrefOf)
      .filter((href) => /\/assets\/(en|ru|ua)-[\w-]+\.js$/.test(href));
    expect(catalogs).toHaveLength(1);
    expect(catalogs[0]).toMatch(new RegExp(`/assets/${locale}-`));
    expect(catalogs[0]).not.toMatch(new RegExp(`/assets/${other}-`));

    const catalogRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === catalogs[0]) catalogRequests.push(request.url());
    });
    await page.goto(`${prefix}/`);
    await hydrated(page);
    // Fetched once, by the preload: the module import reuses it.
    expect(catalogRequests).toHaveLength(1);
    // It started with the other scripts, not once the shell had run.
    // (Strings: the tests compile without the DOM's types.)
    const timing = await page.evaluate<{ catalogStart?: number; shellEnd?: number }>(`(() => {
      const entries = performance.getEntriesByType('resource');
      const of = (test) => entries.find((entry) => test(new URL(entry.name).pathname));
      return {
        catalogStart: of((pathname) => pathname === ${JSON.stringify(catalogs[0])})?.startTime,
        shellEnd: of((pathname) => /^\\/assets\\/shell-[\\w-]+\\.js$/.test(pathname))?.responseEnd,
      };
    })()`);
    expect(timing.catalogStart).toBeDefined();
    expect(timing.catalogStart!).toBeLessThan(timing.shellEnd!);
    // The inline styles apply: the dark page, not the browser's white one.
    const background = await page.evaluate<string>(
      'getComputedStyle(document.body).backgroundColor',
    );
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    expect(background).not.toBe('rgb(255, 255, 255)');
  });
}

test('the icons are PNG files the server has', async ({ page, request }) => {
  await page.goto('/');
  for (const [selector, size] of [
    ['link[rel="icon"]', 32],
    ['link[rel="apple-touch-icon"]', 180],
  ] as const) {
    const href = await page.locator(selector).getAttribute('href');
    const response = await request.get(href!);
    expect(response.status(), selector).toBe(200);
    expect(response.headers()['content-type']).toBe('image/png');
    const png = await response.body();
    // The PNG header's width and height (IHDR).
    expect([png.readUInt32BE(16), png.readUInt32BE(20)], selector).toEqual([size, size]);
  }
});

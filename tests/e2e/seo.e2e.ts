import { PRODUCT_SLUGS } from '@app/web/content/slugs';

import { WEB_URL } from './stack.ts';
import { expect, hydrated, test } from './support.ts';

/*
 * Search engines and link previews (issue 23, docs/decisions/043-search-engines.md), over HTTP
 * from the running stack: robots.txt and sitemap.xml as files (types, content, every sitemap URL
 * answering 200 with its alternates), and a product page's meta tags and FAQ structured data in
 * each language, matching what the page shows.
 */

interface SitemapEntry {
  loc: string;
  alternates: Array<{ rel: string | null; hreflang: string | null; href: string | null }>;
}

const LANGUAGES = [
  { prefix: '', ogLocale: 'en_US', alternates: ['ru_RU', 'uk_UA'] },
  { prefix: '/ru', ogLocale: 'ru_RU', alternates: ['en_US', 'uk_UA'] },
  { prefix: '/ua', ogLocale: 'uk_UA', alternates: ['en_US', 'ru_RU'] },
] as const;

test('robots.txt keeps crawlers out of user and staff pages and names the sitemap', async ({
  request,
}) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const robots = await response.text();
  const disallowed = robots
    .split('\n')
    .filter((line) => line.startsWith('Disallow: '))
    .map((line) => line.slice('Disallow: '.length));
  for (const path of ['/admin', '/settings', '/transaction/', '/order/', '/telegram-app'])
    for (const prefix of ['', '/ru', '/ua']) expect(disallowed).toContain(`${prefix}${path}`);
  expect(disallowed).toContain('/receipt-download/');
  expect(robots).toMatch(/^Allow: \/$/m);
  expect(robots).toContain(`Sitemap: ${WEB_URL}/sitemap.xml`);

  // The sitemap's address is the configured origin's, whatever Host the client claims.
  const forged = await request.get('/robots.txt', { headers: { host: 'evil.example' } });
  expect(await forged.text()).toContain(`Sitemap: ${WEB_URL}/sitemap.xml`);
});

test('sitemap.xml lists every public page in three languages, each answering 200', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/xml; charset=utf-8');
  const xml = await response.text();

  // Parsed by the browser's XML parser, namespaces and all: well-formed, and the protocol's shape.
  await page.goto('/contact');
  // The tests' program has no DOM types: the browser's side is plain JavaScript text.
  const entries = await page.evaluate<SitemapEntry[] | null>(`(() => {
    const doc = new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml');
    if (doc.getElementsByTagName('parsererror').length > 0) return null;
    const SITEMAP = 'http://www.sitemaps.org/schemas/sitemap/0.9';
    const XHTML = 'http://www.w3.org/1999/xhtml';
    const root = doc.documentElement;
    if (root.namespaceURI !== SITEMAP || root.localName !== 'urlset') return null;
    return [...doc.getElementsByTagNameNS(SITEMAP, 'url')].map((url) => ({
      loc: url.getElementsByTagNameNS(SITEMAP, 'loc')[0]?.textContent ?? '',
      alternates: [...url.getElementsByTagNameNS(XHTML, 'link')].map((link) => ({
        rel: link.getAttribute('rel'),
        hreflang: link.getAttribute('hreflang'),
        href: link.getAttribute('href'),
      })),
    }));
  })()`);
  expect(entries, 'a well-formed sitemap 0.9 urlset').not.toBeNull();
  const urls = entries!;
  const locs = urls.map((url) => url.loc);
  expect(new Set(locs).size).toBe(locs.length);
  for (const slug of PRODUCT_SLUGS)
    for (const prefix of ['', '/ru', '/ua'])
      expect(locs).toContain(`${WEB_URL}${prefix}/products/${slug}`);
  expect(locs).toContain(`${WEB_URL}/`);
  expect(locs).toContain(`${WEB_URL}/ua/for-partners/sepa-payment`);

  for (const { loc, alternates } of urls) {
    expect(loc.startsWith(`${WEB_URL}/`), loc).toBe(true);
    expect(alternates.map((link) => link.hreflang)).toEqual(['en', 'ru', 'uk', 'x-default']);
    expect(alternates.every((link) => link.rel === 'alternate')).toBe(true);
    // Every alternate is itself in the sitemap, and this URL is one of its own alternates.
    for (const { href } of alternates) expect(locs, `${loc} → ${href}`).toContain(href ?? '');
    expect(alternates.map((link) => link.href)).toContain(loc);
  }

  // As a crawler asks: no cookies and no Accept-Language (Playwright's request context keeps
  // the locale cookie a /ru page sets, after which an English URL redirects to /ru).
  for (const loc of locs) {
    const answer = await fetch(loc, { redirect: 'manual' });
    expect(answer.status, loc).toBe(200);
    expect(answer.headers.get('content-type'), loc).toContain('text/html');
    await answer.body?.cancel();
  }
});

for (const { prefix, ogLocale, alternates } of LANGUAGES) {
  test(`a product page carries link-preview tags and its FAQ as data (${ogLocale})`, async ({
    page,
    request,
  }) => {
    // A blocked script would also be a console error (support.ts); this names the directive.
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(
      `document.addEventListener('securitypolicyviolation', (event) =>
        window.reportViolation(event.violatedDirective + ' ' + event.blockedURI));`,
    );
    const path = `${prefix}/products/car-purchase`;
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await hydrated(page);

    const meta = async (key: string) => {
      const tags = page.locator(`head meta[property="${key}"], head meta[name="${key}"]`);
      return Promise.all((await tags.all()).map((tag) => tag.getAttribute('content')));
    };
    const title = await page.title();
    expect(await meta('og:title')).toEqual([title]);
    expect(await meta('og:description')).toEqual(await meta('description'));
    expect(await meta('og:url')).toEqual([`${WEB_URL}${path}`]);
    expect(await meta('og:locale')).toEqual([ogLocale]);
    expect(await meta('og:locale:alternate')).toEqual(alternates);
    expect(await meta('twitter:card')).toEqual(['summary_large_image']);
    const [image] = await meta('og:image');
    expect(image).toBe(`${WEB_URL}/og-image.png`);
    const png = await request.get(image!);
    expect(png.status()).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    // A PNG's IHDR: width and height, big-endian, at bytes 16 and 20.
    const bytes = await png.body();
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(await meta('og:image:width')).toEqual(['1200']);

    // The FAQ as schema.org data, the same questions and answers the page shows.
    const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(scripts).toHaveLength(1);
    const data = JSON.parse(scripts[0]!) as {
      '@type': string;
      mainEntity: Array<{ '@type': string; name: string; acceptedAnswer: { text: string } }>;
    };
    expect(data['@type']).toBe('FAQPage');
    const questions = await page.locator('.faq__item > summary').allTextContents();
    const answers = await page.locator('.faq__item > p').allTextContents();
    const shown = questions.map((question, index) => [question, answers[index]]);
    expect(shown.length).toBeGreaterThanOrEqual(4);
    expect(data.mainEntity.map((q) => [q.name, q.acceptedAnswer.text])).toEqual(shown);
    expect(data.mainEntity.every((q) => q['@type'] === 'Question')).toBe(true);

    // In the HTML as served, the data block cannot end the script early.
    const html = await (await request.get(path)).text();
    const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(block).toBeDefined();
    expect(block).not.toContain('<');
    expect(violations, 'CSP violations').toEqual([]);
  });
}

test('the home and a partner page carry link-preview tags in their language', async ({ page }) => {
  for (const [path, locale] of [
    ['/', 'en_US'],
    ['/ru', 'ru_RU'],
    ['/ua/for-partners/sepa-payment', 'uk_UA'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('head meta[property="og:locale"]')).toHaveAttribute(
      'content',
      locale,
    );
    await expect(page.locator('head meta[property="og:url"]')).toHaveAttribute(
      'content',
      `${WEB_URL}${path}`,
    );
    await expect(page.locator('head meta[property="og:image"]')).toHaveAttribute(
      'content',
      `${WEB_URL}/og-image.png`,
    );
    await expect(page.locator('head meta[name="twitter:card"]')).toHaveAttribute(
      'content',
      'summary_large_image',
    );
    await expect(page.locator('head meta[property="og:title"]')).toHaveAttribute(
      'content',
      await page.title(),
    );
  }
});

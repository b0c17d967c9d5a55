import { describe, expect, it } from 'vitest';

import { PARTNER_SLUGS, PRODUCT_SLUGS, RULE_SLUGS } from '#app/content/slugs.ts';

import { robotsTxt } from './robots.ts';
import { SITEMAP_PATHS, sitemapXml } from './sitemap.ts';
import { withSocialMeta } from './social-meta.ts';
import { escapeXml } from './xml.ts';

const SITE = 'https://exchange.example';

describe('escapeXml', () => {
  it('turns the five XML specials into entities, & first so nothing is escaped twice', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
    expect(escapeXml('&amp;')).toBe('&amp;amp;');
    expect(escapeXml('https://x.example/ru/rules')).toBe('https://x.example/ru/rules');
  });
});

describe('sitemapXml', () => {
  const xml = sitemapXml(SITE);
  const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => match[1]!);

  it('is a sitemap 0.9 urlset with the xhtml namespace', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset ')).toBe(true);
    expect(xml).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(xml.trimEnd().endsWith('</urlset>')).toBe(true);
  });

  it('lists every public page once per language, with absolute URLs', () => {
    expect(SITEMAP_PATHS).toHaveLength(
      PRODUCT_SLUGS.length + PARTNER_SLUGS.length + RULE_SLUGS.length + 4,
    );
    expect(urls).toHaveLength(SITEMAP_PATHS.length * 3);
    const locs = urls.map((url) => /<loc>(.*)<\/loc>/.exec(url)![1]!);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs).toContain(`${SITE}/`);
    expect(locs).toContain(`${SITE}/ru`);
    expect(locs).toContain(`${SITE}/ua/products/car-purchase`);
    expect(locs).toContain(`${SITE}/ru/for-partners/sepa-payment`);
    expect(locs).toContain(`${SITE}/ua/rules/ml-kyc`);
    for (const loc of locs) expect(loc.startsWith(`${SITE}/`)).toBe(true);
    expect(xml).not.toMatch(/login|sign-up|settings|admin|transaction/);
  });

  it('gives every URL the alternates of all three languages (Ukrainian as uk) and x-default', () => {
    for (const url of urls) {
      const links = [...url.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [
        m[1],
        m[2],
      ]);
      expect(links.map(([hreflang]) => hreflang)).toEqual(['en', 'ru', 'uk', 'x-default']);
      const loc = /<loc>(.*)<\/loc>/.exec(url)![1];
      // Each URL is one of its own alternates, and x-default is the English one.
      expect(links.map(([, href]) => href)).toContain(loc);
      expect(links[3]![1]).toBe(links[0]![1]);
    }
  });

  it('escapes what it writes: an origin with & or quotes stays well-formed', () => {
    const odd = sitemapXml(`https://a.example/?x=1&y="2"`, ['/rules']);
    expect(odd).toContain('<loc>https://a.example/?x=1&amp;y=&quot;2&quot;/rules</loc>');
    expect(odd).toContain('href="https://a.example/?x=1&amp;y=&quot;2&quot;/ru/rules"');
    expect(odd).not.toMatch(/&(?!amp;|quot;|lt;|gt;|apos;)/);
  });

  it('drops a trailing slash of the origin', () => {
    expect(sitemapXml(`${SITE}/`, ['/contact'])).toContain(`<loc>${SITE}/contact</loc>`);
  });
});

describe('robotsTxt', () => {
  const robots = robotsTxt(SITE);
  const disallowed = robots
    .split('\n')
    .filter((line) => line.startsWith('Disallow: '))
    .map((line) => line.slice('Disallow: '.length));

  it('keeps crawlers out of user and staff pages in every language', () => {
    for (const path of [
      '/admin',
      '/settings',
      '/transactions-history',
      '/transaction/',
      '/order/',
      '/affiliate-program',
      '/change-password/',
      '/telegram-app',
    ]) {
      expect(disallowed).toContain(path);
      expect(disallowed).toContain(`/ru${path}`);
      expect(disallowed).toContain(`/ua${path}`);
    }
    expect(disallowed).toContain('/receipt-download/');
  });

  it('leaves the public pages open and names the sitemap by absolute URL', () => {
    const blocks = (path: string) => disallowed.some((rule) => path.startsWith(rule));
    for (const path of ['/', '/ru', '/products/car-purchase', '/ua/rules', '/contact'])
      expect(blocks(path), path).toBe(false);
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Allow: \/$/m);
    expect(robots).toMatch(/^Sitemap: https:\/\/exchange\.example\/sitemap\.xml$/m);
    // The Allow line comes after the Disallow lines, for first-match crawlers.
    expect(robots.indexOf('Allow: /')).toBeGreaterThan(robots.lastIndexOf('Disallow:'));
  });
});

describe('withSocialMeta', () => {
  const matches = [{ id: 'root', data: { publicEnv: { PUBLIC_SITE_URL: SITE } } }];
  const base = [
    { title: 'Т' },
    { property: 'og:title', content: 'Т' },
    { property: 'og:locale', content: 'uk_UA' },
  ];

  it('adds the URL, the absolute image, the locales in Open Graph form and the card', () => {
    const meta = withSocialMeta(base, {
      location: { pathname: '/ua/products/car-purchase' },
      matches,
    });
    const value = (key: string) =>
      meta
        .filter((d) => ('property' in d ? d.property : 'name' in d ? d.name : '') === key)
        .map((d) => (d as { content: string }).content);
    expect(value('og:url')).toEqual([`${SITE}/ua/products/car-purchase`]);
    expect(value('og:image')).toEqual([`${SITE}/og-image.png`]);
    expect(value('og:image:width')).toEqual(['1200']);
    expect(value('og:image:height')).toEqual(['630']);
    expect(value('og:locale')).toEqual(['uk_UA']);
    expect(value('og:locale:alternate')).toEqual(['en_US', 'ru_RU']);
    expect(value('og:site_name')).toEqual(['Exchange']);
    expect(value('twitter:card')).toEqual(['summary_large_image']);
  });

  it('leaves a 404 meta (no og:title) alone', () => {
    const notFound = [{ title: 'Not found' }, { name: 'robots', content: 'noindex' }];
    expect(withSocialMeta(notFound, { location: { pathname: '/products/x' }, matches })).toBe(
      notFound,
    );
  });
});

import { DEFAULT_LOCALE, LOCALES, localizePath } from '@app/shared/i18n';

import { PARTNER_SLUGS, PRODUCT_SLUGS, RULE_SLUGS } from '#app/content/slugs.ts';

import { HREFLANG } from './locales.ts';
import { escapeXml } from './xml.ts';

/*
 * /sitemap.xml (issue 23, docs/decisions/043-search-engines.md): the public pages a search
 * engine should know, each in its three languages, in the sitemap protocol 0.9 with Google's
 * `xhtml:link` alternates. Pages left out on purpose: sign-in, sign-up and password reset (forms
 * with nothing to find; not disallowed, the header links them), `/create-transaction/<pair>`
 * (whether a pair exists depends on the live catalog, and a switched-off direction would put a
 * 404 in the sitemap; the footer links the pairs from every page) and every user or staff page
 * (robots.txt keeps crawlers out of those).
 */

/** The pages of spec section 2 that go into the sitemap, without a locale prefix. */
export const SITEMAP_PATHS: readonly string[] = [
  '/',
  ...PRODUCT_SLUGS.map((slug) => `/products/${slug}`),
  ...PARTNER_SLUGS.map((slug) => `/for-partners/${slug}`),
  '/rules',
  ...RULE_SLUGS.map((slug) => `/rules/${slug}`),
  '/contact',
  '/check-requisites',
];

/** `siteUrl` (an origin, no trailing slash) and a site path: the absolute URL. */
const absolute = (siteUrl: string, path: string): string => `${siteUrl.replace(/\/+$/, '')}${path}`;

/**
 * The sitemap document. Every language version is a `<url>` of its own carrying the alternates
 * of all three plus x-default (English), as Google asks: each URL names the whole set, itself
 * included.
 */
export function sitemapXml(siteUrl: string, paths: readonly string[] = SITEMAP_PATHS): string {
  const entries = paths.flatMap((path) => {
    const alternates = [
      ...LOCALES.map((locale) => ({
        hreflang: HREFLANG[locale],
        href: absolute(siteUrl, localizePath(path, locale)),
      })),
      { hreflang: 'x-default', href: absolute(siteUrl, localizePath(path, DEFAULT_LOCALE)) },
    ];
    const links = alternates
      .map(
        ({ hreflang, href }) =>
          `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`,
      )
      .join('\n');
    return LOCALES.map(
      (locale) =>
        `  <url>\n    <loc>${escapeXml(absolute(siteUrl, localizePath(path, locale)))}</loc>\n${links}\n  </url>`,
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

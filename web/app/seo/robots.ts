import { LOCALES, localizePath } from '@app/shared/i18n';

/*
 * /robots.txt (issue 23, docs/decisions/043-search-engines.md): crawlers may read the public
 * pages, not the user's and staff's (each in its three language forms), and learn where the
 * sitemap is. Robots rules match by prefix, so `/transaction/` keeps out every order page and its
 * receipt while `/transactions-history` is listed on its own. The pages themselves also say
 * noindex; robots.txt saves the crawl (and the engine the requests) of pages that only show a
 * sign-in form to a crawler.
 */

/** User and staff pages, without a locale prefix. */
export const PRIVATE_PATHS: readonly string[] = [
  '/admin',
  '/settings',
  '/transactions-history',
  '/transaction/',
  '/order/',
  '/affiliate-program',
  '/change-password/',
  '/telegram-app',
];

/** Addresses outside the locale routes: a receipt's download link (decision 036). */
const UNLOCALIZED_PRIVATE_PATHS: readonly string[] = ['/receipt-download/'];

export function robotsTxt(siteUrl: string): string {
  const disallowed = [
    ...PRIVATE_PATHS.flatMap((path) => LOCALES.map((locale) => localizePath(path, locale))),
    ...UNLOCALIZED_PRIVATE_PATHS,
  ];
  return [
    'User-agent: *',
    ...disallowed.map((path) => `Disallow: ${path}`),
    // Last: a crawler that takes the first matching line (not the longest) still keeps out.
    'Allow: /',
    '',
    `Sitemap: ${siteUrl.replace(/\/+$/, '')}/sitemap.xml`,
    '',
  ].join('\n');
}

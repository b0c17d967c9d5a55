import { sitemapXml } from '#app/seo/sitemap.ts';

import type { Route } from './+types/sitemap-xml';

/*
 * /sitemap.xml (issue 23): a file, in no locale. Its URLs are absolute on PUBLIC_SITE_URL
 * (web/server/env.ts), never on the request's Host header, which the client writes: a forged Host
 * must not put another site's addresses into a cached sitemap.
 */
export function loader({ context }: Route.LoaderArgs) {
  return new Response(sitemapXml(context.publicEnv.PUBLIC_SITE_URL), {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    },
  });
}

import { robotsTxt } from '#app/seo/robots.ts';

import type { Route } from './+types/robots-txt';

/*
 * /robots.txt (issue 23): a file, in no locale. The sitemap's address is built from
 * PUBLIC_SITE_URL (web/server/env.ts), never from the request's Host header, which the client
 * writes.
 */
export function loader({ context }: Route.LoaderArgs) {
  return new Response(robotsTxt(context.publicEnv.PUBLIC_SITE_URL), {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    },
  });
}

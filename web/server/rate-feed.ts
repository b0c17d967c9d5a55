/*
 * The public rate feed (issue 10): `/bestchange.xml`, BestChange's export file that exchange
 * monitors poll. The engine's `rateFeed` action builds it (hasura/actions/src/feeds); this asks
 * for it as a visitor (no token: role anonymous) at the GraphQL endpoint the server already
 * renders its pages from, and passes the XML on. BestChange wants `application/xml` in UTF-8
 * and recommends an ETag or Last-Modified: Express adds the ETag (and answers 304 to a poll that
 * has it), Last-Modified is the feed's own build time. The action keeps a built feed 30 s; the
 * response may be cached as long.
 */
import type { RequestHandler } from 'express';

import type { Logger } from '@app/shared/log';

export const RATE_FEED_PATH = '/bestchange.xml';

const RATE_FEED_QUERY = 'query RateFeed { rateFeed { xml generatedAt } }';
const TIMEOUT_MS = 10_000;
const CACHE_CONTROL = 'public, max-age=30';

interface RateFeedAnswer {
  data?: { rateFeed?: { xml?: unknown; generatedAt?: unknown } | null } | null;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

/** The feed from the engine, or an Error saying why not. */
async function fetchFeed(graphqlUrl: string): Promise<{ xml: string; generatedAt: string }> {
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: RATE_FEED_QUERY }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`the engine answered ${response.status}`);
  const body = (await response.json()) as RateFeedAnswer;
  const feed = body.data?.rateFeed;
  if (body.errors?.length || typeof feed?.xml !== 'string') {
    const error = body.errors?.[0];
    throw new Error(`rateFeed failed: ${error?.extensions?.code ?? ''} ${error?.message ?? ''}`);
  }
  return {
    xml: feed.xml,
    generatedAt: typeof feed.generatedAt === 'string' ? feed.generatedAt : '',
  };
}

/** `GET /bestchange.xml`: the feed, or 503 while it cannot be had. */
export function rateFeedHandler(
  graphqlUrl: string,
  options: { logger?: Pick<Logger, 'warn'> } = {},
): RequestHandler {
  return async (_req, res) => {
    try {
      const feed = await fetchFeed(graphqlUrl);
      const generatedAt = new Date(feed.generatedAt);
      res.set('content-type', 'application/xml; charset=utf-8');
      res.set('cache-control', CACHE_CONTROL);
      if (!Number.isNaN(generatedAt.getTime())) {
        res.set('last-modified', generatedAt.toUTCString());
      }
      res.send(feed.xml);
    } catch (error) {
      options.logger?.warn({ err: error }, 'rate feed unavailable');
      res
        .status(503)
        .set('cache-control', 'no-store')
        .type('text/plain')
        .send('The rate feed is unavailable at the moment.');
    }
  };
}

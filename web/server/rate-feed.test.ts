import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';

import { RATE_FEED_PATH, rateFeedHandler } from './rate-feed.ts';

const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rates>
  <item>
    <from>BTC</from>
    <to>USDTTRC20</to>
    <in>1</in>
    <out>64000.5</out>
    <amount>100000</amount>
    <minamount>0.0005</minamount>
    <maxamount>1.5</maxamount>
    <param>manual, floating</param>
  </item>
</rates>
`;
const GENERATED_AT = '2026-03-01T10:00:00.000Z';

describe('the public rate feed (/bestchange.xml)', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise((resolve) => {
            server.close(resolve);
            server.closeAllConnections();
          }),
      ),
    );
  });

  async function listen(server: Server): Promise<string> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** A stand-in engine: answers `answer` and records what it was asked. */
  async function engine(answer: (body: { query: string }) => [number, unknown]) {
    const requests: Array<{ headers: IncomingMessage['headers']; body: { query: string } }> = [];
    const url = await listen(
      createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => {
          const body = JSON.parse(text) as { query: string };
          requests.push({ headers: req.headers, body });
          const [status, json] = answer(body);
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        });
      }),
    );
    return { graphqlUrl: `${url}/v1/graphql`, requests };
  }

  /** The web server's route, as main.ts mounts it. */
  async function web(graphqlUrl: string): Promise<string> {
    const app = express();
    app.get(RATE_FEED_PATH, rateFeedHandler(graphqlUrl));
    return listen(createServer(app));
  }

  it('answers 200 with the engine’s XML, asked for as a visitor', async () => {
    const stub = await engine(() => [
      200,
      { data: { rateFeed: { xml: FEED, generatedAt: GENERATED_AT } } },
    ]);
    const base = await web(stub.graphqlUrl);

    const response = await fetch(`${base}/bestchange.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=30');
    expect(response.headers.get('last-modified')).toBe(new Date(GENERATED_AT).toUTCString());
    expect(await response.text()).toBe(FEED);

    // One GraphQL query for the feed, with no credentials: role anonymous.
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.body.query).toMatch(/rateFeed\s*\{\s*xml\b/);
    expect(stub.requests[0]!.headers['authorization']).toBeUndefined();
    expect(stub.requests[0]!.headers['x-hasura-role']).toBeUndefined();

    // A monitor that polls with the ETag it has gets 304 while the feed is the same.
    const etag = response.headers.get('etag');
    expect(etag).toBeTruthy();
    // (fetch() itself adds `cache-control: no-cache` to a conditional request unless told.)
    const again = await fetch(`${base}/bestchange.xml`, {
      headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
  });

  it('answers 503 without caching when the engine refuses or is away', async () => {
    const refusing = await engine(() => [
      200,
      { data: null, errors: [{ message: 'No levels', extensions: { code: 'unexpected' } }] },
    ]);
    for (const graphqlUrl of [refusing.graphqlUrl, 'http://127.0.0.1:9/v1/graphql']) {
      const base = await web(graphqlUrl);
      const response = await fetch(`${base}/bestchange.xml`);
      expect(response.status).toBe(503);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    }
  });
});

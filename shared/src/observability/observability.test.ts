import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { answerMetrics, observeRequest } from './http.ts';
import { createServiceMetrics } from './metrics.ts';
import { parseRequestId, requestIdFrom } from './request-id.ts';

describe('request ids', () => {
  it.each(['abc', 'obs-1:2.3_4', 'x'.repeat(128), '2f1c9d0e-6a41-4b7e-9a55-0c1d2e3f4a5b'])(
    'keeps a safe id %s',
    (id) => expect(parseRequestId(id)).toBe(id),
  );

  it.each(['', 'x'.repeat(129), 'a b', 'a"b', 'é', 'a\nb', '{"x":1}'])(
    'replaces an unsafe one (%j) by a new UUID',
    (id) => {
      expect(parseRequestId(id)).toBeUndefined();
      expect(requestIdFrom(id)).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    },
  );
});

describe('the access line and /metrics', () => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const metrics = createServiceMetrics('test');
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      observeRequest({ logger, metrics, routeOf: () => undefined }, request, response);
      if (request.url === '/metrics')
        void answerMetrics(metrics, 'a-token-of-16-chars', request, response);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('logs the id, the route and the status, never the raw path or query', async () => {
    const answer = await fetch(`${base}/order/secret-link-token?code=123456`, {
      headers: { 'x-request-id': 'req-1' },
    });
    expect(answer.headers.get('x-request-id')).toBe('req-1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const line = lines.find((entry) => entry['reqId'] === 'req-1');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', route: 'unmatched', status: 404 });
    expect(JSON.stringify(lines)).not.toContain('secret-link-token');
    expect(JSON.stringify(lines)).not.toContain('123456');
  });

  it('answers /metrics with the bearer only, and counts by route pattern', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect(
      (
        await fetch(`${base}/metrics`, {
          headers: { authorization: 'Bearer wrong-token-16-chars' },
        })
      ).status,
    ).toBe(404);
    const answer = await fetch(`${base}/metrics`, {
      headers: { authorization: 'Bearer a-token-of-16-chars' },
    });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toMatch(
      /http_requests_total\{method="GET",route="unmatched",status="4xx",service="test"\} [1-9]/,
    );
    expect(text).not.toContain('secret-link-token');
  });
});

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { KEEP_ALIVE_TIMEOUT_MS, keepIdleConnectionsOpen } from './index.ts';

describe('kept-alive connections of a service (issue 11)', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('ok'));
    keepIdleConnectionsOpen(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('stays open longer than a proxy keeps an idle connection, and says so', async () => {
    // Node's 5 s let a client reuse a connection just as the server dropped it: a reset.
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
      request({ port, host: '127.0.0.1', headers: { connection: 'keep-alive' } }, (response) => {
        response.resume();
        response.on('end', () => resolve(String(response.headers['keep-alive'])));
      })
        .on('error', reject)
        .end();
    });
    expect(keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
  });
});

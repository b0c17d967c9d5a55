import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GraphQLHandler } from './graphql-handler.ts';
import { createHttpServer, KEEP_ALIVE_TIMEOUT_MS, MAX_BODY_BYTES } from './server.ts';

/** A handler that answers every request with the same data (the transport is under test). */
const handler = {
  handle: () => Promise.resolve({ body: '{"data":{"ok":true}}', error: undefined }),
  runOne: () => Promise.resolve({ body: '{"data":{"ok":true}}', error: undefined }),
} as unknown as GraphQLHandler;

describe('the HTTP transport under oversized bodies', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createHttpServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/graphql`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const small = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });

  it('answers 413 with a clear error and closes that connection', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ __typename }',
        variables: { s: 'x'.repeat(MAX_BODY_BYTES) },
      }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toEqual({
      errors: [
        {
          message: `request body exceeds ${MAX_BODY_BYTES} bytes`,
          extensions: { path: '$', code: 'bad-request' },
        },
      ],
    });
  });

  it('never resets the requests that follow an oversized one (issue 11)', async () => {
    // Before the fix, one of the next requests on the kept-alive connection got ECONNRESET.
    for (let round = 0; round < 5; round += 1) {
      const big = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"query":"{ ${'a: __typename '.repeat(100_000)} }"}`,
      });
      expect(big.status).toBe(413);
      await big.text();
      for (let i = 0; i < 6; i += 1) expect((await small()).status).toBe(200);
    }
  });

  it('refuses a declared Content-Length over the limit before the body arrives', async () => {
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /v1/graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES * 5}\r\n\r\n{"query":`,
        );
      });
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes('}]}')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect((await small()).status).toBe(200);
  });

  it('keeps idle connections longer than proxies do, and says so (issue 11)', async () => {
    // Node's 5 s let a client reuse a connection just as the server dropped it: a reset.
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    const response = await small();
    expect(response.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
  });
});

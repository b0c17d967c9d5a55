import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { postWebhook, WebhookTransportError } from './webhook.ts';

/*
 * The action webhook's connections (webhook.ts): kept alive and reused, a kept-alive socket the
 * handler already closed is retried once on a new one, and nothing else is ever retried.
 */

interface Handler {
  url: string;
  /** Connections the handler accepted. */
  connections: number;
  /** Requests it answered. */
  answered: number;
  server: http.Server;
}

const servers: http.Server[] = [];

async function startHandler(
  respond: (req: http.IncomingMessage, res: http.ServerResponse, handler: Handler) => void,
): Promise<Handler> {
  const handler = { url: '', connections: 0, answered: 0 } as Handler;
  handler.server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => respond(req, res, handler));
  });
  handler.server.on('connection', () => (handler.connections += 1));
  servers.push(handler.server);
  await new Promise<void>((resolve) => handler.server.listen(0, '127.0.0.1', resolve));
  handler.url = `http://127.0.0.1:${(handler.server.address() as AddressInfo).port}/actions/x`;
  return handler;
}

const answer = (res: http.ServerResponse, handler: Handler) => {
  handler.answered += 1;
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
};

const post = (url: string) =>
  postWebhook(url, [['Content-Type', 'application/json']], '{"input":{}}', 5_000);

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('action webhook connections', () => {
  it('reuses one kept-alive connection for calls one after another', async () => {
    const handler = await startHandler((_req, res, h) => answer(res, h));
    for (let i = 0; i < 5; i++) expect((await post(handler.url)).status).toBe(200);
    expect(handler.answered).toBe(5);
    expect(handler.connections).toBe(1);
  });

  it('retries once on a new connection when a kept-alive socket turns out closed', async () => {
    // The first request on each connection is answered; a later one finds the connection
    // closed under it (the handler's keep-alive timeout racing the engine's write).
    const served = new WeakMap<Socket, number>();
    const handler = await startHandler((req, res, h) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count > 1) req.socket.destroy();
      else answer(res, h);
    });
    expect((await post(handler.url)).status).toBe(200);
    expect((await post(handler.url)).status).toBe(200);
    expect(handler.answered).toBe(2);
    expect(handler.connections).toBe(2);
  });

  it('never retries a call whose fresh connection failed, nor one already answered in part', async () => {
    const reset = await startHandler((req) => req.socket.destroy());
    await expect(post(reset.url)).rejects.toBeInstanceOf(WebhookTransportError);
    expect(reset.connections).toBe(1);

    const cut = await startHandler((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => req.socket.destroy(), 10);
    });
    await expect(post(cut.url)).rejects.toBeInstanceOf(WebhookTransportError);
    expect(cut.connections).toBe(1);
  });
});

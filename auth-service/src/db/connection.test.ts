import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from '@app/shared/log';

import { createApp } from '../app.ts';
import { parseAuthEnv } from '../env.ts';

import { createServicePool, isConnectionError } from './connection.ts';

/*
 * The auth service while its database restarts: a connection dropped under a transaction does
 * not crash the process, and requests are refused with a clear, retryable
 * `service-unavailable` (503, Retry-After), never `internal-error`.
 */

/**
 * Just enough of a PostgreSQL server for node-postgres: trust authentication, and every
 * simple query answered as done. Tests drop its connections to play a restart.
 */
async function fakePostgres(): Promise<{
  url: string;
  sockets: Set<Socket>;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0, 'latin1');
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  };
  const ready = message('Z', Buffer.from('I'));
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let started = false;
    socket.on('data', (chunk: Buffer) => {
      if (!started) {
        started = true;
        const ok = Buffer.alloc(4);
        socket.write(Buffer.concat([message('R', ok), ready]));
        return;
      }
      if (chunk[0] === 'Q'.charCodeAt(0))
        socket.write(Buffer.concat([message('C', Buffer.from('SELECT 0\0')), ready]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An address nothing listens on. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

describe('the auth service without its database', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('knows a lost database from a failed statement', () => {
    const withCode = (code: string) => Object.assign(new Error(code), { code });
    for (const lost of [withCode('ECONNREFUSED'), withCode('57P01'), withCode('08006')])
      expect(isConnectionError(lost), lost.message).toBe(true);
    for (const failed of [withCode('23505'), withCode('40001'), new Error('boom')])
      expect(isConnectionError(failed)).toBe(false);
  });

  it('survives a connection dropped while a request holds it', async () => {
    const server = await fakePostgres();
    cleanups.push(() => server.close());
    const errors: Error[] = [];
    const pool = createServicePool(server.url, 2, (error) => errors.push(error));
    cleanups.push(() => pool.end());
    const client = await pool.connect();
    await client.query('BEGIN');
    for (const socket of server.sockets) socket.destroy();
    const deadline = Date.now() + 5_000;
    while (errors.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors[0]?.message).toMatch(/Connection terminated/);
    client.release();
    expect(pool.totalCount).toBe(0);
  });

  it('answers 503 service-unavailable with Retry-After', async () => {
    const url = await deadUrl();
    const pool = createServicePool(url, 2, () => {});
    cleanups.push(() => pool.end());
    const auth = createApp({
      env: parseAuthEnv({ NODE_ENV: 'test', DATABASE_URL: url }),
      db: pool,
      logger: createLogger('auth', { level: 'silent' }),
      mailer: { send: async () => {}, close: () => {} },
    });
    const server = auth.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const [path, body] of [
      ['/refresh_tokens', { refreshToken: 'a'.repeat(43) }],
      ['/login', { email: 'someone@example.com', password: 'Some-password-1' }],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after'), path).toBe('1');
      expect(await response.json(), path).toEqual({
        code: 'service-unavailable',
        message: 'The service is briefly unavailable. Please try again in a moment',
      });
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
  });
});

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createServicePool, isConnectionError } from './service-pool.ts';
import { unreachableDatabaseUrl } from './testing.ts';

/*
 * A service's pool while its database restarts: a lost database is told from a failed
 * statement, and a connection dropped under a transaction does not crash the process. What
 * each service answers meanwhile (503 service-unavailable) is tested in the service.
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

describe('a service pool without its database', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('knows a lost database from a failed statement', () => {
    const withCode = (code: string) => Object.assign(new Error(code), { code });
    for (const lost of [
      withCode('ECONNREFUSED'),
      withCode('57P01'),
      withCode('57P03'),
      withCode('08006'),
      new Error('Connection terminated unexpectedly'),
      new AggregateError([withCode('ECONNREFUSED')]),
      new Error('wrapped', { cause: withCode('ECONNRESET') }),
    ])
      expect(isConnectionError(lost), lost.message).toBe(true);
    for (const failed of [
      withCode('23505'),
      withCode('40001'),
      withCode('42P01'),
      new Error('boom'),
      null,
    ])
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
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();
    expect(pool.totalCount).toBe(0);
  });

  it('fails a query with a connection error while nothing listens', async () => {
    const pool = createServicePool(await unreachableDatabaseUrl(), 2, () => {});
    cleanups.push(() => pool.end());
    const failure: unknown = await pool.query('SELECT 1').catch((error: unknown) => error);
    expect(isConnectionError(failure)).toBe(true);
  });
});

import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listenOn } from '@app/shared/service';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, type TestEngine } from '../../support/engine.ts';
import { sourceMetadata } from '../../support/owned-rows.ts';

/*
 * A burst of new connections is accepted at once (issue 24). With Node's listen backlog (511),
 * a burst of a thousand had about half its SYNs dropped here, and each of those clients waited
 * for TCP's one-second retransmission (RFC 6298's initial timeout) before it was accepted: the
 * 1.1-1.5 s requests of the load check's tail, all of them on connections just opened. Every
 * service listens through listenOn (shared/src/service), which asks for a deeper queue.
 */

const BURST = 1000;
/** TCP's initial retransmission timeout: a connection this slow had its SYN dropped. */
const RETRANSMISSION_MS = 1000;

/** Opens `count` connections at once; the time each took to connect, in ms. */
async function connectBurst(port: number, count: number): Promise<number[]> {
  const sockets: net.Socket[] = [];
  const started = performance.now();
  try {
    return await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<number>((resolve, reject) => {
            const socket = net.connect(port, '127.0.0.1', () =>
              resolve(performance.now() - started),
            );
            sockets.push(socket);
            socket.once('error', reject);
          }),
      ),
    );
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

const retransmitted = (times: number[]) => times.filter((ms) => ms >= RETRANSMISSION_MS).length;

describe('a service listening through listenOn', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => server.listen(listenOn(0, '127.0.0.1'), resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it(`accepts ${BURST} connections opened at once, none after a dropped SYN`, async () => {
    for (let round = 0; round < 2; round++)
      expect(retransmitted(await connectBurst(port, BURST))).toBe(0);
  });
});

describe.each(databaseTargets)('the engine on $name', (target) => {
  let database: TestDatabase;
  let engine: TestEngine;

  beforeAll(async () => {
    database = await target.create();
    engine = await startTestEngine(database.url, { object: sourceMetadata([]) });
  });

  afterAll(async () => {
    await engine?.close();
    await database?.dispose();
  });

  it(`accepts ${BURST} connections opened at once, and still answers`, async () => {
    const port = Number(new URL(engine.url).port);
    expect(retransmitted(await connectBurst(port, BURST))).toBe(0);
    const { status, body } = await engine.graphql('{ __typename }');
    expect(status).toBe(200);
    expect(body).toEqual({ data: { __typename: 'query_root' } });
  });
});

import { createServer, type AddressInfo } from 'node:net';

/*
 * Test support for services on `createServicePool`: a database that is not there.
 */

/** A PostgreSQL URL on a local port nothing listens on (connections are refused). */
export async function unreachableDatabaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

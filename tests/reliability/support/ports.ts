import { createServer } from 'node:net';

/*
 * Ports for the services the reliability checks start. They are picked below Linux's ephemeral
 * range (32768-60999): a connection attempt to a port nobody listens on yet (a health poll of a
 * service still starting, a database that is down) could otherwise be given that very port as
 * its source, connect to itself, and then hold the port the service wants.
 */

/** A port below the ephemeral range that was free a moment ago. */
export async function quietPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

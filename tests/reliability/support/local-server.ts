import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * An HTTP server inside the test process (a receiver, a sink, an emulator, a proxy) on
 * 127.0.0.1, so that the services under test can reach it and nothing else can.
 */

export interface LocalServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops listening and drops kept-alive connections, so that close does not wait for them. */
  close(): Promise<void>;
}

/** Serves `handler` (an express app is one) on `port`, by default one the system picks. */
export async function serveLocally(handler: http.RequestListener, port = 0): Promise<LocalServer> {
  const server = http.createServer(handler);
  server.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

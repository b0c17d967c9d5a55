import type { Server } from 'node:http';
import type { ListenOptions } from 'node:net';

import type { Logger } from '#src/log/index';

/*
 * A service process's ends, the same in every service: a port that cannot be taken stops it
 * at once; Ctrl-C or SIGTERM stops listening, closes what it holds, and exits 0, or 1 when that
 * fails or takes longer than ten seconds (a supervisor then knows it did not end cleanly).
 */

const FORCED_EXIT_MS = 10_000;

/** How long an idle kept-alive connection stays open: longer than proxies keep theirs (often 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Keeps idle kept-alive connections open for KEEP_ALIVE_TIMEOUT_MS instead of Node's 5 s, so
 * that the client or proxy, not the server, is the one to close them. With Node's 5 s, a client
 * that reused a connection as the server dropped it got a reset: one refresh in 98,000 at
 * 1,600 a second did (issue 11), and a proxy keeping its connections 60 s would meet it often.
 * The answer's `Keep-Alive: timeout=65` tells clients that honour it.
 */
export function keepIdleConnectionsOpen(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node wants the headers timeout above the keep-alive one, or it may cut a reused connection.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
}

/**
 * Connections the kernel queues for a service before it accepts them. Node's default is 511;
 * a burst of new connections beyond what the queue holds (a proxy or a crowd opening hundreds
 * at once, as the load check's open loop does when it falls behind) has its SYNs dropped, and
 * each such client waits for TCP's one-second retransmission before it is even accepted: the
 * 1.1-1.5 s requests of issue 24's load tail. 4096 is Linux's net.core.somaxconn default since
 * 5.4, which the kernel caps the figure at anyway, and what Go's listeners (Caddy's) use.
 */
export const LISTEN_BACKLOG = 4096;

/** Where a service listens: `server.listen(listenOn(port, host))`, with LISTEN_BACKLOG. */
export const listenOn = (port: number, host: string): ListenOptions => ({
  port,
  host,
  backlog: LISTEN_BACKLOG,
});

export function exitIfCannotListen(server: Server, logger: Logger): void {
  server.once('error', (error) => {
    logger.fatal({ err: error }, 'cannot listen');
    process.exit(1);
  });
}

export function stopOnSignals(
  server: Server,
  logger: Logger,
  close: () => Promise<unknown> | void,
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    server.close();
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), FORCED_EXIT_MS).unref();
    Promise.resolve()
      .then(close)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'unclean stop');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

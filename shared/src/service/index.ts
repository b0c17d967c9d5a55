import type { Server } from 'node:http';

import type { Logger } from '#src/log/index';

/*
 * A service process's ends, the same in every service: a port that cannot be taken stops it
 * at once; Ctrl-C or SIGTERM stops listening, closes what it holds, and exits 0, or 1 when that
 * fails or takes longer than ten seconds (a supervisor then knows it did not end cleanly).
 */

const FORCED_EXIT_MS = 10_000;

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

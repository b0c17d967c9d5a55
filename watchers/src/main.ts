/*
 * The chain watcher service (issue 25, decision 052) on WATCHERS_HOST:WATCHERS_PORT (4300): a
 * watcher per network given in CHAIN_ENDPOINTS, its health at /healthz and /metrics. It only
 * reads chains and writes what it saw; orders move in the actions service.
 */
import { createServicePool } from '@app/shared/db/service-pool';
import { loadEnv } from '@app/shared/env';
import { createLogger } from '@app/shared/log';
import { exitIfCannotListen, listenOn, stopOnSignals } from '@app/shared/service';

import { createWatchersServer } from './app.ts';
import { WatchersEnv } from './env.ts';
import { startWatchers } from './watchers.ts';

const env = loadEnv(WatchersEnv);
const logger = createLogger('watchers', { level: env.LOG_LEVEL });
const pool = createServicePool(env.DATABASE_URL, 4, (error) =>
  logger.warn({ err: error }, 'database connection lost'),
);

const watchers = await startWatchers({
  db: pool,
  endpoints: env.CHAIN_ENDPOINTS,
  pollMs: env.CHAIN_POLL_MS,
  keepDepth: env.CHAIN_KEEP_DEPTH,
  logger,
});

const server = createWatchersServer({ db: pool, metricsToken: env.METRICS_TOKEN });
server.listen(listenOn(env.WATCHERS_PORT, env.WATCHERS_HOST));
server.once('listening', () =>
  logger.info(
    { url: `http://${env.WATCHERS_HOST}:${env.WATCHERS_PORT}`, networks: watchers.networks },
    'chain watchers listening',
  ),
);
exitIfCannotListen(server, logger);
stopOnSignals(server, logger, async () => {
  await watchers.stop();
  await pool.end();
});

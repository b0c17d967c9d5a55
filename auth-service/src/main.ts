/*
 * The auth service: e-mail + password with e-mail 2FA, quick-auth, Telegram quick-auth,
 * refresh rotation and password resets, on AUTH_HOST:AUTH_PORT (4000).
 */
import type { AddressInfo } from 'node:net';

import { createServicePool } from '@app/shared/db/service-pool';
import { loadEnv } from '@app/shared/env';
import { createLogger } from '@app/shared/log';
import {
  exitIfCannotListen,
  keepIdleConnectionsOpen,
  listenOn,
  stopOnSignals,
} from '@app/shared/service';

import { createApp } from './app.ts';
import { deleteExpired } from './db/rate-limits.ts';
import { AuthEnv } from './env.ts';

const env = loadEnv(AuthEnv);
const logger = createLogger('auth', { level: env.LOG_LEVEL });
// A dropped connection (idle, or checked out mid-transaction) must not crash the service.
const pool = createServicePool(env.DATABASE_URL, env.AUTH_DB_POOL_SIZE, (error) =>
  logger.warn({ err: error }, 'database connection lost'),
);

const auth = createApp({ env, db: pool, logger });
const server = auth.app.listen(listenOn(env.AUTH_PORT, env.AUTH_HOST));
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  logger.info(
    { url: `http://${env.AUTH_HOST}:${port}`, mail: env.SMTP_URL ? 'smtp' : env.AUTH_OUTBOX_DIR },
    'auth service listening',
  );
});
exitIfCannotListen(server, logger);
keepIdleConnectionsOpen(server);

// Expired rows of the auth tables are dead weight; sweep them every ten minutes.
const sweeper = setInterval(() => {
  deleteExpired(pool).catch((error: unknown) => logger.warn({ err: error }, 'sweep failed'));
}, 600_000);
sweeper.unref();

stopOnSignals(server, logger, async () => {
  clearInterval(sweeper);
  await auth.close();
  await pool.end();
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import { createActionsApp } from '@app/actions/app';
import { parseActionsEnv } from '@app/actions/env';
import { createPool } from '@app/engine/database';

import { announceReady, countStatements, requireEnv, serveIpc } from '../servers/child.ts';

import { startCpuProfile } from './profile.ts';

/*
 * The actions service of `npm run bench:orders`, in a process of its own as in production:
 * createActionsApp as tests/integration/actions/harness.ts starts it (its own pool, the
 * shared secret, the seeded rates counted fresh, no mailer), with the service's own
 * environment defaults for the rest and a pool of BENCH_POOL_SIZE connections.
 * The HTTP server around the app records how long each action call takes inside this
 * process (from the request's arrival to the end of the answer), so the orchestrator can tell
 * the handler's share of an order's latency from the engine's and the network's.
 */

countStatements();
const stopProfile = await startCpuProfile();
const env = parseActionsEnv({
  NODE_ENV: 'development',
  DATABASE_URL: requireEnv('BENCH_DATABASE_URL'),
  ACTIONS_SECRET: requireEnv('BENCH_ACTIONS_SECRET'),
  ACTIONS_DB_POOL_SIZE: requireEnv('BENCH_POOL_SIZE'),
  LOG_LEVEL: 'warn',
});
const pool = createPool(env.DATABASE_URL, env.ACTIONS_DB_POOL_SIZE);
const write =
  (level: string) =>
  (...args: unknown[]) => {
    process.stderr.write(`[actions ${level}] ${args.map((arg) => inspect(arg)).join(' ')}\n`);
  };
const app = createActionsApp({
  env,
  pool,
  logger: { info: () => {}, warn: write('warn'), error: write('error') },
});

let samples: number[] = [];
const server = http.createServer((req, res) => {
  const started = performance.now();
  // Action calls only (the event-trigger deliveries the engine also sends are left out).
  if (req.url?.startsWith('/actions/'))
    res.once('finish', () => samples.push(performance.now() - started));
  void app(req, res);
});
server.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;

serveIpc(
  {
    /** Starts a new window of handler timings. */
    mark: () => {
      samples = [];
      return Promise.resolve(null);
    },
    /** The handler timings (ms) since the last mark. */
    handlerTimes: () => Promise.resolve(samples),
  },
  async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await pool.end();
    await stopProfile();
  },
);
announceReady(`http://127.0.0.1:${port}`);

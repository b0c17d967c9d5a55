import { createEngine, liveQueryStats } from '@app/engine';

import { ADMIN_SECRET, benchMetadata, JWT_SECRET } from '../engine/metadata.ts';

import { announceReady, countStatements, requireEnv, serveIpc } from './child.ts';

/*
 * Candidate (b): the engine as it runs in production (createEngine, HTTP + WebSocket on one
 * port), with the product metadata plus the benchmark's user permissions, JWT and admin
 * secret, a pool of BENCH_POOL_SIZE connections.
 */

countStatements();
const engine = await createEngine({
  databaseUrl: requireEnv('BENCH_DATABASE_URL'),
  metadata: { object: await benchMetadata() },
  adminSecret: ADMIN_SECRET,
  jwtSecret: JWT_SECRET,
  poolSize: Number(requireEnv('BENCH_POOL_SIZE')),
  liveQueryRefetchIntervalMs: Number(requireEnv('BENCH_REFETCH_MS')),
  liveQueryBatchSize: 100,
});
const { url } = await engine.listen(0, '127.0.0.1');
serveIpc(
  {},
  () => engine.close(),
  () => ({ liveQuery: liveQueryStats() }),
);
announceReady(`${url}/v1/graphql`);

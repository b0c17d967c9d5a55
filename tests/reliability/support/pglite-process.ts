/*
 * Embedded PostgreSQL (PGlite, in memory) in a process of its own, for tests/reliability
 * stacks on machines without a PostgreSQL server: the services connect to it by URL as they
 * would to a server, and its single WASM backend does not share the load generator's event
 * loop. Prints `pglite ready <url>` once it listens; SIGTERM or SIGINT stops it.
 */
import { startEmbeddedPostgres } from '@app/engine/embedded-postgres';

// The engine (20), actions (10) and auth (10) pools, the test's own pool, and room for more.
const embedded = await startEmbeddedPostgres({ port: 0, maxConnections: 200 });
process.stdout.write(`pglite ready ${embedded.url}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  embedded.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

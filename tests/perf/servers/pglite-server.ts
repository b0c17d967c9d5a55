import { startEmbeddedPostgres } from '@app/engine/embedded-postgres';

import { announceReady, serveIpc } from './child.ts';

/*
 * The fallback database when no PostgreSQL server answers: embedded PGlite (in memory) in a
 * process of its own, served over a socket so every candidate connects with a URL. PGlite is
 * a single backend (the socket multiplexer serialises clients), so the figures it gives say
 * little about a real server.
 */

const embedded = await startEmbeddedPostgres({ port: 0, maxConnections: 200 });
serveIpc({}, () => embedded.stop());
announceReady(embedded.url);

import { citext } from '@electric-sql/pglite/contrib/citext';
import { ltree } from '@electric-sql/pglite/contrib/ltree';
import pg from 'pg';

import { startEmbeddedPostgres } from '@app/engine/embedded-postgres';

/*
 * The embedded fallback when no PostgreSQL server answers: the product's embedded database
 * (in memory) with the two contrib extensions the corpus uses (citext, ltree; PGlite loads
 * them at creation). PGlite is one session shared by every connection, so the UTC time zone
 * the expectations assume is set once for all.
 */

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startPgliteDatabase(): Promise<EmbeddedDatabase> {
  const embedded = await startEmbeddedPostgres({ port: 0, extensions: { citext, ltree } });
  const client = new pg.Client({ connectionString: embedded.url });
  try {
    await client.connect();
    await client.query(`SET TIME ZONE 'UTC'; ALTER DATABASE postgres SET timezone TO 'UTC'`);
  } catch (error) {
    await embedded.stop();
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
  return { url: embedded.url, stop: () => embedded.stop() };
}

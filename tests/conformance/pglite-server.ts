import { PGlite } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { ltree } from '@electric-sql/pglite/contrib/ltree';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/*
 * The embedded fallback when no PostgreSQL server answers: an in-memory PGlite with the two
 * contrib extensions the corpus uses (citext, ltree; they must be loaded when PGlite is
 * created), served over pglite-socket so the engine connects with an ordinary URL. PGlite is
 * a single backend: the socket multiplexer serialises transactions and every connection
 * shares one session, so the UTC time zone is set once for all.
 */

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startPgliteDatabase(): Promise<EmbeddedDatabase> {
  const db = await PGlite.create({ extensions: { citext, ltree } });
  try {
    await db.exec(`SET TIME ZONE 'UTC'; ALTER DATABASE postgres SET timezone TO 'UTC';`);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 100 });
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    return {
      url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
      async stop() {
        await server.stop().catch(() => {});
        await db.close().catch(() => {});
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

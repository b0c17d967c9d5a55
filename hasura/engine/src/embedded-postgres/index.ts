import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { PGlite, type Extensions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

import { EmbeddedSocketServer } from './socket-server.ts';

/*
 * PostgreSQL for machines that have no server: PGlite (Postgres compiled to WASM) behind our
 * socket server, so every service still connects with `pg` and a DATABASE_URL exactly as it
 * would to a real server. PGlite is one backend: the socket server lets clients take turns a
 * whole unit of work at a time (see socket-server.ts), and all connections share one session
 * (so session state must only ever be set with SET LOCAL).
 */

export interface EmbeddedPostgresOptions {
  /** Folder that keeps the data across restarts; omit for an in-memory database. */
  dataDir?: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. Never 5432, which a real server may hold. */
  port?: number;
  host?: string;
  /** Client connections the multiplexer accepts at once. */
  maxConnections?: number;
  /**
   * More PGlite extensions to load at creation (e.g. citext, ltree from
   * @electric-sql/pglite/contrib), besides the ones the product's migrations need.
   */
  extensions?: Extensions;
}

/**
 * Extensions the migrations create (`CREATE EXTENSION`), which PGlite can only provide when
 * they are loaded at creation: pg_trgm, for trigram text search. Loaded every time, so a data
 * folder made earlier opens with them too.
 */
export const PRODUCT_EXTENSIONS: Extensions = { pg_trgm };

export interface EmbeddedPostgres {
  /** A connection URL that pg, psql and any PostgreSQL client accept. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export class EmbeddedPostgresBusyError extends Error {
  override name = 'EmbeddedPostgresBusyError';
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A data folder opened by two PGlite processes at once is corrupted, so the owner leaves
 * its pid beside the folder, and a second start is refused while that process lives.
 */
async function claimDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = `${path.resolve(dataDir)}.pid`;
  await mkdir(path.dirname(lockFile), { recursive: true });
  const holder = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(holder) && holder !== process.pid && isProcessAlive(holder)) {
    throw new EmbeddedPostgresBusyError(
      `${dataDir} is in use by process ${holder}; stop it first (two processes would corrupt the data)`,
    );
  }
  await writeFile(lockFile, String(process.pid));
  return () => rm(lockFile, { force: true });
}

/** Removes an embedded database's data, for a fresh start. */
export async function removeEmbeddedData(dataDir: string): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
}

export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const host = options.host ?? '127.0.0.1';
  const release = options.dataDir ? await claimDataDir(options.dataDir) : async () => {};
  let db: PGlite | undefined;
  try {
    if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
    db = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      // Never acknowledge a statement before its filesystem sync is done (the default, pinned:
      // docs/decisions/003-embedded-postgres.md, "Durability").
      relaxedDurability: false,
      extensions: { ...PRODUCT_EXTENSIONS, ...options.extensions },
    });
    const server = new EmbeddedSocketServer(db, options.maxConnections ?? 100);
    const port = await server.listen(options.port ?? 0, host);
    const openedDb = db;
    return {
      url: `postgres://postgres:postgres@${host}:${port}/postgres?sslmode=disable`,
      port,
      async stop() {
        await server.close();
        await openedDb.close();
        await release();
      },
    };
  } catch (error) {
    await db?.close().catch(() => {});
    await release();
    throw error;
  }
}

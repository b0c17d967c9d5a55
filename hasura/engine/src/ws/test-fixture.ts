/*
 * Shared by the ws/ and live/ tests: an embedded PGlite database with a two-table fixture,
 * an engine serving it, and a raw WebSocket client that queues the messages it receives.
 */
import pg from 'pg';
import WebSocket from 'ws';

import type { Engine, EngineOptions } from '../engine-options.ts';
import { createEngine } from '../engine.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded-postgres/index.ts';

export const ADMIN_SECRET = 'ws-test-secret';
export const JWT_KEY = 'a-jwt-test-key-of-at-least-thirty-two-bytes!';

export const FIXTURE_SQL = `
CREATE TABLE public.authors (id serial PRIMARY KEY, name text NOT NULL);
CREATE TABLE public.articles (
  id serial PRIMARY KEY,
  author_id int NOT NULL REFERENCES public.authors(id),
  title text NOT NULL,
  rating int NOT NULL DEFAULT 0,
  tags text[] NOT NULL DEFAULT '{}'
);
INSERT INTO public.authors (name) VALUES ('ann'), ('bob');
INSERT INTO public.articles (author_id, title, rating, tags) VALUES
  (1, 'ann one', 1, '{x}'), (1, 'ann two', 2, '{y}'), (2, 'bob one', 3, '{"x y"}');
`;

const userFilter = { author_id: { _eq: 'X-Hasura-User-Id' } };

export const FIXTURE_METADATA = {
  version: 3,
  sources: [
    {
      name: 'default',
      kind: 'postgres',
      tables: [
        {
          table: { schema: 'public', name: 'authors' },
          array_relationships: [
            {
              name: 'articles',
              using: {
                foreign_key_constraint_on: {
                  table: { schema: 'public', name: 'articles' },
                  column: 'author_id',
                },
              },
            },
          ],
          select_permissions: [
            {
              role: 'user',
              permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Hasura-User-Id' } } },
            },
          ],
        },
        {
          table: { schema: 'public', name: 'articles' },
          object_relationships: [
            { name: 'author', using: { foreign_key_constraint_on: 'author_id' } },
          ],
          select_permissions: [
            {
              role: 'user',
              permission: {
                columns: ['id', 'author_id', 'title', 'rating', 'tags'],
                filter: userFilter,
                allow_aggregations: true,
              },
            },
          ],
          insert_permissions: [
            {
              role: 'user',
              permission: {
                columns: ['title', 'rating'],
                check: userFilter,
                set: { author_id: 'X-Hasura-User-Id' },
              },
            },
          ],
        },
      ],
    },
  ],
};

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** A fresh embedded database with the fixture loaded. */
export async function startTestDatabase(): Promise<TestDatabase> {
  const embedded: EmbeddedPostgres = await startEmbeddedPostgres({ port: 0 });
  const pool = new pg.Pool({ connectionString: embedded.url, max: 2 });
  pool.on('error', () => {});
  const reset = async () => {
    await pool.query('DROP TABLE IF EXISTS public.articles, public.authors CASCADE');
    await pool.query(FIXTURE_SQL);
  };
  await reset();
  return {
    url: embedded.url,
    pool,
    reset,
    async stop() {
      await pool.end();
      await embedded.stop();
    },
  };
}

export interface TestEngine {
  engine: Engine;
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export async function startTestEngine(
  databaseUrl: string,
  options: Partial<EngineOptions> = {},
): Promise<TestEngine> {
  const engine = await createEngine({
    databaseUrl,
    metadata: { object: FIXTURE_METADATA },
    adminSecret: ADMIN_SECRET,
    liveQueryRefetchIntervalMs: 100,
    poolSize: 4,
    ...options,
  });
  const { url } = await engine.listen(0);
  return {
    engine,
    url,
    wsUrl: `${url.replace(/^http/, 'ws')}/v1/graphql`,
    close: () => engine.close(),
  };
}

export type Message = Record<string, unknown> & { type?: unknown; id?: unknown; payload?: unknown };

/** A raw protocol client: queues every message (keep-alives included unless filtered). */
export class RawClient {
  readonly messages: Message[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly socket: WebSocket,
    private readonly keep: (message: Message) => boolean,
  ) {
    socket.on('message', (data: WebSocket.RawData) => {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      const message = JSON.parse(text) as Message;
      if (!this.keep(message)) return;
      this.messages.push(message);
      this.wake();
    });
    socket.on('close', (code: number, reason: Buffer) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.wake();
    });
    socket.on('error', () => {});
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Opens a socket; keep-alive `ka` and `ping` messages are dropped unless `keepAlives`. */
  static open(
    url: string,
    protocol: string | string[] | undefined,
    keepAlives = false,
  ): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = protocol === undefined ? new WebSocket(url) : new WebSocket(url, protocol);
      const client = new RawClient(
        socket,
        (message) => keepAlives || (message.type !== 'ka' && message.type !== 'ping'),
      );
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next queued message (matching `predicate`), waiting up to `timeoutMs`. */
  next(predicate: (message: Message) => boolean = () => true, timeoutMs = 5000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const index = this.messages.findIndex(predicate);
        if (index >= 0) {
          finish();
          resolve(this.messages.splice(index, 1)[0]!);
        } else if (this.closed) {
          finish();
          reject(new Error(`socket closed (${this.closed.code} ${this.closed.reason})`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(`no message within ${timeoutMs} ms; queued: ${JSON.stringify(this.messages)}`),
        );
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  waitClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!this.closed) return;
        finish();
        resolve(this.closed);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`socket still open after ${timeoutMs} ms`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Initialises the connection and waits for the ack. */
  async init(
    payload: Record<string, unknown> = { headers: { 'X-Hasura-Admin-Secret': ADMIN_SECRET } },
  ): Promise<void> {
    this.send({ type: 'connection_init', payload });
    const ack = await this.next();
    if (ack.type !== 'connection_ack')
      throw new Error(`expected connection_ack, got ${JSON.stringify(ack)}`);
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

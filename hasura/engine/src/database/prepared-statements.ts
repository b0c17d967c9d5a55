import type pg from 'pg';

/*
 * Named prepared statements for the SQL the engine compiles, as Hasura does
 * (HASURA_GRAPHQL_USE_PREPARED_STATEMENTS, on by default): PostgreSQL parses, analyses and
 * plans a statement once per connection, and later requests only bind and execute it. Every
 * value is already a parameter (sql/builder.ts), so requests of one shape share one text.
 *
 * Bounds, because the texts come from clients:
 * - a text gets a name only when it is seen a second time among the last `maxTexts` texts, so
 *   one-off operations never take a slot on the server;
 * - names are never reused (a counter), so node-postgres never meets one name with two texts,
 *   even after a text was forgotten and comes back;
 * - each connection prepares at most `maxPerConnection` statements; past that it runs unnamed,
 *   so no stream of distinct operations can grow a backend's memory without end.
 *
 * Off on PGlite: its one backend is shared by every pooled client (embedded-postgres), so a
 * name one client prepared would exist, unknown to it, for all the others.
 */

export interface PreparedStatementOptions {
  enabled: boolean;
  /** Distinct texts remembered (least recently used forgotten first). */
  maxTexts?: number;
  /** Most statements one connection prepares. */
  maxPerConnection?: number;
}

export interface PreparedStatements {
  /** Runs `text` on the pool, under a statement name once the text repeats. */
  query<Row extends pg.QueryResultRow>(
    pool: pg.Pool,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<Row>>;
  /** Runs `text` on a checked-out client (inside its transaction). */
  queryOn<Row extends pg.QueryResultRow>(
    client: pg.PoolClient,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<Row>>;
  /** How many texts have a name (for tests and metrics). */
  readonly namedTexts: number;
}

export const DEFAULT_MAX_TEXTS = 1000;
export const DEFAULT_MAX_PER_CONNECTION = 256;

export function createPreparedStatements(options: PreparedStatementOptions): PreparedStatements {
  const maxTexts = options.maxTexts ?? DEFAULT_MAX_TEXTS;
  const maxPerConnection = options.maxPerConnection ?? DEFAULT_MAX_PER_CONNECTION;
  /** Text -> its name, or null while it has been seen once. Map order is recency. */
  const texts = new Map<string, string | null>();
  /** Names each connection has prepared. */
  const prepared = new WeakMap<pg.ClientBase, Set<string>>();
  let counter = 0;
  let namedTexts = 0;

  function nameOf(text: string): string | undefined {
    if (!options.enabled) return undefined;
    const known = texts.get(text);
    if (known === undefined) {
      texts.set(text, null);
      if (texts.size > maxTexts) {
        const oldest = texts.entries().next().value!;
        texts.delete(oldest[0]);
        if (oldest[1] !== null) namedTexts -= 1;
      }
      return undefined;
    }
    texts.delete(text);
    if (known !== null) {
      texts.set(text, known);
      return known;
    }
    counter += 1;
    const name = `engine_${counter}`;
    texts.set(text, name);
    namedTexts += 1;
    return name;
  }

  function config(client: pg.ClientBase, text: string, values: unknown[]): pg.QueryConfig {
    const name = nameOf(text);
    if (name === undefined) return { text, values };
    let names = prepared.get(client);
    if (!names) {
      names = new Set();
      prepared.set(client, names);
    }
    if (!names.has(name)) {
      if (names.size >= maxPerConnection) return { text, values };
      names.add(name);
    }
    return { name, text, values };
  }

  return {
    async query<Row extends pg.QueryResultRow>(pool: pg.Pool, text: string, values: unknown[]) {
      if (!options.enabled) return pool.query<Row>(text, values);
      const client = await pool.connect();
      try {
        const result = await client.query<Row>(config(client, text, values));
        client.release();
        return result;
      } catch (error) {
        // As pool.query does: a client whose statement failed is not reused.
        client.release(error as Error);
        throw error;
      }
    },
    queryOn<Row extends pg.QueryResultRow>(client: pg.PoolClient, text: string, values: unknown[]) {
      return client.query<Row>(config(client, text, values));
    },
    get namedTexts() {
      return namedTexts;
    },
  };
}

/** Whether the database behind `pool` is PGlite, whose single session every client shares. */
export async function isSharedSessionDatabase(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ version: string }>('SELECT version()');
  return /\bPGlite\b/.test(rows[0]?.version ?? '');
}

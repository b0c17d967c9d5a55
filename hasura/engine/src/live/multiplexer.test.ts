import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Session } from '../auth/session.ts';
import { introspect } from '../catalog/introspect.ts';
import { loadMetadata } from '../metadata/load.ts';
import { planOperation, type GraphQLRequest } from '../plan/operation.ts';
import { buildSchemaModel } from '../schema/build.ts';
import type { SchemaModel } from '../schema/model.ts';
import {
  FIXTURE_METADATA,
  sleep,
  startTestDatabase,
  type TestDatabase,
} from '../ws/test-fixture.ts';

import {
  compileLiveQuery,
  LIVE_QUERY_MARKER,
  multiplexedStatement,
  type CompiledLiveQuery,
} from './compile.ts';
import { LiveQueryMultiplexer, liveQueryStats, type Queryable } from './multiplexer.ts';

const INTERVAL_MS = 100;

let db: TestDatabase;
let model: SchemaModel;

/** A pool that counts (and can slow down) the statements it runs. */
class CountingPool implements Queryable {
  statements: string[] = [];
  running = 0;
  maxRunning = 0;
  delayMs = 0;
  constructor(private readonly pool: pg.Pool) {}
  async query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    this.statements.push(text);
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      if (this.delayMs > 0) await sleep(this.delayMs);
      return await this.pool.query<R>(text, values);
    } finally {
      this.running -= 1;
    }
  }
}

const admin: Session = { role: 'admin', variables: { 'x-hasura-role': 'admin' }, isAdmin: true };
const user = (id: string): Session => ({
  role: 'user',
  variables: { 'x-hasura-role': 'user', 'x-hasura-user-id': id },
  isAdmin: false,
});

function compile(request: GraphQLRequest, session: Session): CompiledLiveQuery {
  const plan = planOperation(request, {
    model,
    schema: model.forRole(session.role),
    session,
    stringifyNumericTypes: true,
  });
  return compileLiveQuery(plan, session, true);
}

const byId = (id: number, fields = 'id title') =>
  compile(
    {
      query: `subscription($id: Int!) { articles(where: {id: {_eq: $id}}) { ${fields} } }`,
      variables: { id },
    },
    admin,
  );

/** Collects what a subscriber receives. */
function collector() {
  const bodies: unknown[] = [];
  return {
    bodies,
    sink: (body: string) => bodies.push(JSON.parse(body)),
    async waitFor(count: number, timeoutMs = 3000) {
      const started = Date.now();
      while (bodies.length < count) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`only ${bodies.length} of ${count} results: ${JSON.stringify(bodies)}`);
        await sleep(5);
      }
      return bodies[count - 1];
    },
  };
}

beforeAll(async () => {
  db = await startTestDatabase();
  const metadata = await loadMetadata({ object: FIXTURE_METADATA });
  const tables = metadata.sources[0]!.tables.map((table) => table.table);
  model = buildSchemaModel(metadata, await introspect(db.pool, tables, []));
});

afterAll(async () => {
  await db.stop();
});

describe('compiling subscriptions for multiplexing', () => {
  it('gives the same SQL text for different variables and sessions of one shape, and differing rows', () => {
    const one = byId(1);
    const two = byId(2);
    expect(one.sql).toBe(two.sql);
    expect(one.variables).not.toBe(two.variables);
    expect(one.sql).not.toMatch(/\$\d/);

    const ann = compile({ query: 'subscription { articles { id } }' }, user('1'));
    const bob = compile({ query: 'subscription { articles { id } }' }, user('2'));
    expect(ann.sql).toBe(bob.sql);
    expect(JSON.parse(ann.variables)).toEqual(['1']);
    expect(JSON.parse(bob.variables)).toEqual(['2']);
    // The role's permission filter is part of the shape: admin's query is another cohort.
    expect(compile({ query: 'subscription { articles { id } }' }, admin).sql).not.toBe(ann.sql);
  });

  it('wraps the query in one statement over the subscribers relation', () => {
    const statement = multiplexedStatement(byId(1).sql);
    expect(statement.startsWith(LIVE_QUERY_MARKER)).toBe(true);
    expect(statement).toContain('unnest($1::text[], $2::jsonb[])');
    expect(statement).toContain('LEFT JOIN LATERAL');
  });
});

describe('LiveQueryMultiplexer', () => {
  let pool: CountingPool;
  let live: LiveQueryMultiplexer;

  beforeEach(async () => {
    await db.reset();
    pool = new CountingPool(db.pool);
    live = new LiveQueryMultiplexer({ pool, refetchIntervalMs: INTERVAL_MS, batchSize: 100 });
  });

  afterEach(async () => {
    await live.close();
  });

  it('answers subscribers of one shape with one statement per interval and pushes only changes', async () => {
    const a = collector();
    const b = collector();
    live.subscribe(byId(1), a.sink);
    live.subscribe(byId(3), b.sink);
    expect(await a.waitFor(1)).toEqual({ data: { articles: [{ id: 1, title: 'ann one' }] } });
    expect(await b.waitFor(1)).toEqual({ data: { articles: [{ id: 3, title: 'bob one' }] } });
    expect(live.stats()).toMatchObject({ cohorts: 1, variableSets: 2, subscribers: 2 });

    const before = pool.statements.length;
    await sleep(INTERVAL_MS * 5 + INTERVAL_MS / 2);
    const ran = pool.statements.length - before;
    // One statement per tick for both subscribers (5 ticks, give or take one at the edges).
    expect(ran).toBeGreaterThanOrEqual(4);
    expect(ran).toBeLessThanOrEqual(6);
    // Nothing changed: nothing re-sent.
    expect(a.bodies).toHaveLength(1);
    expect(b.bodies).toHaveLength(1);

    await db.pool.query(`UPDATE public.articles SET title = 'bob changed' WHERE id = 3`);
    expect(await b.waitFor(2)).toEqual({ data: { articles: [{ id: 3, title: 'bob changed' }] } });
    await sleep(INTERVAL_MS * 2);
    expect(a.bodies).toHaveLength(1);
    expect(b.bodies).toHaveLength(2);
  });

  it('splits a cohort into batches of batchSize variable sets', async () => {
    await live.close();
    live = new LiveQueryMultiplexer({ pool, refetchIntervalMs: INTERVAL_MS, batchSize: 2 });
    const sinks = [1, 2, 3, 1, 2].map((id) => {
      const c = collector();
      live.subscribe(byId(id), c.sink);
      return c;
    });
    await Promise.all(sinks.map((c) => c.waitFor(1)));
    // Identical variables share a variable set: three sets, so two statements per tick.
    expect(live.stats()).toMatchObject({ cohorts: 1, variableSets: 3, subscribers: 5 });
    const statsBefore = live.stats();
    await sleep(INTERVAL_MS * 4 + INTERVAL_MS / 2);
    const { polls, statements } = live.stats();
    expect(statements - statsBefore.statements).toBe(2 * (polls - statsBefore.polls));
  });

  it('reports every statement to onStatement', async () => {
    await live.close();
    const events: Array<{ reason: string; variableSets: number; ok: boolean }> = [];
    live = new LiveQueryMultiplexer({
      pool,
      refetchIntervalMs: INTERVAL_MS,
      batchSize: 100,
      onStatement: ({ reason, variableSets, ok }) => events.push({ reason, variableSets, ok }),
    });
    const c = collector();
    live.subscribe(byId(1), c.sink);
    live.subscribe(byId(2), c.sink);
    await c.waitFor(2);
    await sleep(INTERVAL_MS * 2.5);
    expect(events[0]).toEqual({ reason: 'first', variableSets: 2, ok: true });
    expect(events.filter((event) => event.reason === 'poll').length).toBeGreaterThanOrEqual(1);
    expect(events.every((event) => event.ok && event.variableSets === 2)).toBe(true);
    expect(events).toHaveLength(live.stats().statements);
  });

  it('gives a subscriber joining a known variable set its result at once', async () => {
    const first = collector();
    live.subscribe(byId(2), first.sink);
    await first.waitFor(1);
    const statements = pool.statements.length;
    const second = collector();
    live.subscribe(byId(2), second.sink);
    expect(await second.waitFor(1, 50)).toEqual(first.bodies[0]);
    expect(pool.statements.length - statements).toBeLessThanOrEqual(1);
  });

  it('keeps per-subscriber session values apart inside one statement', async () => {
    const ann = collector();
    const bob = collector();
    live.subscribe(
      compile({ query: 'subscription { articles(order_by: {id: asc}) { id } }' }, user('1')),
      ann.sink,
    );
    live.subscribe(
      compile({ query: 'subscription { articles(order_by: {id: asc}) { id } }' }, user('2')),
      bob.sink,
    );
    expect(await ann.waitFor(1)).toEqual({ data: { articles: [{ id: 1 }, { id: 2 }] } });
    expect(await bob.waitFor(1)).toEqual({ data: { articles: [{ id: 3 }] } });
    expect(live.stats().cohorts).toBe(1);
  });

  it('passes array parameters through the variables row', async () => {
    const c = collector();
    live.subscribe(
      compile(
        {
          query:
            'subscription($ids: [Int!]!) { articles(where: {id: {_in: $ids}}, order_by: {id: desc}) { id } }',
          variables: { ids: [1, 3] },
        },
        admin,
      ),
      c.sink,
    );
    expect(await c.waitFor(1)).toEqual({ data: { articles: [{ id: 3 }, { id: 1 }] } });
  });

  it('sends a failing query error to its subscribers only, and keeps polling', async () => {
    const good = collector();
    const bad = collector();
    const query = 'subscription { articles(order_by: {id: asc}) { id } }';
    live.subscribe(compile({ query }, user('1')), good.sink);
    // A session value that does not cast to the column type fails only this subscriber's row.
    live.subscribe(compile({ query }, user('not-a-number')), bad.sink);
    expect(await good.waitFor(1)).toEqual({ data: { articles: [{ id: 1 }, { id: 2 }] } });
    const error = (await bad.waitFor(1)) as { errors: Array<{ extensions: { code: string } }> };
    expect(error.errors[0]!.extensions.code).toBe('data-exception');

    await db.pool.query(`INSERT INTO public.articles (author_id, title) VALUES (1, 'ann three')`);
    expect(await good.waitFor(2)).toEqual({
      data: { articles: [{ id: 1 }, { id: 2 }, { id: 4 }] },
    });
    // The same error is not re-sent every interval.
    expect(bad.bodies).toHaveLength(1);
  });

  it('never overlaps a cohort with itself when a refetch outlasts the interval', async () => {
    const c = collector();
    live.subscribe(byId(1), c.sink);
    await c.waitFor(1);
    pool.delayMs = INTERVAL_MS * 3;
    pool.maxRunning = 0;
    await sleep(INTERVAL_MS * 8);
    expect(pool.maxRunning).toBe(1);
    expect(live.stats().skippedPolls).toBeGreaterThan(0);
  });

  it('drops empty variable sets and cohorts, and stops polling when none is left', async () => {
    const c = collector();
    const one = live.subscribe(byId(1), c.sink);
    const two = live.subscribe(byId(1, 'id'), c.sink);
    await c.waitFor(2);
    expect(live.stats()).toMatchObject({ cohorts: 2, subscribers: 2 });
    one.unsubscribe();
    one.unsubscribe();
    expect(live.stats()).toMatchObject({ cohorts: 1, subscribers: 1 });
    two.unsubscribe();
    expect(live.stats()).toMatchObject({ cohorts: 0, variableSets: 0, subscribers: 0 });
    await sleep(INTERVAL_MS);
    const statements = pool.statements.length;
    await sleep(INTERVAL_MS * 3);
    expect(pool.statements.length).toBe(statements);
  });

  it('close() waits for running statements and silences subscribers', async () => {
    const c = collector();
    live.subscribe(byId(1), c.sink);
    await c.waitFor(1);
    pool.delayMs = INTERVAL_MS;
    await db.pool.query(`UPDATE public.articles SET title = 'late' WHERE id = 1`);
    await sleep(INTERVAL_MS * 1.2);
    const processStats = liveQueryStats();
    expect(processStats.subscribers).toBeGreaterThanOrEqual(1);
    await live.close();
    expect(pool.running).toBe(0);
    const received = c.bodies.length;
    await sleep(INTERVAL_MS * 3);
    expect(c.bodies).toHaveLength(received);
    expect(() => live.subscribe(byId(1), c.sink)).toThrow(/closed/);
  });
});

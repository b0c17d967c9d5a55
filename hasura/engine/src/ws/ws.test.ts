import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { signJwt } from '../auth/index.ts';
import { liveQueryStats } from '../live/index.ts';

import {
  ADMIN_SECRET,
  JWT_KEY,
  RawClient,
  sleep,
  startTestDatabase,
  startTestEngine,
  type Message,
  type TestDatabase,
  type TestEngine,
} from './test-fixture.ts';

/*
 * The engine's WebSocket transport end to end: a real engine on embedded PGlite, real `ws`
 * sockets and the graphql-ws library's client over loopback.
 */

const INTERVAL_MS = 100;
const ADMIN = { headers: { 'X-Hasura-Admin-Secret': ADMIN_SECRET } };
const asUser = (id: string) => ({
  headers: {
    'X-Hasura-Admin-Secret': ADMIN_SECRET,
    'X-Hasura-Role': 'user',
    'X-Hasura-User-Id': id,
  },
});

let db: TestDatabase;
let server: TestEngine;

beforeAll(async () => {
  db = await startTestDatabase();
  server = await startTestEngine(db.url, { liveQueryRefetchIntervalMs: INTERVAL_MS });
});

afterAll(async () => {
  await server.close();
  await db.stop();
});

beforeEach(async () => {
  await db.reset();
});

/** Opens a client (graphql-transport-ws by default) and initialises it. */
async function connect(
  protocol = 'graphql-transport-ws',
  payload: Record<string, unknown> = ADMIN,
): Promise<RawClient> {
  const client = await RawClient.open(server.wsUrl, protocol);
  await client.init(payload);
  return client;
}

const ofId = (id: string) => (message: Message) => message.id === id;

function graphqlWsClient(connectionParams: Record<string, unknown> = ADMIN): Client {
  return createClient({
    url: server.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
  });
}

/** Values of a graphql-ws subscription, as an async queue. */
function iterate(client: Client, query: string, variables?: Record<string, unknown>) {
  return client.iterate({ query, ...(variables && { variables }) });
}

describe('graphql-transport-ws', () => {
  it('acknowledges connection_init, answers ping with pong, and closes 4429 on a second init', async () => {
    const client = await RawClient.open(server.wsUrl, 'graphql-transport-ws');
    expect(client.socket.protocol).toBe('graphql-transport-ws');
    client.send({ type: 'connection_init', payload: ADMIN });
    expect(await client.next()).toEqual({ type: 'connection_ack' });
    client.send({ type: 'ping', payload: { n: 1 } });
    expect(await client.next()).toEqual({ type: 'pong', payload: { n: 1 } });
    client.send({ type: 'connection_init', payload: ADMIN });
    expect((await client.waitClosed()).code).toBe(4429);
  });

  it('works with the graphql-ws client: query, mutation and a live subscription', async () => {
    const client = graphqlWsClient();
    try {
      const query = await iterate(client, '{ authors(order_by: {id: asc}) { name } }').next();
      expect(query.value).toEqual({ data: { authors: [{ name: 'ann' }, { name: 'bob' }] } });

      const updates = iterate(
        client,
        'subscription($id: Int!) { articles_by_pk(id: $id) { title } }',
        { id: 2 },
      );
      expect((await updates.next()).value).toEqual({
        data: { articles_by_pk: { title: 'ann two' } },
      });

      const mutation = await iterate(
        client,
        'mutation { update_articles_by_pk(pk_columns: {id: 2}, _set: {title: "new"}) { id } }',
      ).next();
      expect(mutation.value).toEqual({ data: { update_articles_by_pk: { id: 2 } } });
      expect((await updates.next()).value).toEqual({ data: { articles_by_pk: { title: 'new' } } });
      await updates.return?.();
    } finally {
      await client.dispose();
    }
  });

  it('answers a query with next then complete, and a request error with error then complete', async () => {
    const client = await connect();
    client.send({
      id: 'q',
      type: 'subscribe',
      payload: { query: '{ authors_by_pk(id: 2) { name } }' },
    });
    expect(await client.next(ofId('q'))).toEqual({
      type: 'next',
      id: 'q',
      payload: { data: { authors_by_pk: { name: 'bob' } } },
    });
    expect(await client.next(ofId('q'))).toEqual({ type: 'complete', id: 'q' });

    client.send({ id: 'e', type: 'subscribe', payload: { query: '{ nope { id } }' } });
    const error = await client.next(ofId('e'));
    expect(error).toMatchObject({
      type: 'error',
      id: 'e',
      payload: [{ extensions: { code: 'validation-failed' } }],
    });
    expect(await client.next(ofId('e'))).toEqual({ type: 'complete', id: 'e' });
    await client.close();
  });

  it('closes 4400 on an unknown message and on complete without id; ignores complete for an unknown id', async () => {
    const unknown = await connect();
    unknown.send({ type: 'test' });
    expect((await unknown.waitClosed()).code).toBe(4400);

    const noId = await connect();
    noId.send({ type: 'complete', id: '1' });
    await sleep(50);
    expect(noId.closed).toBeUndefined();
    noId.send({ type: 'complete' });
    expect((await noId.waitClosed()).code).toBe(4400);

    const garbage = await connect();
    garbage.send('not json');
    expect((await garbage.waitClosed()).code).toBe(4400);
  });

  it('closes 4401 on subscribe before connection_init and 4409 on a duplicate operation id', async () => {
    const early = await RawClient.open(server.wsUrl, 'graphql-transport-ws');
    early.send({ id: '1', type: 'subscribe', payload: { query: '{ authors { id } }' } });
    expect((await early.waitClosed()).code).toBe(4401);

    const twice = await connect();
    const subscription = {
      id: 'dup',
      type: 'subscribe',
      payload: { query: 'subscription { authors { id } }' },
    };
    twice.send(subscription);
    await twice.next(ofId('dup'));
    twice.send(subscription);
    expect((await twice.waitClosed()).code).toBe(4409);
  });

  it('closes 4403 when connection_init does not authenticate', async () => {
    const client = await RawClient.open(server.wsUrl, 'graphql-transport-ws');
    client.send({
      type: 'connection_init',
      payload: { headers: { 'X-Hasura-Admin-Secret': 'wrong' } },
    });
    expect((await client.waitClosed()).code).toBe(4403);

    const empty = await RawClient.open(server.wsUrl, 'graphql-transport-ws');
    empty.send({ type: 'connection_init', payload: { headers: {} } });
    expect((await empty.waitClosed()).code).toBe(4403);
  });

  it('closes 4408 when connection_init never comes', async () => {
    const client = await RawClient.open(server.wsUrl, 'graphql-transport-ws');
    const closed = await client.waitClosed(5000);
    expect(closed.code).toBe(4408);
  });
});

describe('legacy graphql-ws (Apollo)', () => {
  it('acknowledges connection_init then sends ka', async () => {
    const client = await RawClient.open(server.wsUrl, 'graphql-ws', true);
    expect(client.socket.protocol).toBe('graphql-ws');
    client.send({ type: 'connection_init', payload: ADMIN });
    expect(await client.next()).toEqual({ type: 'connection_ack' });
    expect(await client.next()).toEqual({ type: 'ka' });
    await client.close();
  });

  it('answers start with data (then complete for a query) and stops subscriptions', async () => {
    const client = await connect('graphql-ws');
    client.send({
      id: '2',
      type: 'start',
      payload: { query: '{ authors_by_pk(id: 1) { name } }' },
    });
    expect(await client.next(ofId('2'))).toEqual({
      type: 'data',
      id: '2',
      payload: { data: { authors_by_pk: { name: 'ann' } } },
    });
    expect(await client.next(ofId('2'))).toEqual({ type: 'complete', id: '2' });

    client.send({
      id: 's',
      type: 'start',
      payload: { query: 'subscription { authors_aggregate { aggregate { count } } }' },
    });
    expect(await client.next(ofId('s'))).toEqual({
      type: 'data',
      id: 's',
      payload: { data: { authors_aggregate: { aggregate: { count: 2 } } } },
    });
    client.send({ id: 's', type: 'stop' });
    await db.pool.query(`INSERT INTO public.authors (name) VALUES ('cid')`);
    await sleep(INTERVAL_MS * 3);
    expect(client.messages).toEqual([]);
    await client.close();
  });

  it('reports bad messages with connection_error and keeps the socket open', async () => {
    const client = await connect('graphql-ws');
    client.send({ type: 'test' });
    expect(await client.next()).toEqual({
      type: 'connection_error',
      payload: 'parsing ClientMessage failed: Error in $: unexpected type for ClientMessage: test',
    });
    client.send({ type: 'stop' });
    expect(await client.next()).toMatchObject({ type: 'connection_error' });
    client.send({ type: 'stop', id: '1' });
    await sleep(50);
    expect(client.messages).toEqual([]);
    expect(client.closed).toBeUndefined();
    client.send({
      id: '3',
      type: 'start',
      payload: { query: 'subscription { authors_by_pk(id: 2) { name } }' },
    });
    expect(await client.next(ofId('3'))).toMatchObject({
      type: 'data',
      payload: { data: { authors_by_pk: { name: 'bob' } } },
    });
    await client.close();
  });

  it('refuses start before connection_init with an error, and closes on connection_terminate', async () => {
    const client = await RawClient.open(server.wsUrl, 'graphql-ws');
    client.send({ id: '1', type: 'start', payload: { query: '{ authors { id } }' } });
    expect(await client.next()).toMatchObject({
      type: 'error',
      id: '1',
      payload: { extensions: { code: 'start-failed' } },
    });
    expect(await client.next()).toEqual({ type: 'complete', id: '1' });
    await client.init();
    client.send({ type: 'connection_terminate' });
    expect((await client.waitClosed()).code).toBe(1000);
  });

  it('sends connection_error and closes when connection_init does not authenticate', async () => {
    const client = await RawClient.open(server.wsUrl, 'graphql-ws');
    client.send({
      type: 'connection_init',
      payload: { headers: { 'X-Hasura-Admin-Secret': 'wrong' } },
    });
    expect(await client.next()).toEqual({
      type: 'connection_error',
      payload: 'invalid "x-hasura-admin-secret"/"x-hasura-access-key"',
    });
    expect((await client.waitClosed()).code).toBe(4400);
  });

  it('reports a missing session variable as an error message (query and subscription)', async () => {
    const client = await connect('graphql-ws', {
      headers: { 'X-Hasura-Admin-Secret': ADMIN_SECRET, 'X-Hasura-Role': 'user' },
    });
    const expected = {
      errors: [
        {
          message: 'missing session variable: "x-hasura-user-id"',
          extensions: { path: '$', code: 'not-found' },
        },
      ],
    };
    client.send({ id: 'q', type: 'start', payload: { query: '{ articles { id } }' } });
    expect(await client.next(ofId('q'))).toEqual({ type: 'error', id: 'q', payload: expected });
    expect(await client.next(ofId('q'))).toEqual({ type: 'complete', id: 'q' });
    client.send({ id: 's', type: 'start', payload: { query: 'subscription { articles { id } }' } });
    expect(await client.next(ofId('s'))).toEqual({ type: 'error', id: 's', payload: expected });
    expect(await client.next(ofId('s'))).toEqual({ type: 'complete', id: 's' });
    await client.close();
  });

  it('takes Authorization-style keys from the top level of the payload', async () => {
    const client = await connect('graphql-ws', { 'x-hasura-admin-secret': ADMIN_SECRET });
    client.send({
      id: '1',
      type: 'start',
      payload: { query: '{ authors_aggregate { aggregate { count } } }' },
    });
    expect(await client.next(ofId('1'))).toMatchObject({ type: 'data' });
    await client.close();
  });
});

describe('handshake', () => {
  it('serves /v1alpha1/graphql, speaks the legacy protocol to clients that offer none, and refuses others', async () => {
    const alpha = await RawClient.open(
      server.wsUrl.replace('/v1/', '/v1alpha1/'),
      'graphql-transport-ws',
    );
    await alpha.init();
    await alpha.close();

    const bare = await RawClient.open(server.wsUrl, undefined);
    expect(bare.socket.protocol).toBe('');
    await bare.init();
    bare.send({ id: '1', type: 'start', payload: { query: '{ authors_by_pk(id: 1) { id } }' } });
    expect(await bare.next(ofId('1'))).toMatchObject({ type: 'data' });
    await bare.close();

    await expect(RawClient.open(server.wsUrl, 'some-other-protocol')).rejects.toThrow();
    await expect(
      RawClient.open(server.wsUrl.replace('/v1/graphql', '/v2/graphql'), 'graphql-transport-ws'),
    ).rejects.toThrow(/404/);
  });
});

describe('live queries over WebSocket', () => {
  it('pushes an insert and an update within two refetch intervals, and nothing while unchanged', async () => {
    const client = await connect();
    client.send({
      id: 'live',
      type: 'subscribe',
      payload: { query: 'subscription { authors(order_by: {id: asc}) { id name } }' },
    });
    expect(await client.next(ofId('live'))).toMatchObject({
      type: 'next',
      payload: { data: { authors: [{ name: 'ann' }, { name: 'bob' }] } },
    });

    await sleep(INTERVAL_MS * 4);
    expect(client.messages).toEqual([]);

    await db.pool.query(`INSERT INTO public.authors (name) VALUES ('cid')`);
    let started = Date.now();
    const inserted = await client.next(ofId('live'));
    expect(Date.now() - started).toBeLessThanOrEqual(INTERVAL_MS * 2 + 50);
    expect(inserted).toMatchObject({
      payload: { data: { authors: [{ name: 'ann' }, { name: 'bob' }, { id: 3, name: 'cid' }] } },
    });

    await db.pool.query(`UPDATE public.authors SET name = 'ann2' WHERE id = 1`);
    started = Date.now();
    const updated = await client.next(ofId('live'));
    expect(Date.now() - started).toBeLessThanOrEqual(INTERVAL_MS * 2 + 50);
    expect(updated).toMatchObject({
      payload: { data: { authors: [{ name: 'ann2' }, { name: 'bob' }, { name: 'cid' }] } },
    });

    await sleep(INTERVAL_MS * 4);
    expect(client.messages).toEqual([]);
    await client.close();
  });

  it('multiplexes subscribers with different variables into one cohort and one statement per interval', async () => {
    const before = liveQueryStats();
    const one = await connect();
    const two = await connect();
    const query = 'subscription($id: Int!) { articles(where: {id: {_eq: $id}}) { id title } }';
    one.send({ id: 'a', type: 'subscribe', payload: { query, variables: { id: 1 } } });
    two.send({ id: 'b', type: 'subscribe', payload: { query, variables: { id: 3 } } });
    expect(await one.next(ofId('a'))).toMatchObject({
      payload: { data: { articles: [{ id: 1, title: 'ann one' }] } },
    });
    expect(await two.next(ofId('b'))).toMatchObject({
      payload: { data: { articles: [{ id: 3, title: 'bob one' }] } },
    });
    expect(liveQueryStats()).toMatchObject({
      cohorts: before.cohorts + 1,
      variableSets: before.variableSets + 2,
      subscribers: before.subscribers + 2,
    });

    const start = liveQueryStats();
    await sleep(INTERVAL_MS * 10);
    const end = liveQueryStats();
    const ticks = end.polls - start.polls;
    expect(ticks).toBeGreaterThanOrEqual(5);
    expect(end.statements - start.statements).toBe(ticks);

    await db.pool.query(`UPDATE public.articles SET title = 'bob new' WHERE id = 3`);
    expect(await two.next(ofId('b'))).toMatchObject({
      payload: { data: { articles: [{ id: 3, title: 'bob new' }] } },
    });
    await sleep(INTERVAL_MS * 2);
    expect(one.messages).toEqual([]);

    await one.close();
    await two.close();
    await sleep(20);
    expect(liveQueryStats()).toMatchObject({
      cohorts: before.cohorts,
      subscribers: before.subscribers,
    });
  });

  it('shows a user role only its own rows, and pushes a change only to its owner', async () => {
    const ann = await connect('graphql-transport-ws', asUser('1'));
    const bob = await connect('graphql-ws', asUser('2'));
    const query = 'subscription { articles(order_by: {id: asc}) { id title author { name } } }';
    ann.send({ id: '1', type: 'subscribe', payload: { query } });
    bob.send({ id: '1', type: 'start', payload: { query } });
    expect(await ann.next(ofId('1'))).toEqual({
      type: 'next',
      id: '1',
      payload: {
        data: {
          articles: [
            { id: 1, title: 'ann one', author: { name: 'ann' } },
            { id: 2, title: 'ann two', author: { name: 'ann' } },
          ],
        },
      },
    });
    expect(await bob.next(ofId('1'))).toEqual({
      type: 'data',
      id: '1',
      payload: { data: { articles: [{ id: 3, title: 'bob one', author: { name: 'bob' } }] } },
    });

    // Bob inserts through the engine over the socket; his permission presets the author.
    bob.send({
      id: 'm',
      type: 'start',
      payload: { query: 'mutation { insert_articles_one(object: {title: "bob two"}) { id } }' },
    });
    expect(await bob.next(ofId('m'))).toEqual({
      type: 'data',
      id: 'm',
      payload: { data: { insert_articles_one: { id: 4 } } },
    });
    expect(await bob.next(ofId('m'))).toEqual({ type: 'complete', id: 'm' });
    expect(await bob.next(ofId('1'))).toMatchObject({
      payload: { data: { articles: [{ id: 3 }, { id: 4, title: 'bob two' }] } },
    });
    await sleep(INTERVAL_MS * 3);
    expect(ann.messages).toEqual([]);
    await ann.close();
    await bob.close();
  });

  it('answers introspection-only subscriptions once and __typename through the live path', async () => {
    const client = await connect();
    client.send({
      id: 'i',
      type: 'subscribe',
      payload: { query: 'subscription { __schema { queryType { name } } }' },
    });
    expect(await client.next(ofId('i'))).toEqual({
      type: 'next',
      id: 'i',
      payload: { data: { __schema: { queryType: { name: 'query_root' } } } },
    });
    client.send({
      id: 't',
      type: 'subscribe',
      payload: { query: 'subscription { __typename authors_by_pk(id: 1) { __typename name } }' },
    });
    // A root __typename counts as a root field: two of them need the directive, as in Hasura.
    expect(await client.next(ofId('t'))).toMatchObject({ type: 'error' });
    client.send({
      id: 'u',
      type: 'subscribe',
      payload: { query: 'subscription { authors_by_pk(id: 1) { __typename name } }' },
    });
    expect(await client.next(ofId('u'))).toEqual({
      type: 'next',
      id: 'u',
      payload: { data: { authors_by_pk: { __typename: 'authors', name: 'ann' } } },
    });
    await sleep(INTERVAL_MS * 2);
    expect(client.messages.filter((message) => message.id === 'i' || message.id === 'u')).toEqual(
      [],
    );
    await client.close();
  });

  it('allows several root fields only with @_multiple_top_level_fields', async () => {
    const client = await connect();
    client.send({
      id: 'x',
      type: 'subscribe',
      payload: {
        query: 'subscription { a: authors_by_pk(id: 1) { name } b: authors_by_pk(id: 2) { name } }',
      },
    });
    expect(await client.next(ofId('x'))).toMatchObject({
      type: 'error',
      payload: [
        {
          message: 'subscriptions must select one top level field',
          extensions: { code: 'validation-failed', path: '$' },
        },
      ],
    });
    expect(await client.next(ofId('x'))).toEqual({ type: 'complete', id: 'x' });
    client.send({
      id: 'y',
      type: 'subscribe',
      payload: {
        query:
          'subscription @_multiple_top_level_fields { a: authors_by_pk(id: 1) { name } b: authors_by_pk(id: 2) { name } }',
      },
    });
    expect(await client.next(ofId('y'))).toEqual({
      type: 'next',
      id: 'y',
      payload: { data: { a: { name: 'ann' }, b: { name: 'bob' } } },
    });
    await client.close();
  });
});

describe('JWT sessions', () => {
  it('closes the connection when the token expires', async () => {
    const jwtServer = await startTestEngine(db.url, {
      jwtSecret: JSON.stringify({ type: 'HS256', key: JWT_KEY }),
    });
    try {
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        sub: '1',
        iat: now,
        exp: now + 2,
        'https://hasura.io/jwt/claims': {
          'x-hasura-user-id': '2',
          'x-hasura-default-role': 'user',
          'x-hasura-allowed-roles': ['user'],
        },
      };
      const client = await RawClient.open(jwtServer.wsUrl, 'graphql-transport-ws');
      await client.init({
        headers: { Authorization: `Bearer ${signJwt(claims, 'HS256', JWT_KEY)}` },
      });
      client.send({
        id: 's',
        type: 'subscribe',
        payload: { query: 'subscription { articles { id } }' },
      });
      expect(await client.next(ofId('s'))).toEqual({
        type: 'next',
        id: 's',
        payload: { data: { articles: [{ id: 3 }] } },
      });
      const closed = await client.waitClosed(5000);
      expect(closed.code).toBe(4403);
      expect(Date.now() / 1000).toBeGreaterThanOrEqual(now + 2 - 0.01);

      const bad = await RawClient.open(jwtServer.wsUrl, 'graphql-transport-ws');
      bad.send({
        type: 'connection_init',
        payload: {
          headers: {
            Authorization: `Bearer ${signJwt(claims, 'HS256', 'another-key-another-key-another-key')}`,
          },
        },
      });
      expect((await bad.waitClosed()).code).toBe(4403);
    } finally {
      await jwtServer.close();
    }
  });
});

describe('close()', () => {
  it('closes open sockets with 1001, drops their subscriptions and leaves no timers or sockets behind', async () => {
    // Resource kinds and how many of each are active (sockets, servers, timers).
    const resources = () => {
      const counts: Record<string, number> = {};
      for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
      return counts;
    };
    const baseline = resources();
    const engine = await startTestEngine(db.url, { liveQueryRefetchIntervalMs: INTERVAL_MS });
    const legacy = await RawClient.open(engine.wsUrl, 'graphql-ws');
    await legacy.init();
    const modern = await RawClient.open(engine.wsUrl, 'graphql-transport-ws');
    await modern.init();
    const pending = await RawClient.open(engine.wsUrl, 'graphql-transport-ws');
    legacy.send({ id: '1', type: 'start', payload: { query: 'subscription { authors { id } }' } });
    modern.send({
      id: '1',
      type: 'subscribe',
      payload: { query: 'subscription { articles { id } }' },
    });
    await legacy.next(ofId('1'));
    await modern.next(ofId('1'));

    await engine.close();
    expect((await legacy.waitClosed()).code).toBe(1001);
    expect((await modern.waitClosed()).code).toBe(1001);
    expect((await pending.waitClosed()).code).toBe(1001);
    await sleep(50);
    // Nothing the engine opened is left (other owners' idle timers may only have gone).
    for (const [kind, count] of Object.entries(resources()))
      expect({ kind, count }).toEqual({ kind, count: Math.min(count, baseline[kind] ?? 0) });
  });
});

import { describe, expect, it } from 'vitest';

import { signJwt } from '../auth/index.ts';
import { liveQueryStats } from '../live/index.ts';

import { JWT_KEY, RawClient, sleep, startTestEngine } from './test-fixture.ts';
import { asUser, connect, db, INTERVAL_MS, ofId, useWsEngine } from './ws-world.ts';

/*
 * The engine's WebSocket transport end to end: live queries (pushes, multiplexing, roles), JWT
 * sessions that expire, and close(). The protocols themselves: ws-protocols.test.ts.
 */

useWsEngine();

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

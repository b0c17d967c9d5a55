import { describe, expect, it } from 'vitest';

import { ADMIN_SECRET, RawClient, sleep } from './test-fixture.ts';
import {
  ADMIN,
  connect,
  db,
  graphqlWsClient,
  INTERVAL_MS,
  iterate,
  ofId,
  server,
  useWsEngine,
} from './ws-world.ts';

/*
 * The engine's WebSocket protocols end to end: graphql-transport-ws (with the graphql-ws
 * library's client), Apollo's legacy graphql-ws, and the handshake that picks one.
 */

useWsEngine();

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

import pg from 'pg';
import { describe, expect, it } from 'vitest';

import type { Session } from '../auth/session.ts';
import { introspect } from '../catalog/introspect.ts';
import { loadMetadata } from '../metadata/load.ts';
import { planOperation } from '../plan/operation.ts';
import { buildSchemaModel } from '../schema/build.ts';

import { metadata } from './actions-metadata.ts';
import { asUser, useActionsWorld } from './actions-world.ts';
import { executeAction } from './execute.ts';

/*
 * Synchronous actions that succeed: what the handler receives (payload, headers, request_query)
 * and what the client gets (the output shaped to the selection, relationships to tables under
 * the role's permissions, the handler's Set-Cookie). Refusals before the call are in
 * actions-validation.test.ts, failing handlers in actions-handler-errors.test.ts.
 */

const world = useActionsWorld();
const { gql, received } = world;

describe('actions: success', () => {
  it('sends Hasura payload (action, input, session variables, request query) and shapes the output', async () => {
    const query = `query Echo($tags: [String!], $f: UserFilter) {
      out: echo(id: 5, tags: $tags, filter: $f, mood: HAPPY, amount: 12345678901234567890.123, ref: 42) { __typename note received }
    }`;
    const { status, body } = await gql(query, {
      variables: { tags: 'single', f: { name: 'x', parent: { name: 'y', age: null } } },
      headers: asUser('1'),
    });
    expect(status).toBe(200);
    const data = body['data'] as {
      out: { __typename: string; note: string; received: Record<string, unknown> };
    };
    expect(Object.keys(data.out)).toEqual(['__typename', 'note', 'received']);
    expect(data.out.__typename).toBe('EchoOut');
    expect(data.out.note).toBe('ok');
    expect(data.out.received).toEqual({
      action: { name: 'echo' },
      input: {
        id: 5,
        // A single value where a list is expected is a list of one.
        tags: ['single'],
        // Omitted nullable fields stay omitted; an explicit null is sent.
        filter: { name: 'x', parent: { name: 'y', age: null } },
        mood: 'HAPPY',
        amount: Number('12345678901234567890.123'),
        ref: '42',
      },
      session_variables: { 'x-hasura-role': 'user', 'x-hasura-user-id': '1' },
      request_query: expect.stringContaining('echo(') as unknown,
    });
    const raw = received[0]!;
    expect(raw.path).toBe('/echo');
    expect(raw.headers['content-type']).toBe('application/json');
    expect(raw.headers['user-agent']).toMatch(/^hasura-graphql-engine\//);
  });

  it('sends number literals with their digits, not as rounded doubles', async () => {
    await gql('query { echo(id: 1, amount: 12345678901234567890.123) { note } }');
    expect(received[0]!.text).toContain('"amount":12345678901234567890.123');
  });

  it('copies missing nullable fields as null and nested objects with aliases', async () => {
    const { body } = await gql(`query {
      nested {
        id
        where: address { town: city country __typename }
        addresses { city country }
      }
    }`);
    expect(body).toEqual({
      data: {
        nested: {
          id: 7,
          where: { town: 'Kyiv', country: 'UA', __typename: 'Address' },
          addresses: [{ city: 'Lviv', country: 'UA' }, null, { city: null, country: 'PL' }],
        },
      },
    });
  });

  it('answers scalar and json outputs as the handler sent them', async () => {
    expect((await gql('query { scalar_action }')).body).toEqual({
      data: { scalar_action: 'some-string' },
    });
    expect((await gql('query { json_action }')).body).toEqual({
      data: { json_action: { foo: [1, { bar: null }] } },
    });
  });

  it('runs mutation actions', async () => {
    const { body } = await gql('mutation { create_user(name: "Carol") { id } }');
    expect(body).toEqual({ data: { create_user: { id: 2 } } });
    expect(received[0]!.body['input']).toEqual({ name: 'Carol' });
  });
});

describe('actions: relationships to tables', () => {
  it('joins object and array relationships from the database, with __typename and arguments', async () => {
    const { body } = await gql(`query {
      get_user(id: 1) {
        id
        user { __typename name balance }
        articles(order_by: { id: desc }, limit: 2) { title }
        articles_aggregate { aggregate { count } }
      }
    }`);
    expect(body).toEqual({
      data: {
        get_user: {
          id: 1,
          // numeric stays exact (stringified) through the relationship.
          user: { __typename: 'user', name: 'Alice', balance: '12345678901234567890.25' },
          articles: [{ title: 'a3' }, { title: 'a2' }],
          articles_aggregate: { aggregate: { count: 3 } },
        },
      },
    });
  });

  it('answers list outputs with one query, nulls and unmatched keys included', async () => {
    const { body } = await gql('query { get_users { id user { name } articles { title } } }');
    expect(body).toEqual({
      data: {
        get_users: [
          {
            id: 1,
            user: { name: 'Alice' },
            articles: [{ title: 'a1' }, { title: 'a2' }, { title: 'a3' }],
          },
          null,
          { id: 2, user: { name: 'Bob' }, articles: [{ title: 'b1' }] },
          { id: 99, user: null, articles: [] },
        ],
      },
    });
  });

  it('joins relationships of nested objects', async () => {
    const { body } = await gql('query { nested { owner { id user { email } } } }');
    expect(body).toEqual({
      data: { nested: { owner: { id: 1, user: { email: 'alice@example.com' } } } },
    });
  });

  it("applies the role's select permissions on the target table", async () => {
    const own = await gql('query { get_user(id: 1) { id user { name } articles { title } } }', {
      headers: asUser('1'),
    });
    expect(own.body).toEqual({
      data: {
        get_user: {
          id: 1,
          user: { name: 'Alice' },
          articles: [{ title: 'a1' }, { title: 'a2' }, { title: 'a3' }],
        },
      },
    });
    const other = await gql('query { get_user(id: 2) { id user { name } articles { title } } }', {
      headers: asUser('1'),
    });
    expect(other.body).toEqual({ data: { get_user: { id: 2, user: null, articles: [] } } });
    const hidden = await gql('query { get_user(id: 1) { user { balance } } }', {
      headers: asUser('1'),
    });
    expect(hidden.body).toEqual({
      errors: [
        {
          message: "field 'balance' not found in type: 'user'",
          extensions: {
            path: '$.selectionSet.get_user.selectionSet.user.selectionSet.balance',
            code: 'validation-failed',
          },
        },
      ],
    });
  });

  it('refuses arguments on object relationships at the field path', async () => {
    const { body } = await gql('query { get_user(id: 1) { id user(limit: 4) { name } } }');
    expect(body).toEqual({
      errors: [
        {
          message: "'user' has no argument named 'limit'",
          extensions: {
            path: '$.selectionSet.get_user.selectionSet.user',
            code: 'validation-failed',
          },
        },
      ],
    });
    expect(received).toHaveLength(0);
  });
});

describe('actions: headers', () => {
  it('sends configured headers and forwards client headers, never the admin secret or session headers', async () => {
    const { body } = await gql('query { headers_action { id } }', {
      headers: { ...asUser('1'), authorization: 'Bearer client', 'x-custom': 'yes', cookie: 'a=b' },
    });
    expect(body).toEqual({ data: { headers_action: { id: 1 } } });
    const { headers } = received[0]!;
    expect(headers['x-static']).toBe('static-value');
    expect(headers['x-from-env']).toBe('from-the-environment');
    // A configured header wins over the client's.
    expect(headers['authorization']).toBe('Bearer configured');
    expect(headers['x-custom']).toBe('yes');
    expect(headers['cookie']).toBe('a=b');
    expect(headers['x-forwarded-host']).toMatch(/^127\.0\.0\.1:/);
    expect(headers['user-agent']).toMatch(/^hasura-graphql-engine\//);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-hasura-admin-secret']).toBeUndefined();
    expect(headers['x-hasura-role']).toBeUndefined();
    expect(headers['x-hasura-user-id']).toBeUndefined();
    // The engine's own hop-by-hop header: connections to handlers are kept alive (webhook.ts).
    expect(headers['connection']).toBe('keep-alive');
  });

  it('forwards nothing from the client when forward_client_headers is off', async () => {
    await gql('query { get_users { id } }', { headers: { 'x-custom': 'yes' } });
    expect(received[0]!.headers['x-custom']).toBeUndefined();
  });
});

describe('executeAction: the execution context', () => {
  it('sends the request text as request_query and hands Set-Cookie to the transport', async () => {
    const pool = new pg.Pool({ connectionString: world.database.url, max: 2 });
    try {
      const loaded = await loadMetadata({ object: metadata });
      const tables = loaded.sources[0]!.tables.map((table) => table.table);
      const model = buildSchemaModel(loaded, await introspect(pool, tables, []));
      const session: Session = {
        role: 'user',
        variables: { 'x-hasura-role': 'user', 'x-hasura-user-id': '1' },
        isAdmin: false,
      };
      const query = 'query Q { get_user(id: 1) { id user { name } } }';
      const plan = planOperation(
        { query },
        { model, schema: model.forRole('user'), session, stringifyNumericTypes: true },
      );
      const root = plan.roots[0]!;
      if (root.kind !== 'action') throw new Error('expected an action root');
      const cookies: string[] = [];
      const json = await executeAction(root.plan, {
        session,
        headers: {},
        environment: world.environment,
        pool,
        stringifyNumericTypes: true,
        requestQuery: query,
        setCookie: (values) => cookies.push(...values),
      });
      expect(JSON.parse(json)).toEqual({ id: 1, user: { name: 'Alice' } });
      expect(received[0]!.body['request_query']).toBe(query);
      expect(cookies).toEqual(['session=abc']);
    } finally {
      await pool.end();
    }
  });
});

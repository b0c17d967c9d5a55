import http from 'node:http';
import type { AddressInfo } from 'node:net';

import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Session } from '../auth/session.ts';
import { introspect } from '../catalog/introspect.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded-postgres/index.ts';
import { createEngine } from '../engine.ts';
import type { Engine } from '../engine-options.ts';
import { loadMetadata } from '../metadata/load.ts';
import { planOperation } from '../plan/operation.ts';
import { buildSchemaModel } from '../schema/build.ts';

import { executeAction } from './execute.ts';

/*
 * Synchronous actions end to end: a real engine on embedded PostgreSQL, a local handler that
 * records what it receives and answers per path, and GraphQL over HTTP.
 */

const ADMIN_SECRET = 'test-admin-secret';

const SETUP_SQL = `
CREATE TABLE "user" (id SERIAL PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, balance NUMERIC NOT NULL DEFAULT 0);
CREATE TABLE article (id SERIAL PRIMARY KEY, title TEXT NOT NULL, user_id INTEGER REFERENCES "user"(id));
INSERT INTO "user" (name, email, balance) VALUES ('Alice', 'alice@example.com', 12345678901234567890.25), ('Bob', 'bob@example.com', 1);
INSERT INTO article (title, user_id) VALUES ('a1', 1), ('a2', 1), ('a3', 1), ('b1', 2);
`;

const handler = (path: string) => `{{ACTION_BASE}}${path}`;

const metadata = {
  version: 3,
  sources: [
    {
      name: 'default',
      kind: 'postgres',
      tables: [
        {
          table: { schema: 'public', name: 'user' },
          select_permissions: [
            {
              role: 'user',
              permission: {
                columns: ['id', 'name', 'email'],
                filter: { id: { _eq: 'X-Hasura-User-Id' } },
              },
            },
          ],
        },
        {
          table: { schema: 'public', name: 'article' },
          select_permissions: [
            {
              role: 'user',
              permission: {
                columns: ['id', 'title'],
                filter: { user_id: { _eq: 'X-Hasura-User-Id' } },
                allow_aggregations: true,
              },
            },
          ],
        },
      ],
    },
  ],
  actions: [
    {
      name: 'echo',
      definition: {
        type: 'query',
        arguments: [
          { name: 'id', type: 'Int!' },
          { name: 'tags', type: '[String!]' },
          { name: 'filter', type: 'UserFilter' },
          { name: 'mood', type: 'Mood' },
          { name: 'amount', type: 'numeric' },
          { name: 'ref', type: 'ID' },
        ],
        output_type: 'EchoOut!',
        handler: handler('/echo'),
      },
      permissions: [{ role: 'user' }],
    },
    {
      name: 'create_user',
      definition: {
        kind: 'synchronous',
        arguments: [{ name: 'name', type: 'String!' }],
        output_type: 'UserId',
        handler: handler('/create-user'),
      },
    },
    {
      name: 'get_user',
      definition: {
        type: 'query',
        arguments: [{ name: 'id', type: 'Int!' }],
        output_type: 'UserId!',
        handler: handler('/get-user'),
      },
      permissions: [{ role: 'user' }],
    },
    {
      name: 'get_users',
      definition: { type: 'query', output_type: '[UserId]!', handler: handler('/get-users') },
    },
    {
      name: 'nested',
      definition: { type: 'query', output_type: 'Nested!', handler: handler('/nested') },
    },
    {
      name: 'scalar_action',
      definition: { type: 'query', output_type: 'String!', handler: handler('/scalar') },
    },
    {
      name: 'json_action',
      definition: { type: 'query', output_type: 'json!', handler: handler('/json') },
    },
    {
      name: 'fail',
      definition: {
        type: 'query',
        arguments: [{ name: 'body', type: 'json!' }],
        output_type: 'UserId',
        handler: handler('/fail'),
      },
    },
    {
      name: 'null_field',
      definition: { type: 'query', output_type: 'UserId', handler: handler('/null-field') },
    },
    {
      name: 'missing_field',
      definition: { type: 'query', output_type: 'UserId', handler: handler('/missing-field') },
    },
    {
      name: 'wrong_shape',
      definition: { type: 'query', output_type: 'UserId', handler: handler('/wrong-shape') },
    },
    {
      name: 'not_json',
      definition: { type: 'query', output_type: 'UserId', handler: handler('/not-json') },
    },
    {
      name: 'server_error',
      definition: { type: 'query', output_type: 'UserId', handler: handler('/server-error') },
      permissions: [{ role: 'user' }],
    },
    {
      name: 'unavailable',
      definition: { type: 'query', output_type: 'UserId', handler: handler('/unavailable') },
      permissions: [{ role: 'user' }],
    },
    {
      name: 'slow',
      definition: { type: 'query', output_type: 'UserId', handler: handler('/slow'), timeout: 1 },
    },
    {
      name: 'unreachable',
      definition: { type: 'query', output_type: 'UserId', handler: '{{DEAD_URL}}/x' },
    },
    {
      name: 'transformed',
      definition: {
        type: 'query',
        output_type: 'UserId',
        handler: handler('/get-user'),
        response_transform: {
          version: 2,
          template_engine: 'Kriti',
          body: { action: 'transform', template: '{}' },
        },
      },
    },
    {
      name: 'headers_action',
      definition: {
        type: 'query',
        output_type: 'UserId',
        handler: handler('/headers'),
        forward_client_headers: true,
        headers: [
          { name: 'X-Static', value: 'static-value' },
          { name: 'X-From-Env', value_from_env: 'ACTION_SECRET' },
          { name: 'Authorization', value: 'Bearer configured' },
        ],
      },
      permissions: [{ role: 'user' }],
    },
  ],
  custom_types: {
    scalars: [],
    enums: [{ name: 'Mood', values: [{ value: 'HAPPY' }, { value: 'SAD' }] }],
    input_objects: [
      {
        name: 'UserFilter',
        fields: [
          { name: 'name', type: 'String!' },
          { name: 'age', type: 'Int' },
          { name: 'parent', type: 'UserFilter' },
        ],
      },
    ],
    objects: [
      {
        name: 'UserId',
        fields: [{ name: 'id', type: 'Int!' }],
        relationships: [
          {
            name: 'user',
            type: 'object',
            remote_table: { schema: 'public', name: 'user' },
            field_mapping: { id: 'id' },
          },
          {
            name: 'articles',
            type: 'array',
            remote_table: { schema: 'public', name: 'article' },
            field_mapping: { id: 'user_id' },
          },
        ],
      },
      {
        name: 'EchoOut',
        fields: [
          { name: 'received', type: 'json' },
          { name: 'note', type: 'String' },
        ],
      },
      {
        name: 'Address',
        fields: [
          { name: 'city', type: 'String' },
          { name: 'country', type: 'String!' },
        ],
      },
      {
        name: 'Nested',
        fields: [
          { name: 'id', type: 'Int!' },
          { name: 'address', type: 'Address' },
          { name: 'addresses', type: '[Address]' },
          { name: 'owner', type: 'UserId' },
        ],
      },
    ],
  },
};

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: Record<string, unknown>;
}

let database: EmbeddedPostgres;
let engine: Engine;
let engineUrl: string;
let handlerServer: http.Server;
let environment: Record<string, string>;
const received: Received[] = [];

function reply(response: http.ServerResponse, status: number, body: unknown, raw = false): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Set-Cookie': 'session=abc' });
  response.end(raw ? String(body) : JSON.stringify(body));
}

function route(request: Received, response: http.ServerResponse): void {
  const input = (request.body['input'] ?? {}) as Record<string, unknown>;
  switch (request.path) {
    case '/echo':
      return reply(response, 200, { received: request.body, note: 'ok', extra: 'ignored' });
    case '/create-user':
      return reply(response, 200, { id: 2 });
    case '/get-user':
      return reply(response, 200, { id: input['id'] });
    case '/get-users':
      return reply(response, 200, [{ id: 1 }, null, { id: 2 }, { id: 99 }]);
    case '/nested':
      return reply(response, 200, {
        id: 7,
        address: { city: 'Kyiv', country: 'UA' },
        addresses: [{ city: 'Lviv', country: 'UA' }, null, { country: 'PL' }],
        owner: { id: 1 },
      });
    case '/scalar':
      return reply(response, 200, 'some-string');
    case '/json':
      return reply(response, 200, { foo: [1, { bar: null }] });
    case '/fail':
      return reply(response, 400, input['body']);
    case '/null-field':
      return reply(response, 200, { id: null });
    case '/missing-field':
      return reply(response, 200, { other: 1 });
    case '/wrong-shape':
      return reply(response, 200, [{ id: 1 }]);
    case '/not-json':
      return reply(response, 200, 'this is <html>', true);
    case '/server-error':
      return reply(response, 503, { message: 'down for maintenance' });
    case '/unavailable':
      return reply(response, 503, {
        message: 'The service is briefly unavailable.',
        extensions: { code: 'service-unavailable' },
      });
    case '/slow':
      setTimeout(() => reply(response, 200, { id: 1 }), 2_500).unref();
      return;
    case '/headers':
      return reply(response, 200, { id: 1 });
    default:
      response.writeHead(404);
      response.end();
  }
}

async function gql(
  query: string,
  options: { variables?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${engineUrl}/v1/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hasura-admin-secret': ADMIN_SECRET,
      ...options.headers,
    },
    body: JSON.stringify({ query, variables: options.variables }),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

const asUser = (id: string) => ({ 'x-hasura-role': 'user', 'x-hasura-user-id': id });

beforeAll(async () => {
  handlerServer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: Received = {
        path: request.url ?? '/',
        headers: request.headers,
        text,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
      received.push(entry);
      route(entry, response);
    });
  });
  await new Promise<void>((resolve) => handlerServer.listen(0, '127.0.0.1', resolve));
  const handlerPort = (handlerServer.address() as AddressInfo).port;

  // A port nothing listens on: bind one, note it, close it.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const deadPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  database = await startEmbeddedPostgres({ port: 0 });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(SETUP_SQL);
  await client.end();

  environment = {
    ACTION_BASE: `http://127.0.0.1:${handlerPort}`,
    ACTION_SECRET: 'from-the-environment',
    DEAD_URL: `http://127.0.0.1:${deadPort}`,
  };
  engine = await createEngine({
    databaseUrl: database.url,
    metadata: { object: metadata },
    adminSecret: ADMIN_SECRET,
    stringifyNumericTypes: true,
    environment,
    poolSize: 4,
  });
  engineUrl = (await engine.listen(0)).url;
});

afterAll(async () => {
  await engine?.close();
  await new Promise<void>((resolve) =>
    handlerServer ? handlerServer.close(() => resolve()) : resolve(),
  );
  await database?.stop();
});

beforeEach(() => {
  received.length = 0;
});

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

describe('actions: permissions and validation', () => {
  it('hides actions the role has no permission for', async () => {
    const { body } = await gql('query { get_users { id } }', { headers: asUser('1') });
    expect(body).toEqual({
      errors: [
        {
          message: "field 'get_users' not found in type: 'query_root'",
          extensions: { path: '$.selectionSet.get_users', code: 'validation-failed' },
        },
      ],
    });
    const mutation = await gql('mutation { create_user(name: "x") { id } }', {
      headers: asUser('1'),
    });
    expect(
      (mutation.body['errors'] as Array<{ extensions: { code: string } }>)[0]!.extensions.code,
    ).toBe('validation-failed');
    expect(received).toHaveLength(0);
  });

  it.each([
    ['query { echo { note } }', "missing required field 'id'", '$.selectionSet.echo.args.id'],
    [
      'query { echo(id: "x") { note } }',
      "expected a 32-bit integer for type 'Int', but found a string",
      '$.selectionSet.echo.args.id',
    ],
    [
      'query { echo(id: null) { note } }',
      "expected a 32-bit integer for type 'Int', but found null",
      '$.selectionSet.echo.args.id',
    ],
    [
      'query { echo(id: 1, nope: 1) { note } }',
      "'echo' has no argument named 'nope'",
      '$.selectionSet.echo',
    ],
    [
      'query { echo(id: 1, tags: [1]) { note } }',
      "expected a string for type 'String', but found an integer",
      '$.selectionSet.echo.args.tags[0]',
    ],
    [
      'query { echo(id: 1, tags: [null]) { note } }',
      "expected a string for type 'String', but found null",
      '$.selectionSet.echo.args.tags[0]',
    ],
    [
      'query { echo(id: 1, filter: {age: 3}) { note } }',
      "missing required field 'name'",
      '$.selectionSet.echo.args.filter.name',
    ],
    [
      'query { echo(id: 1, filter: {name: "a", bad: 1}) { note } }',
      "field 'bad' not found in type: 'UserFilter'",
      '$.selectionSet.echo.args.filter.bad',
    ],
    [
      'query { echo(id: 1, filter: {name: "a", parent: 3}) { note } }',
      "expected an object for type 'UserFilter', but found an integer",
      '$.selectionSet.echo.args.filter.parent',
    ],
    [
      'query { echo(id: 1, mood: ANGRY) { note } }',
      'expected one of the values HAPPY, SAD for type \'Mood\', but found "ANGRY"',
      '$.selectionSet.echo.args.mood',
    ],
    [
      'query { echo(id: 1, mood: "HAPPY") { note } }',
      "expected an enum value for type 'Mood', but found a string",
      '$.selectionSet.echo.args.mood',
    ],
    [
      'query { echo(id: 1) { nope } }',
      "field 'nope' not found in type: 'EchoOut'",
      '$.selectionSet.echo.selectionSet.nope',
    ],
    ['query { echo(id: 1) }', 'missing selection set for "EchoOut"', '$.selectionSet.echo'],
    [
      'query { scalar_action { x } }',
      'unexpected subselection set for non-object field',
      '$.selectionSet.scalar_action',
    ],
  ])('refuses %s', async (query, message, path) => {
    const { status, body } = await gql(query);
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [{ message, extensions: { path, code: 'validation-failed' } }],
    });
    expect(received).toHaveLength(0);
  });

  it('refuses actions with request or response transforms instead of calling them untransformed', async () => {
    const { body } = await gql('query { transformed { id } }');
    expect(body).toEqual({
      errors: [
        {
          message:
            "action 'transformed' uses response_transform, which this engine does not support",
          extensions: { path: '$.selectionSet.transformed', code: 'not-supported' },
        },
      ],
    });
    expect(received).toHaveLength(0);
  });

  it('refuses an Int outside 32 bits as parse-failed', async () => {
    const { body } = await gql('query { echo(id: 3000000000) { note } }');
    expect(body).toEqual({
      errors: [
        {
          message:
            'The value 3.0e9 lies outside the bounds or is not an integer. Maybe it is a float, or is there integer overflow?',
          extensions: { path: '$.selectionSet.echo.args.id', code: 'parse-failed' },
        },
      ],
    });
  });

  it('checks variables like literals', async () => {
    const { body } = await gql('query ($f: UserFilter) { echo(id: 1, filter: $f) { note } }', {
      variables: { f: { name: 1 } },
    });
    expect(body).toEqual({
      errors: [
        {
          message: "expected a string for type 'String', but found an integer",
          extensions: { path: '$.selectionSet.echo.args.filter.name', code: 'validation-failed' },
        },
      ],
    });
  });
});

describe('actions: handler errors', () => {
  const fail = (payload: unknown) =>
    gql('query ($b: json!) { fail(body: $b) { id } }', { variables: { b: payload } });

  it('propagates a 4xx message and code', async () => {
    expect((await fail({ message: 'bad email', code: 'invalid-email' })).body).toEqual({
      errors: [{ message: 'bad email', extensions: { path: '$', code: 'invalid-email' } }],
    });
    expect((await fail({ message: 'no code' })).body).toEqual({
      errors: [{ message: 'no code', extensions: { path: '$', code: 'unexpected' } }],
    });
  });

  it('propagates 4xx extensions exactly, ignoring the top-level code', async () => {
    expect(
      (
        await fail({
          message: 'boom',
          code: 'top',
          extensions: { foo: 'bar', code: 'action-error' },
        })
      ).body,
    ).toEqual({
      errors: [{ message: 'boom', extensions: { foo: 'bar', code: 'action-error' } }],
    });
    expect((await fail({ message: 'boom', extensions: { foo: 'bar' } })).body).toEqual({
      errors: [{ message: 'boom', extensions: { foo: 'bar' } }],
    });
  });

  it('refuses a 4xx body without a message', async () => {
    const { body } = await fail({ error: 'x' });
    const error = (
      body['errors'] as Array<{ message: string; extensions: Record<string, unknown> }>
    )[0]!;
    expect(error.message).toBe("the key 'message' was not present");
    expect(error.extensions['code']).toBe('parse-failed');
  });

  it('rejects null for a non-null field and missing non-null fields, with internal details for admin', async () => {
    const nullField = await gql('query { null_field { id } }');
    const error = (
      nullField.body['errors'] as Array<{ message: string; extensions: Record<string, unknown> }>
    )[0]!;
    expect(error.message).toBe('expecting not null value for field "id"');
    expect(error.extensions['code']).toBe('unexpected');
    expect(error.extensions['path']).toBe('$');
    expect(error.extensions['internal']).toMatchObject({
      error: 'unexpected response',
      response: {
        status: 200,
        body: { id: null },
        headers: expect.arrayContaining([{ name: 'Set-Cookie', value: 'session=abc' }]) as unknown,
      },
      request: {
        url: '{{ACTION_BASE}}/null-field',
        body: {
          action: { name: 'null_field' },
          input: {},
          session_variables: { 'x-hasura-role': 'admin' },
        },
        headers: [],
        transformed_request: null,
      },
    });
    expect((await gql('query { missing_field { id } }')).body).toMatchObject({
      errors: [
        {
          message: 'field "id" expected in webhook response, but not found',
          extensions: { path: '$', code: 'unexpected' },
        },
      ],
    });
    expect((await gql('query { wrong_shape { id } }')).body).toMatchObject({
      errors: [
        {
          message: 'got array for the action webhook response, expecting UserId',
          extensions: { code: 'unexpected' },
        },
      ],
    });
  });

  it('reports a non-JSON answer, a 5xx, a timeout and an unreachable handler as unexpected', async () => {
    const cases: Array<[string, string]> = [
      ['query { not_json { id } }', 'not a valid json response from webhook'],
      ['query { server_error { id } }', 'internal error'],
      ['query { slow { id } }', 'http exception when calling webhook'],
      ['query { unreachable { id } }', 'http exception when calling webhook'],
    ];
    for (const [query, message] of cases) {
      const { body } = await gql(query);
      const errors = body['errors'] as Array<{
        message: string;
        extensions: Record<string, unknown>;
      }>;
      expect(errors[0]!.message, query).toBe(message);
      expect(errors[0]!.extensions['code'], query).toBe('unexpected');
      expect(errors[0]!.extensions['internal'], query).toBeDefined();
    }
  });

  it("answers a handler's 503 as HTTP 503: with the handler's code when it gives one", async () => {
    const coded = await gql('query { unavailable { id } }', { headers: asUser('1') });
    expect(coded.status).toBe(503);
    expect(coded.headers.get('retry-after')).toBe('1');
    expect(coded.body).toEqual({
      errors: [
        {
          message: 'The service is briefly unavailable.',
          extensions: { code: 'service-unavailable' },
        },
      ],
    });
    // Without a code it stays Hasura's `internal error`, still with the retryable status.
    const bare = await gql('query { server_error { id } }', { headers: asUser('1') });
    expect(bare.status).toBe(503);
    expect(bare.body).toEqual({
      errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }],
    });
  });

  it('shows internal details to admins only', async () => {
    const { body } = await gql('query { server_error { id } }', { headers: asUser('1') });
    expect(body).toEqual({
      errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }],
    });
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
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
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
        environment,
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

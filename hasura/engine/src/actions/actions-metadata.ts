/*
 * The project the actions suites serve: two tables with a user's select permissions, and one
 * action per behaviour under test, each pointing at a path of the recording handler
 * (actions-world.ts). {{ACTION_BASE}} and {{DEAD_URL}} are filled from the engine's environment.
 */

export const SETUP_SQL = `
CREATE TABLE "user" (id SERIAL PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, balance NUMERIC NOT NULL DEFAULT 0);
CREATE TABLE article (id SERIAL PRIMARY KEY, title TEXT NOT NULL, user_id INTEGER REFERENCES "user"(id));
INSERT INTO "user" (name, email, balance) VALUES ('Alice', 'alice@example.com', 12345678901234567890.25), ('Bob', 'bob@example.com', 1);
INSERT INTO article (title, user_id) VALUES ('a1', 1), ('a2', 1), ('a3', 1), ('b1', 2);
`;

const handler = (path: string) => `{{ACTION_BASE}}${path}`;

export const metadata = {
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

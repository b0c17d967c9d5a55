import {
  buildClientSchema,
  getIntrospectionQuery,
  printSchema,
  type IntrospectionQuery,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine } from '../engine.ts';
import type { Engine, MetadataSource } from '../engine-options.ts';

import { buildGraphQLSchema } from './graphql-schema.ts';
import {
  FIXTURE_METADATA,
  loadSchemaModel,
  PROJECT_METADATA,
  startFixtureDatabase,
  type FixtureDatabase,
} from './graphql-schema.test-fixture.ts';
import type { SchemaModel } from './model.ts';

interface GraphQLResult {
  data?: Record<string, unknown>;
  errors?: Array<{ message: string; extensions: { code: string; path: string } }>;
}

interface Served {
  engine: Engine;
  url: string;
  model: SchemaModel;
}

let db: FixtureDatabase;
let fixture: Served;
let project: Served;

async function serve(metadata: MetadataSource): Promise<Served> {
  const engine = await createEngine({ databaseUrl: db.url, metadata, poolSize: 2 });
  const { url } = await engine.listen(0);
  return { engine, url, model: await loadSchemaModel(db.pool, metadata) };
}

async function post(
  served: Served,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<GraphQLResult> {
  const response = await fetch(`${served.url}/v1/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as GraphQLResult;
}

const asRole = (role: string): Record<string, string> =>
  role === 'admin' ? {} : { 'x-hasura-role': role, 'x-hasura-user-id': 'u1' };

beforeAll(async () => {
  db = await startFixtureDatabase();
  fixture = await serve({ object: FIXTURE_METADATA });
  project = await serve(PROJECT_METADATA);
});
afterAll(async () => {
  await fixture?.engine.close();
  await project?.engine.close();
  await db?.stop();
});

describe('the standard introspection query over HTTP', () => {
  const cases: Array<['fixture' | 'project', string]> = [
    ['fixture', 'admin'],
    ['fixture', 'user'],
    ['fixture', 'anonymous'],
    ['fixture', 'nobody'],
    ['project', 'admin'],
    ['project', 'user'],
  ];
  it.each(cases)('%s metadata as %s answers the schema the engine prints', async (name, role) => {
    const served = name === 'fixture' ? fixture : project;
    const result = await post(
      served,
      { query: getIntrospectionQuery({ descriptions: true }), operationName: 'IntrospectionQuery' },
      asRole(role),
    );
    expect(result.errors).toBeUndefined();
    const client = buildClientSchema(result.data as unknown as IntrospectionQuery);
    expect(printSchema(client)).toBe(printSchema(buildGraphQLSchema(served.model.forRole(role))));
  });
});

describe('introspection fields in an operation', () => {
  it('answers __schema and __type with aliases, fragments and variables, beside other root fields', async () => {
    const query = `
      query Mixed($name: String!, $withFields: Boolean!, $unused: Int) {
        t: __type(name: $name) { name kind fields @include(if: $withFields) { name } }
        ...Roots
        ... on query_root { skipped: __type(name: "author") @skip(if: true) { name } }
        author(order_by: { id: asc }, limit: 1) { id }
        __typename
      }
      fragment Roots on query_root { s: __schema { queryType { ...Named } mutationType { ...Named } } }
      fragment Named on __Type { name }`;
    const result = await post(
      fixture,
      { query, variables: { name: 'article_select_column', withFields: false, unused: 1 } },
      asRole('user'),
    );
    expect(result).toEqual({
      data: {
        t: { name: 'article_select_column', kind: 'ENUM' },
        s: { queryType: { name: 'query_root' }, mutationType: { name: 'mutation_root' } },
        author: [{ id: 1 }],
        __typename: 'query_root',
      },
    });
  });

  it('answers __type of a type the role cannot see with null', async () => {
    const result = await post(
      fixture,
      { query: '{ __type(name: "audit_log") { name } }' },
      asRole('user'),
    );
    expect(result).toEqual({ data: { __type: null } });
  });

  it('refuses malformed introspection as a validation error', async () => {
    const missing = await post(fixture, { query: '{ __type { name } }' });
    expect(missing.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(missing.errors?.[0]?.message).toMatch(/name/);
    const unknown = await post(fixture, { query: '{ __schema { colour } }' });
    expect(unknown).toEqual({
      errors: [
        {
          message: "field 'colour' not found in type: '__Schema'",
          extensions: { path: '$', code: 'validation-failed' },
        },
      ],
    });
  });
});

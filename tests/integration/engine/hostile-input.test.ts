import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '@app/engine';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../support/engine.ts';
import { DEV_JWT_SECRET } from '../../support/jwt.ts';

/*
 * Defects the hostile-input checks found in the engine (issue 11,
 * tests/reliability/hostile/), each answered here with a clear error or the right data:
 *
 * - an aggregate that selects only `__typename` ran per row: "more than one row returned by a
 *   subquery", a 500;
 * - `max`/`min` of a uuid column, which the schema offers (as Hasura's does), called an
 *   aggregate PostgreSQL does not have: a 500;
 * - `distinct_on: []` was `DISTINCT ON ()`, a syntax error: a 500;
 * - an upsert naming a column twice in `update_columns` set it twice: a 500;
 * - `where` nested a few thousand levels deep (in a variable) overflowed the planner's stack,
 *   a few hundred Postgres' (PGlite), and relationships 40 deep kept Postgres planning for
 *   minutes: input is now bounded (ENGINE_MAX_INPUT_DEPTH);
 * - a megabyte batch of 20,000 queries ran them all: batches are bounded (ENGINE_MAX_BATCH_SIZE);
 * - `_regex`/`_similar` patterns of a few thousand characters kept Postgres matching for a
 *   minute, and hung PGlite: patterns are bounded (ENGINE_MAX_PATTERN_LENGTH);
 * - relationships that fan out (lists within lists) built tens of megabytes of JSON from a
 *   one-line query, or ran for minutes: the rows an operation may build are estimated and
 *   bounded (ENGINE_MAX_ESTIMATED_ROWS);
 * - one WebSocket with 20,000 live queries kept every other client waiting: operations per
 *   connection are bounded (ENGINE_MAX_WS_OPERATIONS);
 * - `_in`/`_nin` on a jsonb column cast the whole list to jsonb and passed string items as raw
 *   text: a 500 (the staff audit log's before/after); each item is now a JSON value.
 */

const metadata = {
  version: 3,
  sources: [
    {
      name: 'default',
      tables: [
        {
          table: { schema: 'public', name: 'parent' },
          array_relationships: [
            {
              name: 'children',
              using: { foreign_key_constraint_on: { column: 'parent_id', table: 'child' } },
            },
          ],
          select_permissions: [
            { role: 'anonymous', permission: { columns: ['id', 'name'], filter: {} } },
          ],
        },
        {
          table: { schema: 'public', name: 'child' },
          object_relationships: [
            { name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } },
          ],
          select_permissions: [
            {
              role: 'anonymous',
              permission: {
                columns: ['id', 'parent_id', 'token'],
                filter: {},
                allow_aggregations: true,
              },
            },
          ],
        },
      ],
    },
  ],
};

const admin = { 'x-hasura-admin-secret': TEST_ADMIN_SECRET };

describe.each(databaseTargets)(
  'hostile input the engine refuses or answers, on $name',
  (target) => {
    let db: TestDatabase;
    let engine: Engine;
    let url: string;

    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${url}/v1/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    beforeAll(async () => {
      db = await target.create();
      await db.pool.query(`
      CREATE TABLE parent (id serial PRIMARY KEY, name text NOT NULL);
      CREATE TABLE child (id serial PRIMARY KEY, parent_id int NOT NULL REFERENCES parent (id), token uuid);
      CREATE TABLE empty_table (id serial PRIMARY KEY);
      CREATE TABLE doc (id serial PRIMARY KEY, body jsonb NOT NULL);
      INSERT INTO doc (body) VALUES ('"v0"'), ('1'), ('{"a": 1}');
      INSERT INTO parent (name) VALUES ('a'), ('b');
      INSERT INTO child (parent_id, token) VALUES
        (1, '0f000000-0000-0000-0000-000000000001'),
        (1, 'a0000000-0000-0000-0000-000000000002'),
        (2, '9fffffff-ffff-ffff-ffff-ffffffffffff');
    `);
      engine = await createEngine({
        databaseUrl: db.url,
        metadata: {
          object: {
            ...metadata,
            sources: [
              {
                ...metadata.sources[0]!,
                tables: [
                  ...metadata.sources[0]!.tables,
                  { table: { schema: 'public', name: 'empty_table' } },
                  { table: { schema: 'public', name: 'doc' } },
                ],
              },
            ],
          },
        },
        adminSecret: TEST_ADMIN_SECRET,
        jwtSecret: DEV_JWT_SECRET,
        unauthorizedRole: 'anonymous',
        poolSize: 2,
        limits: { maxBatchSize: 5, maxEstimatedRows: 1000, maxOperationsPerConnection: 3 },
      });
      url = (await engine.listen(0)).url;
    });
    afterAll(async () => {
      await engine?.close();
      await db?.dispose();
    });

    it('filters a jsonb column by a list of JSON values with _in and _nin', async () => {
      const query = `query ($l: [jsonb!]) {
        in: doc(where: { body: { _in: $l } }, order_by: { id: asc }) { id }
        nin: doc(where: { body: { _nin: $l } }, order_by: { id: asc }) { id }
      }`;
      const result = await post({ query, variables: { l: ['v0', 1, { b: 2 }] } }, admin);
      expect(result).toEqual({
        status: 200,
        body: { data: { in: [{ id: 1 }, { id: 2 }], nin: [{ id: 3 }] } },
      });
    });

    it('answers an aggregate that selects nothing but __typename, once, with or without rows', async () => {
      const result = await post(
        {
          query: `{
          child_aggregate { __typename aggregate { __typename max { __typename } } }
          empty_table_aggregate { __typename aggregate { __typename } }
          parent { children_aggregate { __typename } }
        }`,
        },
        admin,
      );
      expect(result.body).toEqual({
        data: {
          child_aggregate: {
            __typename: 'child_aggregate',
            aggregate: {
              __typename: 'child_aggregate_fields',
              max: { __typename: 'child_max_fields' },
            },
          },
          empty_table_aggregate: {
            __typename: 'empty_table_aggregate',
            aggregate: { __typename: 'empty_table_aggregate_fields' },
          },
          parent: [
            { children_aggregate: { __typename: 'child_aggregate' } },
            { children_aggregate: { __typename: 'child_aggregate' } },
          ],
        },
      });
      // Aggregates themselves are unchanged.
      const counted = await post({
        query:
          '{ child_aggregate(where: {parent_id: {_eq: 1}}) { aggregate { count } nodes { id } } }',
      });
      expect(counted.body).toEqual({
        data: { child_aggregate: { aggregate: { count: 2 }, nodes: [{ id: 1 }, { id: 2 }] } },
      });
    });

    it('refuses input nested deeper than the limit, literal or variable, with a validation error', async () => {
      const chain = (depth: number) =>
        `${'{"_not":'.repeat(depth)}{"id":{"_eq":1}}${'}'.repeat(depth)}`;
      const query = 'query ($w: child_bool_exp) { child(where: $w) { id } }';
      // 30 + the two levels of the comparison: within the default 32.
      const allowed = await post(
        `{"query":${JSON.stringify(query)},"variables":{"w":${chain(30)}}}`,
      );
      expect(allowed.body).toEqual({ data: { child: [{ id: 1 }] } });
      for (const depth of [31, 400, 3000]) {
        const refused = await post(
          `{"query":${JSON.stringify(query)},"variables":{"w":${chain(depth)}}}`,
        );
        expect(refused.status).toBe(200);
        expect(refused.body).toEqual({
          errors: [
            {
              message: 'an argument or variable is nested deeper than 32 levels',
              extensions: { path: '$.variables.w', code: 'validation-failed' },
            },
          ],
        });
      }
      const literal = await post({
        query: `{ child(where: ${'{parent: {children: '.repeat(20)}{id: {_eq: 1}}${'}}'.repeat(20)}) { id } }`,
      });
      expect(literal.body).toMatchObject({
        errors: [{ extensions: { code: 'validation-failed' } }],
      });
    });

    it('answers max and min of a uuid column, and orders by them', async () => {
      const result = await post({
        query: `{
          child_aggregate { aggregate { max { token } min { token } } }
          parent(order_by: {children_aggregate: {max: {token: desc}}}) { id children_aggregate { aggregate { min { token } } } }
        }`,
      });
      expect(result.body).toEqual({
        data: {
          child_aggregate: {
            aggregate: {
              max: { token: 'a0000000-0000-0000-0000-000000000002' },
              min: { token: '0f000000-0000-0000-0000-000000000001' },
            },
          },
          parent: [
            {
              id: 1,
              children_aggregate: {
                aggregate: { min: { token: '0f000000-0000-0000-0000-000000000001' } },
              },
            },
            {
              id: 2,
              children_aggregate: {
                aggregate: { min: { token: '9fffffff-ffff-ffff-ffff-ffffffffffff' } },
              },
            },
          ],
        },
      });
    });

    it('refuses lists within lists that may build more rows than allowed, unless limited', async () => {
      const refused = await post({
        query: '{ parent { children { parent { children { id } } } } }',
      });
      expect(refused.body).toEqual({
        errors: [
          {
            message:
              'the operation may return about 1020100 rows, more than the 1000 allowed: bound its lists with "limit"',
            extensions: { path: '$', code: 'validation-failed' },
          },
        ],
      });
      const limited = await post({
        query:
          '{ parent(limit: 2, order_by: {id: asc}) { children(limit: 3, order_by: {id: asc}) { parent { children(limit: 1) { id } } } } }',
      });
      expect(limited.body).toEqual({
        data: {
          parent: [
            {
              children: [
                { parent: { children: [{ id: 1 }] } },
                { parent: { children: [{ id: 1 }] } },
              ],
            },
            { children: [{ parent: { children: [{ id: 3 }] } }] },
          ],
        },
      });
      // Aggregates' nodes count as a list.
      const aggregate = await post({
        query: '{ child_aggregate { nodes { parent { children { id } } } } }',
      });
      expect(aggregate.body).toMatchObject({
        errors: [{ extensions: { code: 'validation-failed' } }],
      });
    });

    it('refuses more operations at once on one WebSocket than allowed, and keeps the others', async () => {
      const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/graphql`, [
        'graphql-transport-ws',
      ]);
      const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
      socket.on('message', (data: Buffer) =>
        messages.push(JSON.parse(data.toString('utf8')) as (typeof messages)[number]),
      );
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send('{"type":"connection_init"}');
      for (let i = 0; i < 5; i += 1)
        socket.send(
          JSON.stringify({
            type: 'subscribe',
            id: `s${i}`,
            payload: { query: `subscription { p${i}: parent(order_by: {id: asc}) { id } }` },
          }),
        );
      const deadline = Date.now() + 10_000;
      while (
        messages.filter((message) => message.type === 'next').length < 3 &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 20));
      const errors = messages.filter((message) => message.type === 'error');
      expect(errors.map((message) => message.id)).toEqual(['s3', 's4']);
      expect(errors[0]!.payload).toEqual([
        {
          message: 'at most 3 operations may run at once on one connection',
          extensions: { path: '$', code: 'validation-failed' },
        },
      ]);
      expect(
        messages
          .filter((message) => message.type === 'next')
          .map((message) => message.id)
          .sort(),
      ).toEqual(['s0', 's1', 's2']);
      // Stopping one makes room for another.
      socket.send('{"type":"complete","id":"s0"}');
      socket.send(
        JSON.stringify({
          type: 'subscribe',
          id: 's5',
          payload: { query: 'subscription { parent(limit: 1) { id } }' },
        }),
      );
      while (!messages.some((message) => message.id === 's5') && Date.now() < deadline + 5_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(messages.find((message) => message.id === 's5')?.type).toBe('next');
      expect(socket.readyState).toBe(WebSocket.OPEN);
      socket.close();
    });

    it('sets a column named twice in update_columns once', async () => {
      const result = await post(
        {
          query: `mutation {
            insert_child(
              objects: [{id: 3, parent_id: 2}]
              on_conflict: {constraint: child_pkey, update_columns: [parent_id, parent_id]}
            ) { affected_rows returning { id parent_id } }
          }`,
        },
        admin,
      );
      expect(result.body).toEqual({
        data: { insert_child: { affected_rows: 1, returning: [{ id: 3, parent_id: 2 }] } },
      });
    });

    it('takes an empty distinct_on as no distinct_on', async () => {
      const result = await post({
        query: `{
          child(distinct_on: [], order_by: [{}, {id: asc}], limit: 2) { id }
          child_aggregate(distinct_on: [], limit: 1) { __typename aggregate { count } }
        }`,
      });
      expect(result.body).toEqual({
        data: {
          child: [{ id: 1 }, { id: 2 }],
          child_aggregate: { __typename: 'child_aggregate', aggregate: { count: 1 } },
        },
      });
    });

    it('refuses a batch over the configured size, and answers one within it', async () => {
      const member = { query: '{ parent(order_by: {id: asc}) { name } }' };
      const within = await post(Array.from({ length: 5 }, () => member));
      expect(within.body).toHaveLength(5);
      const over = await post(Array.from({ length: 6 }, () => member));
      expect(over.body).toEqual({
        errors: [
          {
            message: 'a batched request may hold at most 5 operations',
            extensions: { path: '$', code: 'bad-request' },
          },
        ],
      });
    });

    it('refuses a _regex or _similar pattern over the limit, and leaves _ilike alone', async () => {
      const query = 'query ($p: String) { parent(where: {name: {OP: $p}}) { name } }';
      for (const op of ['_regex', '_iregex', '_nregex', '_niregex', '_similar', '_nsimilar']) {
        const refused = await post({
          query: query.replace('OP', op),
          variables: { p: 'a*'.repeat(65) },
        });
        expect(refused.body).toEqual({
          errors: [
            {
              message: `a ${op} pattern may be at most 128 characters long`,
              extensions: {
                path: `$.selectionSet.parent.args.where.name.${op}`,
                code: 'validation-failed',
              },
            },
          ],
        });
      }
      const allowed = await post({
        query: query.replace('OP', '_regex'),
        variables: { p: `^${'a?'.repeat(62)}a$` },
      });
      expect(allowed.body).toEqual({ data: { parent: [{ name: 'a' }] } });
      const like = await post({
        query: query.replace('OP', '_ilike'),
        variables: { p: '%'.repeat(5000) },
      });
      expect(like.body).toEqual({ data: { parent: [{ name: 'a' }, { name: 'b' }] } });
    });
  },
);

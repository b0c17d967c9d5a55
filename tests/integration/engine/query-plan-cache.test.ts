import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLogger } from '@app/shared/log';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, TEST_ADMIN_SECRET, type TestEngine } from '../../support/engine.ts';
import { bearerFor } from '../../support/jwt.ts';
import { ALICE, BOB, OWN, sourceMetadata } from '../../support/owned-rows.ts';

/*
 * The query-plan cache (hasura/engine/src/execute/query-cache.ts) keeps a query's compiled
 * statement and re-binds it to later requests. Whatever it keeps, every answer must be the one
 * the engine gives without it: the same rows for each user (the session's values are bound
 * again, never kept), the same errors for bad values (every check planning made runs again),
 * and a new plan whenever a value shapes the statement (a limit, `_is_null`, a `where` object).
 * Two engines on one database, one with the cache and one without, answer the same sequence
 * of requests; the cached one's /metrics show that it did re-bind.
 */

const metadata = sourceMetadata([
  {
    table: { schema: 'public', name: 'item' },
    select_permissions: [
      {
        role: 'user',
        permission: {
          columns: ['id', 'owner', 'name', 'score', 'note', 'data'],
          filter: OWN,
          allow_aggregations: true,
        },
      },
    ],
  },
]);

const ADMIN = { 'x-hasura-admin-secret': TEST_ADMIN_SECRET };
/** The admin acting as a user without saying which: the session lacks x-hasura-user-id. */
const USER_WITHOUT_ID = { ...ADMIN, 'x-hasura-role': 'user' };

interface Step {
  query: string;
  variables?: Record<string, unknown>;
  headers: Record<string, string>;
  operationName?: string;
}

const BY_PK = 'query Item($id: Int!) { item_by_pk(id: $id) { id name owner score } }';
const IN_LIST =
  'query In($ids: [Int!]!) { item(where: {id: {_in: $ids}}, order_by: {id: asc}) { id name } }';
const LIMITED =
  'query Limited($n: Int, $min: numeric!) { item(where: {score: {_gt: $min}}, order_by: {id: asc}, limit: $n) { id } }';
const NULL_NOTE =
  'query Notes($missing: Boolean!) { item(where: {note: {_is_null: $missing}}, order_by: {id: asc}, limit: 3) { id note } }';
const PATTERN =
  'query Pattern($p: String!) { item(where: {name: {_regex: $p}}, order_by: {id: asc}) { id } }';
const WHERE = 'query Where($w: item_bool_exp!) { item(where: $w, order_by: {id: asc}) { id } }';
const OPTIONAL =
  'query Optional($name: String) { item(where: {name: {_eq: $name}}, order_by: {id: asc}, limit: 2) { id } }';
const SKIP =
  'query Skip($skip: Boolean!, $id: Int!) { item_by_pk(id: $id) { id name @skip(if: $skip) } }';
const TWICE = `query Twice($id: Int!) {
  a: item(where: {id: {_eq: $id}}) { ...row }
  b: item_aggregate(where: {id: {_lte: $id}}) { aggregate { count } }
}
fragment row on item { id name }`;
const TWO_OPERATIONS = `query First($id: Int!) { item_by_pk(id: $id) { id } }
query Second($id: Int!) { item_by_pk(id: $id) { name } }`;
const JSON_FIELD =
  'query Json($path: String!, $id: Int!) { item_by_pk(id: $id) { id data(path: $path) } }';
const HAS_KEY =
  'query HasKey($key: String!) { item(where: {data: {_has_key: $key}}, order_by: {id: asc}) { id } }';

function steps(): Step[] {
  const list: Step[] = [];
  const push = (query: string, headers: Record<string, string>, ...values: object[]) => {
    for (const variables of values)
      list.push({ query, headers, variables: variables as Record<string, unknown> });
  };
  // Each user sees their own rows through one kept statement: the session is bound each time.
  push(BY_PK, bearerFor(ALICE), { id: 1 }, { id: 2 }, { id: 3 }, { id: 4 });
  push(BY_PK, bearerFor(BOB), { id: 1 }, { id: 2 }, { id: 3 }, { id: 4 });
  push(BY_PK, ADMIN, { id: 2 }, { id: 3 });
  push(BY_PK, bearerFor(ALICE), { id: 5 }, { id: 6 });
  // Bad values on a kept statement: the same errors as planning reports.
  push(BY_PK, bearerFor(ALICE), { id: 'seven' }, { id: 7.5 }, { id: 2 ** 40 }, { id: '9' }, {});
  push(BY_PK, USER_WITHOUT_ID, { id: 1 }, { id: 2 });
  push(IN_LIST, bearerFor(BOB), { ids: [2, 4] }, { ids: [1, 2, 3, 4, 5, 6] }, { ids: [] });
  push(IN_LIST, bearerFor(BOB), { ids: [2, 'x'] }, { ids: 4 }, { ids: [6, 8] });
  // A limit shapes the statement: each value plans (or finds) its own.
  push(LIMITED, bearerFor(ALICE), { n: 1, min: '3' }, { n: 3, min: '3' }, { n: 1, min: '10' });
  push(LIMITED, bearerFor(ALICE), { min: '1.5' }, { n: 2, min: 'abc' }, { n: -1, min: '1' });
  push(NULL_NOTE, bearerFor(ALICE), { missing: true }, { missing: false }, { missing: true });
  push(NULL_NOTE, bearerFor(ALICE), { missing: 'yes' });
  // The pattern limit (issue 11) holds on a kept statement.
  push(PATTERN, bearerFor(BOB), { p: '^item 1' }, { p: 'x'.repeat(200) }, { p: '2$' }, { p: 5 });
  push(
    WHERE,
    bearerFor(ALICE),
    { w: { id: { _lt: 5 } } },
    { w: { id: { _gt: 30 } } },
    { w: { name: { _like: 'item 1%' } } },
    { w: { id: { _lt: 5 } } },
  );
  push(OPTIONAL, bearerFor(ALICE), { name: 'item 3' }, {}, { name: 'item 5' }, { name: null });
  push(
    SKIP,
    bearerFor(ALICE),
    { skip: false, id: 1 },
    { skip: true, id: 3 },
    { skip: false, id: 5 },
  );
  push(TWICE, bearerFor(BOB), { id: 4 }, { id: 10 }, { id: 'z' });
  push(
    JSON_FIELD,
    bearerFor(BOB),
    { path: 'kind', id: 2 },
    { path: 'size', id: 4 },
    { path: 'kind', id: 6 },
  );
  push(HAS_KEY, bearerFor(BOB), { key: 'kind' }, { key: 'size' }, { key: 'kind' });
  for (const operationName of ['First', 'Second', 'First'])
    list.push({
      query: TWO_OPERATIONS,
      headers: bearerFor(ALICE),
      variables: { id: 3 },
      operationName,
    });
  return list;
}

async function answer(engine: TestEngine, step: Step) {
  const response = await fetch(`${engine.url}/v1/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...step.headers },
    body: JSON.stringify({
      query: step.query,
      variables: step.variables,
      operationName: step.operationName,
    }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  return { status: response.status, body };
}

async function planCacheCounts(engine: TestEngine): Promise<{ hit: number; miss: number }> {
  const text = await (await fetch(`${engine.url}/metrics`)).text();
  const count = (result: string) =>
    Number(
      new RegExp(`^graphql_query_plan_cache_total\\{result="${result}"[^}]*\\} (\\d+)`, 'm').exec(
        text,
      )?.[1] ?? 0,
    );
  return { hit: count('hit'), miss: count('miss') };
}

describe.each(databaseTargets)('query-plan cache on $name', (target) => {
  let db: TestDatabase;
  let cached: TestEngine;
  let uncached: TestEngine;

  beforeAll(async () => {
    db = await target.create();
    await db.pool.query(
      `CREATE TABLE item (
        id int PRIMARY KEY, owner uuid NOT NULL, name text NOT NULL, score numeric NOT NULL,
        note text, data jsonb
      )`,
    );
    await db.pool.query(
      `INSERT INTO item
       SELECT n, CASE WHEN n % 2 = 0 THEN $2::uuid ELSE $1::uuid END, 'item ' || n, n * 1.5,
              CASE WHEN n % 3 = 0 THEN NULL ELSE 'note ' || n END,
              CASE WHEN n % 4 = 0 THEN '{"size": 4}'::jsonb ELSE jsonb_build_object('kind', 'k' || n) END
       FROM generate_series(1, 40) AS n`,
      [ALICE, BOB],
    );
    const observed = {
      logger: createLogger('engine', { level: 'silent' }),
      observability: { token: undefined },
    };
    cached = await startTestEngine(db.url, { object: metadata }, observed);
    uncached = await startTestEngine(db.url, { object: metadata }, { queryPlanCache: false });
  }, 60_000);

  afterAll(async () => {
    await cached?.close();
    await uncached?.close();
    await db?.dispose();
  });

  it('answers every request exactly as the engine without the cache does', async () => {
    const sequence = steps();
    const outcomes = { data: 0, errors: 0 };
    // Twice through: the second pass meets every statement the first one kept.
    for (const step of [...sequence, ...sequence]) {
      const [withCache, without] = await Promise.all([
        answer(cached, step),
        answer(uncached, step),
      ]);
      expect({ step, ...withCache }).toEqual({ step, ...without });
      outcomes[withCache.body.data === undefined ? 'errors' : 'data'] += 1;
    }
    // The sequence exercises both: rows for good values, errors for bad ones.
    expect(outcomes.data).toBeGreaterThan(2 * 45);
    expect(outcomes.errors).toBeGreaterThan(2 * 12);
  });

  it('shows each user only their rows through one kept statement', async () => {
    const before = await planCacheCounts(cached);
    const owners = [];
    for (const [user, id] of [
      [ALICE, 11],
      [BOB, 12],
      [ALICE, 12],
      [BOB, 11],
    ] as const) {
      const { body } = await answer(cached, {
        query: BY_PK,
        headers: bearerFor(user),
        variables: { id },
      });
      owners.push((body.data as { item_by_pk: { owner: string } | null }).item_by_pk);
    }
    expect(owners.map((row) => row?.owner ?? null)).toEqual([ALICE, BOB, null, null]);
    const after = await planCacheCounts(cached);
    // BY_PK was kept by the first test: all four re-bound it.
    expect(after.hit - before.hit).toBe(4);
    expect(after.miss - before.miss).toBe(0);
  });

  it('re-binds most of a repeated sequence instead of planning it again', async () => {
    const { hit, miss } = await planCacheCounts(cached);
    expect(hit).toBeGreaterThan(miss);
  });
});

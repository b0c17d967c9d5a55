import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, type TestEngine } from '../../support/engine.ts';
import { bearerFor, signHs256, userClaims } from '../../support/jwt.ts';
import { ALICE, BOB, OWN, sourceMetadata } from '../../support/owned-rows.ts';

/*
 * Row ownership as the product relies on it: with the usual `owner = X-Hasura-User-Id`
 * permissions, one user can never read, change or delete another's rows, nor write rows in
 * another's name; and only a valid token from our key gets a role at all.
 */

const metadata = sourceMetadata([
  {
    table: { schema: 'public', name: 'notes' },
    select_permissions: [
      {
        role: 'user',
        permission: {
          columns: ['id', 'owner', 'body'],
          filter: OWN,
          allow_aggregations: true,
        },
      },
    ],
    insert_permissions: [
      {
        role: 'user',
        permission: { columns: ['body'], check: OWN, set: { owner: 'X-Hasura-User-Id' } },
      },
    ],
    update_permissions: [
      { role: 'user', permission: { columns: ['body'], filter: OWN, check: OWN } },
    ],
    delete_permissions: [{ role: 'user', permission: { filter: OWN } }],
  },
]);

describe('row ownership and tokens through the engine', () => {
  let db: TestDatabase;
  let engine: TestEngine;
  let bobNote: number;

  beforeAll(async () => {
    db = await databaseTargets[0]!.create();
    await db.pool.query(
      'CREATE TABLE notes (id serial PRIMARY KEY, owner uuid NOT NULL, body text NOT NULL)',
    );
    const { rows } = await db.pool.query<{ id: number }>(
      `INSERT INTO notes (owner, body) VALUES ($1, 'alice note'), ($2, 'bob note') RETURNING id`,
      [ALICE, BOB],
    );
    bobNote = rows[1]!.id;
    engine = await startTestEngine(db.url, { object: metadata });
  });
  afterAll(async () => {
    await engine?.close();
    await db?.dispose();
  });

  it('shows a user only their own rows', async () => {
    const { body } = await engine.graphql(
      '{ notes { body } notes_aggregate { aggregate { count } } }',
      { headers: bearerFor(ALICE) },
    );
    expect(body.data).toEqual({
      notes: [{ body: 'alice note' }],
      notes_aggregate: { aggregate: { count: 1 } },
    });
  });

  it("does not find another user's row by its key", async () => {
    const { body } = await engine.graphql(`{ notes_by_pk(id: ${bobNote}) { body } }`, {
      headers: bearerFor(ALICE),
    });
    expect(body.data).toEqual({ notes_by_pk: null });
  });

  it("cannot change or delete another user's row", async () => {
    const update = await engine.graphql(
      `mutation { update_notes(where: {id: {_eq: ${bobNote}}}, _set: {body: "hacked"}) { affected_rows } }`,
      { headers: bearerFor(ALICE) },
    );
    expect(update.body.data).toEqual({ update_notes: { affected_rows: 0 } });
    const remove = await engine.graphql(`mutation { delete_notes_by_pk(id: ${bobNote}) { id } }`, {
      headers: bearerFor(ALICE),
    });
    expect(remove.body.data).toEqual({ delete_notes_by_pk: null });
    const { rows } = await db.pool.query('SELECT body FROM notes WHERE id = $1', [bobNote]);
    expect(rows).toEqual([{ body: 'bob note' }]);
  });

  it("cannot write a row in another user's name", async () => {
    const { body } = await engine.graphql(
      `mutation { insert_notes_one(object: {body: "x", owner: "${BOB}"}) { id } }`,
      { headers: bearerFor(ALICE) },
    );
    expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
    const own = await engine.graphql(
      'mutation { insert_notes_one(object: {body: "mine"}) { owner body } }',
      { headers: bearerFor(ALICE) },
    );
    expect(own.body.data).toEqual({ insert_notes_one: { owner: ALICE, body: 'mine' } });
  });

  it('refuses an update that would hand a row to someone else', async () => {
    const { body } = await engine.graphql(
      `mutation { update_notes(where: {}, _set: {owner: "${BOB}"}) { affected_rows } }`,
      { headers: bearerFor(ALICE) },
    );
    expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
  });

  it.each([
    [
      'signed with another key',
      () => signHs256(userClaims(ALICE), 'another-key-that-is-not-ours-0123456789'),
    ],
    ['unsigned (alg none)', () => signHs256(userClaims(ALICE), undefined, 'none')],
    ['expired', () => signHs256(userClaims(ALICE, ['user'], -60))],
    [
      'with a tampered payload',
      () => {
        const [head, , signature] = signHs256(userClaims(ALICE)).split('.');
        const forged = Buffer.from(JSON.stringify(userClaims(BOB))).toString('base64url');
        return `${head}.${forged}.${signature}`;
      },
    ],
  ])('refuses a token %s with invalid-jwt', async (_, token) => {
    const { status, body } = await engine.graphql('{ notes { body } }', {
      headers: { authorization: `Bearer ${token()}` },
    });
    expect(status).toBe(200);
    expect(body.errors?.[0]?.extensions.code).toBe('invalid-jwt');
    expect(body.data).toBeUndefined();
  });

  it('treats a request without a token as the anonymous role, which sees nothing here', async () => {
    const { body } = await engine.graphql('{ notes { body } }');
    expect(body.errors?.[0]?.message).toBe("field 'notes' not found in type: 'query_root'");
  });
});

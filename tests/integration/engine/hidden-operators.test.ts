import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, type TestEngine } from '../../support/engine.ts';
import { bearerFor } from '../../support/jwt.ts';
import { ALICE, BOB, OWN, sourceMetadata } from '../../support/owned-rows.ts';

/*
 * Issue 19, point 1: the planner accepts exactly what the role's schema exposes, and every
 * boolean expression, ordering and nested read is confined to rows the role may see.
 *
 * The attack: `_exists` (which Hasura accepts only inside permission rules; the role's
 * `<table>_bool_exp` does not list it) was taken in a user's own `where` with no row filter on
 * its target, so `where: {_exists: {_table: secrets, _where: {phrase: {_like: "a%"}}}}` answered
 * yes or no about every row of `secrets`, a stranger's included. Hasura's request parser reads
 * a bool_exp from the fields the role's schema lists (graphql-engine
 * server/src-lib/Hasura/GraphQL/Schema/BoolExp.hs, `boolExp`: `_or`, `_and`, `_not`, columns,
 * relationships, computed fields); an unlisted key is "field '…' not found in type".
 *
 * Computed fields returning rows of a table get the same treatment as relationships here: a
 * filter or an ordering over them counts only the rows the role may select.
 */

const ownedTable = (name: string, columns: string[]) => ({
  table: { schema: 'public', name },
  select_permissions: [
    { role: 'user', permission: { columns, filter: OWN, allow_aggregations: true } },
  ],
  update_permissions: [{ role: 'user', permission: { columns: columns.slice(-1), filter: OWN } }],
  delete_permissions: [{ role: 'user', permission: { filter: OWN } }],
});

const metadata = sourceMetadata([
  {
    ...ownedTable('notes', ['id', 'owner', 'body']),
    computed_fields: [
      {
        name: 'note_secrets',
        definition: { function: { schema: 'public', name: 'note_secrets' } },
      },
    ],
  },
  ownedTable('secrets', ['id', 'owner', 'note_id', 'phrase']),
]);

describe('security regression: row permissions hold in every expression a user writes', () => {
  let db: TestDatabase;
  let engine: TestEngine;

  beforeAll(async () => {
    db = await databaseTargets[0]!.create();
    await db.pool.query(`
      CREATE TABLE notes (id int PRIMARY KEY, owner uuid NOT NULL, body text NOT NULL);
      CREATE TABLE secrets (
        id serial PRIMARY KEY, owner uuid NOT NULL, note_id int NOT NULL, phrase text NOT NULL);
      CREATE FUNCTION note_secrets(note notes) RETURNS SETOF secrets
        LANGUAGE sql STABLE AS 'SELECT * FROM secrets WHERE note_id = note.id';
      INSERT INTO notes VALUES (1, '${ALICE}', 'alice note'), (2, '${ALICE}', 'alice second'),
        (3, '${BOB}', 'bob note');
      -- Alice's first note has one secret of hers; her second has none of hers but three of
      -- Bob's, which she must never count, compare or sort by.
      INSERT INTO secrets (owner, note_id, phrase) VALUES ('${ALICE}', 1, 'alice phrase'),
        ('${BOB}', 2, 'bob phrase 1'), ('${BOB}', 2, 'bob phrase 2'), ('${BOB}', 2, 'bob phrase 3');
    `);
    engine = await startTestEngine(db.url, { object: metadata });
  });
  afterAll(async () => {
    await engine?.close();
    await db?.dispose();
  });

  const probeBob = {
    _table: { schema: 'public', name: 'secrets' },
    _where: { phrase: { _like: 'bob%' } },
  };

  it.each([
    ['at the root', { _exists: probeBob }],
    ['inside _and', { _and: [{ _exists: probeBob }] }],
    ['inside _not', { _not: { _not: { _exists: probeBob } } }],
    ['with the $-spelling of metadata', { $exists: probeBob }],
  ])('refuses _exists in a where %s', async (_, where) => {
    const { body } = await engine.graphql(
      'query ($where: notes_bool_exp!) { notes(where: $where) { body } }',
      { headers: bearerFor(ALICE), variables: { where } },
    );
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(body.errors?.[0]?.message).toMatch(/not found in type: 'notes_bool_exp'/);
  });

  it('refuses _exists written inline, in aggregates and in mutations', async () => {
    const inline = `{_exists: {_table: {schema: "public", name: "secrets"}, _where: {phrase: {_like: "bob%"}}}}`;
    for (const query of [
      `{ notes(where: ${inline}) { body } }`,
      `{ notes_aggregate(where: ${inline}) { aggregate { count } } }`,
      `mutation { update_notes(where: ${inline}, _set: {body: "x"}) { affected_rows } }`,
      `mutation { delete_notes(where: ${inline}) { affected_rows } }`,
    ]) {
      const { body } = await engine.graphql(query, { headers: bearerFor(ALICE) });
      expect(body.data, query).toBeUndefined();
      expect(body.errors?.[0]?.extensions.code, query).toBe('validation-failed');
    }
    const { rows } = await db.pool.query<{ body: string }>('SELECT body FROM notes ORDER BY id');
    expect(rows.map((row) => row.body)).toEqual(['alice note', 'alice second', 'bob note']);
  });

  it('refuses args on a computed field whose function takes none but the row', async () => {
    // Hasura's schema gives such a field no `args` argument (the permission oracle's seed
    // 552539687 found `queue_position(args: {})` answered instead of refused).
    const { body } = await engine.graphql('{ notes { note_secrets(args: {}) { phrase } } }', {
      headers: bearerFor(ALICE),
    });
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(body.errors?.[0]?.message).toBe("'note_secrets' has no argument named 'args'");
  });

  it('answers a filter over a computed field of rows from the rows the role may see only', async () => {
    const { body } = await engine.graphql(
      '{ notes(where: {note_secrets: {phrase: {_like: "bob%"}}}) { body } }',
      { headers: bearerFor(ALICE) },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ notes: [] });
  });

  it.each([
    ['count', '{count: desc}'],
    ['max', '{max: {phrase: desc_nulls_last}}'],
  ])(
    'orders by the %s of a computed field over the rows the role may see only',
    async (_, aggregate) => {
      const { body } = await engine.graphql(
        `{ notes(order_by: {note_secrets_aggregate: ${aggregate}}) { body } }`,
        { headers: bearerFor(ALICE) },
      );
      expect(body.errors).toBeUndefined();
      // Counting Bob's three secrets would put "alice second" first.
      expect(body.data).toEqual({ notes: [{ body: 'alice note' }, { body: 'alice second' }] });
    },
  );

  it('refuses an inline fragment on another type instead of skipping it unread', async () => {
    const { body } = await engine.graphql(
      '{ notes { body ... on secrets { phrase } ... on secrets { no_such_field } } }',
      { headers: bearerFor(ALICE) },
    );
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
  });

  it('names only the columns the role may see when refusing a distinct_on', async () => {
    await db.pool.query('ALTER TABLE notes ADD COLUMN hidden_note text');
    const restarted = await startTestEngine(db.url, { object: metadata });
    try {
      const { body } = await restarted.graphql('{ notes(distinct_on: [nope]) { body } }', {
        headers: bearerFor(ALICE),
      });
      expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
      expect(body.errors?.[0]?.message).not.toContain('hidden_note');
    } finally {
      await restarted.close();
      await db.pool.query('ALTER TABLE notes DROP COLUMN hidden_note');
    }
  });
});

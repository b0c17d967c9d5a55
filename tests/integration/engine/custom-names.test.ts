import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, TEST_ADMIN_SECRET, type TestEngine } from '../../support/engine.ts';

/*
 * Custom names from table configuration, as Hasura applies them: the type's name, every root
 * field's name, and column names, everywhere a client writes or reads them.
 */
const metadata = {
  version: 3,
  sources: [
    {
      name: 'default',
      tables: [
        {
          table: { schema: 'public', name: 'tbl_wallet_entry' },
          configuration: {
            custom_name: 'WalletEntry',
            custom_root_fields: {
              select: 'walletEntries',
              select_by_pk: 'walletEntry',
              select_aggregate: 'walletEntriesStats',
              insert_one: 'addWalletEntry',
              update_by_pk: 'changeWalletEntry',
              delete_by_pk: 'removeWalletEntry',
            },
            column_config: {
              amt_usdt: { custom_name: 'amountUsdt' },
              memo_txt: { custom_name: 'memo' },
            },
          },
        },
      ],
    },
  ],
};

const admin = { headers: { 'x-hasura-admin-secret': TEST_ADMIN_SECRET } };

describe('custom type, root field and column names', () => {
  let db: TestDatabase;
  let engine: TestEngine;
  beforeAll(async () => {
    db = await databaseTargets[0]!.create();
    await db.pool.query(
      'CREATE TABLE tbl_wallet_entry (id serial PRIMARY KEY, amt_usdt numeric NOT NULL, memo_txt text)',
    );
    engine = await startTestEngine(db.url, { object: metadata });
  });
  afterAll(async () => {
    await engine?.close();
    await db?.dispose();
  });

  it('writes, reads, filters, orders and aggregates through the custom names', async () => {
    const added = await engine.graphql(
      'mutation { addWalletEntry(object: {amountUsdt: "150.25", memo: "first"}) { id amountUsdt memo __typename } }',
      admin,
    );
    expect(added.body.data).toEqual({
      addWalletEntry: { id: 1, amountUsdt: '150.25', memo: 'first', __typename: 'WalletEntry' },
    });
    await engine.graphql(
      'mutation { addWalletEntry(object: {amountUsdt: "99.75", memo: "second"}) { id } }',
      admin,
    );

    const listed = await engine.graphql(
      '{ walletEntries(where: {amountUsdt: {_gt: "100"}}, order_by: {memo: asc}) { memo } walletEntriesStats { aggregate { sum { amountUsdt } } } }',
      admin,
    );
    expect(listed.body.data).toEqual({
      walletEntries: [{ memo: 'first' }],
      walletEntriesStats: { aggregate: { sum: { amountUsdt: '250.00' } } },
    });

    const changed = await engine.graphql(
      'mutation { changeWalletEntry(pk_columns: {id: 2}, _set: {memo: "edited"}) { memo } }',
      admin,
    );
    expect(changed.body.data).toEqual({ changeWalletEntry: { memo: 'edited' } });
    const removed = await engine.graphql('mutation { removeWalletEntry(id: 2) { memo } }', admin);
    expect(removed.body.data).toEqual({ removeWalletEntry: { memo: 'edited' } });
    const byPk = await engine.graphql('{ walletEntry(id: 2) { id } }', admin);
    expect(byPk.body.data).toEqual({ walletEntry: null });
  });

  it('no longer answers to the database names', async () => {
    const byTable = await engine.graphql('{ tbl_wallet_entry { id } }', admin);
    expect(byTable.body.errors?.[0]?.message).toBe(
      "field 'tbl_wallet_entry' not found in type: 'query_root'",
    );
    const byColumn = await engine.graphql('{ walletEntries { amt_usdt } }', admin);
    expect(byColumn.body.errors?.[0]?.message).toBe(
      "field 'amt_usdt' not found in type: 'WalletEntry'",
    );
  });
});

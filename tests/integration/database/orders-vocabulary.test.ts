import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_MIGRATIONS_DIR, migrateUp } from '@app/engine/database';
import {
  ACTION_REASONS,
  HOLD_CATEGORIES,
  INITIAL_STATUS,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
} from '@app/shared/orders/vocabulary';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

/*
 * The orders vocabulary of @app/shared is the database's, read from the schema every migration
 * leaves behind: the CHECK constraints on public.transactions and the transition function the
 * guard trigger calls. A migration that adds a state, a reason, a category or a move fails here
 * until the vocabulary says the same.
 */

describe.each(databaseTargets)('the orders vocabulary on $name', (target) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await target.create();
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
  });
  afterAll(async () => {
    await db.dispose();
  });

  /** The quoted values a CHECK constraint on public.transactions allows, sorted. */
  async function checkValues(constraint: string): Promise<string[]> {
    const { rows } = await db.pool.query<{ definition: string }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
        WHERE conrelid = 'public.transactions'::regclass AND contype = 'c' AND conname = $1`,
      [constraint],
    );
    expect(rows, constraint).toHaveLength(1);
    const definition = rows[0]!.definition;
    return [...definition.matchAll(/'([^']+)'::text/g)].map((match) => match[1]!).sort();
  }

  it('has the statuses of the status CHECK', async () => {
    expect(await checkValues('transactions_status_check')).toEqual([...ORDER_STATUSES].sort());
  });

  it('has the reasons of the action_reason CHECK', async () => {
    expect(await checkValues('transactions_action_reason_check')).toEqual(
      [...ACTION_REASONS].sort(),
    );
  });

  it('has the categories of the hold_category CHECK', async () => {
    expect(await checkValues('transactions_hold_category_check')).toEqual(
      [...HOLD_CATEGORIES].sort(),
    );
  });

  it('starts an order where the column default and the insert guard do', async () => {
    const { rows } = await db.pool.query<{ initial: string }>(
      `SELECT column_default AS initial FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = 'transactions' AND column_name = 'status'`,
    );
    expect(rows[0]?.initial).toBe(`'${INITIAL_STATUS}'::text`);
  });

  it('allows exactly the moves of the transition function', async () => {
    // Every ordered pair of states, judged by public.transaction_transition_allowed.
    const { rows } = await db.pool.query<{ from: string; to: string }>(
      `SELECT f AS from, t AS to FROM unnest($1::text[]) AS f, unnest($1::text[]) AS t
        WHERE public.transaction_transition_allowed(f, t) ORDER BY f, t`,
      [ORDER_STATUSES],
    );
    const database = rows.map((row) => `${row.from} > ${row.to}`).sort();
    const vocabulary = Object.entries(ORDER_TRANSITIONS)
      .flatMap(([from, targets]) => targets.map((to) => `${from} > ${to}`))
      .sort();
    expect(vocabulary).toEqual(database);
  });
});

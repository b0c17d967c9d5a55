import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
} from './harness.ts';
import { REMOVE_CUSTOM_RATE, SET_CUSTOM_RATE, SET_USER_STATUS } from './staff-console-documents.ts';

/*
 * Issue 19, point 7 (SECURITY.md row 25): staff never set terms for themselves. A manager gave
 * their own account a custom rate and so removed the margin on their own trades. Now: nobody on
 * the staff sets a custom rate or a level for their own account; a manager sets custom rates
 * for customers only (not for a colleague, who could return the favour); an administrator may
 * set another staff member's terms, a decision made by someone else.
 */

describe.each(databaseTargets)(
  'security regression: staff never set their own terms on $name',
  (target) => {
    let db: TestDatabase;
    let stack: ActionsStack;
    const ids = {
      customer: randomUUID(),
      manager: randomUUID(),
      colleague: randomUUID(),
      admin: randomUUID(),
    };
    const manager: Caller = { userId: ids.manager, role: 'manager' };
    const admin: Caller = { userId: ids.admin, role: 'administrator' };
    const rate = (userId: string) => ({
      userId,
      currency: 'BTC',
      buyRate: '50000',
      sellRate: '51000',
    });
    const ratesOf = async (userId: string) =>
      (
        await db.pool.query<{ buy_rate: string }>(
          'SELECT buy_rate::text FROM user_custom_carrency WHERE user_id = $1',
          [userId],
        )
      ).rows;

    beforeAll(async () => {
      db = await target.create();
      await prepareDatabase(db, ids);
      await db.pool.query(
        `INSERT INTO roles (user_id, role_type) VALUES ($1, 'manager'), ($2, 'manager'), ($3, 'admin')`,
        [ids.manager, ids.colleague, ids.admin],
      );
      stack = await startActionsStack(db, {
        env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
      });
    });
    afterAll(async () => {
      await stack?.close();
      await db?.dispose();
    });

    it('refuses a custom rate for the staff member themselves, as manager or administrator', async () => {
      for (const [caller, self] of [
        [manager, ids.manager],
        [admin, ids.admin],
      ] as const) {
        const body = await stack.graphql(SET_CUSTOM_RATE, rate(self), caller);
        expect(body.data?.['insert_user_custom_carrency_one'] ?? null).toBeNull();
        expect(body.errors?.[0]?.extensions?.['code']).toBe('permission-error');
        expect(await ratesOf(self)).toEqual([]);
      }
    });

    it("refuses a manager's custom rate for a colleague, allows it for a customer", async () => {
      const colleague = await stack.graphql(SET_CUSTOM_RATE, rate(ids.colleague), manager);
      expect(colleague.errors?.[0]?.extensions?.['code']).toBe('permission-error');
      expect(await ratesOf(ids.colleague)).toEqual([]);
      const customer = await stack.graphql(SET_CUSTOM_RATE, rate(ids.customer), manager);
      expect(customer.errors).toBeUndefined();
      expect(await ratesOf(ids.customer)).toEqual([{ buy_rate: '50000' }]);
    });

    it('lets an administrator set a colleague’s rate, never their own, nor change one planted earlier', async () => {
      const colleague = await stack.graphql(SET_CUSTOM_RATE, rate(ids.colleague), admin);
      expect(colleague.errors).toBeUndefined();
      // A rate on the manager's own account from before this rule: they can neither raise it
      // (upsert) nor remove it themselves.
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO user_custom_carrency (user_id, currency_code, buy_rate, sell_rate)
       VALUES ($1, 'BTC', 1, 1) RETURNING id`,
        [ids.manager],
      );
      const upsert = await stack.graphql(SET_CUSTOM_RATE, rate(ids.manager), manager);
      expect(upsert.data?.['insert_user_custom_carrency_one'] ?? null).toBeNull();
      const removed = await stack.graphql(REMOVE_CUSTOM_RATE, { id: rows[0]!.id }, manager);
      expect(removed.data?.['delete_user_custom_carrency_by_pk'] ?? null).toBeNull();
      expect(await ratesOf(ids.manager)).toEqual([{ buy_rate: '1' }]);
    });

    it("refuses an administrator's change of their own level", async () => {
      const own = await stack.graphql(SET_USER_STATUS, { id: ids.admin, status: 'gold' }, admin);
      expect(own.data?.['update_portal_users_by_pk'] ?? null).toBeNull();
      const other = await stack.graphql(
        SET_USER_STATUS,
        { id: ids.customer, status: 'gold' },
        admin,
      );
      expect(other.errors).toBeUndefined();
      const { rows } = await db.pool.query<{ id: string; status: string }>(
        'SELECT id, status FROM portal_users WHERE id = ANY($1)',
        [[ids.admin, ids.customer]],
      );
      expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({
        [ids.admin]: 'new',
        [ids.customer]: 'gold',
      });
    });
  },
);

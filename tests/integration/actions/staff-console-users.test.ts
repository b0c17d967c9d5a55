import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';

import type { Caller } from './harness.ts';
import * as doc from './staff-console-documents.ts';
import { useStaffConsole } from './staff-console-harness.ts';

/*
 * The staff console's managers page and customers' custom rates and levels (issue 7), through
 * the real engine and actions service (staff-console-harness.ts), with the documents the console
 * sends.
 */

describe.each(databaseTargets)('staff console data service on $name', (target) => {
  const c = useStaffConsole(target);
  const { ids, manager, admin, alice, ok, codeOf } = c;

  describe('managers', () => {
    const staffRows = async (caller: Caller) =>
      (
        (await ok(doc.STAFF_LIST, {}, caller))['roles'] as Array<{
          role_type: string;
          user: { id: string; email: string };
        }>
      ).map((row) => `${row.role_type}:${row.user.email}`);

    it('lists the staff with their roles for administrators; a manager sees only their own', async () => {
      expect((await staffRows(admin)).sort()).toEqual([
        'admin:admin@example.com',
        'manager:manager2@example.com',
        'manager:manager@example.com',
      ]);
      expect(await staffRows(manager)).toEqual(['manager:manager@example.com']);
    });

    it('grants the manager role by e-mail in any case, once', async () => {
      const granted = await ok(doc.GRANT_MANAGER, { email: ' CAROL@Example.com ' }, admin);
      expect(granted['grantManagerRole']).toEqual({
        userId: ids.carol,
        email: 'carol@example.com',
        isManager: true,
        changed: true,
        user: { id: ids.carol, email: 'carol@example.com' },
      });
      const again = await ok(doc.GRANT_MANAGER, { email: 'carol@example.com' }, admin);
      expect(again['grantManagerRole']).toMatchObject({ isManager: true, changed: false });
      expect(await staffRows(admin)).toContain('manager:carol@example.com');
      // Carol can act as a manager with her next token.
      const carol: Caller = { userId: ids.carol, role: 'manager' };
      expect((await ok(doc.BANK_ACCOUNTS, {}, carol))['bank_accounts']).toEqual(expect.any(Array));
    });

    it('refuses an unknown e-mail, a malformed one, a disabled account and an administrator', async () => {
      const before = await staffRows(admin);
      const unknown = await c.stack.graphql(
        doc.GRANT_MANAGER,
        { email: 'nobody@example.com' },
        admin,
      );
      expect(unknown.errors?.[0]).toMatchObject({
        message: 'No account uses the e-mail nobody@example.com. The person must sign up first.',
        extensions: { code: 'user-not-found', field: 'email' },
      });
      expect(codeOf(await c.stack.graphql(doc.GRANT_MANAGER, { email: 'carol' }, admin))).toBe(
        'invalid-input',
      );
      expect(
        codeOf(await c.stack.graphql(doc.GRANT_MANAGER, { email: 'dave@example.com' }, admin)),
      ).toBe('user-disabled');
      expect(
        codeOf(await c.stack.graphql(doc.GRANT_MANAGER, { email: 'admin@example.com' }, admin)),
      ).toBe('administrator');
      expect(await staffRows(admin)).toEqual(before);
    });

    it('revokes the role, once; never the caller’s own nor an administrator’s', async () => {
      const revoked = await ok(doc.REVOKE_MANAGER, { userId: ids.carol }, admin);
      expect(revoked['revokeManagerRole']).toEqual({
        userId: ids.carol,
        email: 'carol@example.com',
        isManager: false,
        changed: true,
      });
      const again = await ok(doc.REVOKE_MANAGER, { userId: ids.carol }, admin);
      expect(again['revokeManagerRole']).toMatchObject({ changed: false });
      expect(await staffRows(admin)).not.toContain('manager:carol@example.com');

      const self = await c.stack.graphql(doc.REVOKE_MANAGER, { userId: ids.admin }, admin);
      expect(self.errors?.[0]).toMatchObject({
        message: 'You cannot revoke your own role.',
        extensions: { code: 'cannot-revoke-self' },
      });
      const otherAdmin = randomUUID();
      await c.db.pool.query(
        `INSERT INTO portal_users (id, email) VALUES ($1, 'admin2@example.com')`,
        [otherAdmin],
      );
      await c.db.pool.query(
        `INSERT INTO roles (user_id, role_type) VALUES ($1, 'admin'), ($1, 'manager')`,
        [otherAdmin],
      );
      expect(codeOf(await c.stack.graphql(doc.REVOKE_MANAGER, { userId: otherAdmin }, admin))).toBe(
        'administrator',
      );
      expect(
        codeOf(await c.stack.graphql(doc.REVOKE_MANAGER, { userId: randomUUID() }, admin)),
      ).toBe('user-not-found');
      const { rows } = await c.db.pool.query(
        `SELECT role_type FROM roles WHERE user_id = $1 ORDER BY role_type`,
        [otherAdmin],
      );
      expect(rows).toEqual([{ role_type: 'admin' }, { role_type: 'manager' }]);
    });

    it('gives managers no way to appoint or dismiss', async () => {
      for (const [query, variables] of [
        [doc.GRANT_MANAGER, { email: 'carol@example.com' }],
        [doc.REVOKE_MANAGER, { userId: ids.manager2 }],
        [
          `mutation { insert_roles_one(object: { user_id: "${ids.carol}", role_type: "manager" }) { id } }`,
          {},
        ],
        [`mutation { delete_roles(where: {}) { affected_rows } }`, {}],
      ] as const) {
        const body = await c.stack.graphql(query, variables, manager);
        expect(body.errors?.[0]?.message).toMatch(/not found in type/);
      }
      // Administrators write roles only through the two actions.
      const direct = await c.stack.graphql(
        `mutation { insert_roles_one(object: { user_id: "${ids.carol}", role_type: "manager" }) { id } }`,
        {},
        admin,
      );
      expect(direct.errors?.[0]?.message).toMatch(/not found in type/);
      const { rows } = await c.db.pool.query(`SELECT 1 FROM roles WHERE user_id = $1`, [ids.carol]);
      expect(rows).toEqual([]);
    });
  });

  describe('user custom currency and levels', () => {
    type FoundUser = {
      id: string;
      email: string;
      telegram_username: string | null;
      status: string;
      user_level: { status: string } | null;
      completed_orders: { aggregate: { count: number } };
      custom_currencies: Array<{
        id: string;
        currency_code: string;
        buy_rate: string | null;
        sell_rate: string | null;
      }>;
    };
    const find = async (search: string) =>
      (await ok(doc.FIND_USERS, { pattern: doc.containsPattern(search), limit: 20 }, manager))[
        'portal_users'
      ] as FoundUser[];
    const quote = async () => {
      const body = await ok(
        `query ($input: QuoteInput!) { quote(input: $input) { receiveAmount rate } }`,
        { input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.1' } },
        alice,
      );
      return body['quote'] as { receiveAmount: string; rate: string };
    };

    it('finds a customer by e-mail or Telegram username, with level and completed orders', async () => {
      const byEmail = await find('ALICE@exam');
      expect(byEmail).toEqual([
        expect.objectContaining({
          id: ids.alice,
          telegram_username: 'alice_tg',
          status: 'new',
          user_level: expect.objectContaining({ status: 'new' }) as unknown,
          completed_orders: { aggregate: { count: 1 } },
          custom_currencies: [],
        }),
      ]);
      expect((await find('ice_t')).map((user) => user.id)).toEqual([ids.alice]);
      expect(await find('nobody-like-this')).toEqual([]);
    });

    it("sets, changes and removes a customer's rates, and the customer's quote follows", async () => {
      const market = await quote();
      const set = await ok(
        doc.SET_CUSTOM_RATE,
        { userId: ids.alice, currency: 'BTC', buyRate: null, sellRate: '1000' },
        manager,
      );
      expect(set['insert_user_custom_carrency_one']).toMatchObject({
        currency_code: 'BTC',
        buy_rate: null,
        sell_rate: '1000',
      });
      const custom = await quote();
      expect(custom.rate).not.toBe(market.rate);
      expect(Number(custom.receiveAmount)).toBeLessThan(Number(market.receiveAmount));

      // Setting again replaces (one row per user and currency).
      await ok(
        doc.SET_CUSTOM_RATE,
        { userId: ids.alice, currency: 'BTC', buyRate: '120000', sellRate: '2000' },
        admin,
      );
      const [user] = await find('alice@');
      expect(user!.custom_currencies).toEqual([
        expect.objectContaining({ currency_code: 'BTC', buy_rate: '120000', sell_rate: '2000' }),
      ]);
      expect((await quote()).rate).not.toBe(custom.rate);

      // Neither rate: refused by the table (one of them must be set).
      const neither = await c.stack.graphql(
        doc.SET_CUSTOM_RATE,
        { userId: ids.alice, currency: 'ETH', buyRate: null, sellRate: null },
        manager,
      );
      expect(neither.errors?.[0]?.extensions['code']).toBe('permission-error');

      const removed = await ok(
        doc.REMOVE_CUSTOM_RATE,
        { id: user!.custom_currencies[0]!.id },
        manager,
      );
      expect(removed['delete_user_custom_carrency_by_pk']).toMatchObject({ currency_code: 'BTC' });
      expect((await quote()).rate).toBe(market.rate);
    });

    it('lets managers read the levels and administrators edit them', async () => {
      const levels = await ok(doc.USER_LEVELS, {}, manager);
      expect((levels['user_levels'] as Array<{ status: string }>).map((row) => row.status)).toEqual(
        ['new', 'bronze', 'silver', 'gold', 'platinum'],
      );
      for (const [query, variables] of [
        [doc.UPDATE_USER_LEVEL, { status: 'bronze', set: { buy_margin: '0.02' } }],
        [
          doc.INSERT_USER_LEVEL,
          { object: { status: 'vip', buy_margin: '0', sell_margin: '0', min_orders: 1000 } },
        ],
        [doc.DELETE_USER_LEVEL, { status: 'platinum' }],
        [doc.SET_USER_STATUS, { id: ids.alice, status: 'gold' }],
      ] as const) {
        expect((await c.stack.graphql(query, variables, manager)).errors?.[0]?.message).toMatch(
          /not found in type/,
        );
      }

      const updated = await ok(
        doc.UPDATE_USER_LEVEL,
        { status: 'bronze', set: { buy_margin: '0.022', sell_margin: '0.018', min_orders: 6 } },
        admin,
      );
      expect(updated['update_user_levels_by_pk']).toEqual({
        status: 'bronze',
        buy_margin: '0.022000',
        sell_margin: '0.018000',
        min_orders: 6,
      });
      const inserted = await ok(
        doc.INSERT_USER_LEVEL,
        { object: { status: 'vip', buy_margin: '0.005', sell_margin: '0.004', min_orders: 1000 } },
        admin,
      );
      expect(inserted['insert_user_levels_one']).toMatchObject({ status: 'vip' });
      const status = await ok(doc.SET_USER_STATUS, { id: ids.alice, status: 'vip' }, admin);
      expect(status['update_portal_users_by_pk']).toEqual({ id: ids.alice, status: 'vip' });
      const [user] = await find('alice@');
      expect(user!.user_level).toMatchObject({ status: 'vip' });
      // The default level cannot be deleted; another can.
      const deleteNew = await ok(doc.DELETE_USER_LEVEL, { status: 'new' }, admin);
      expect(deleteNew['delete_user_levels_by_pk']).toBeNull();
      await ok(doc.SET_USER_STATUS, { id: ids.alice, status: 'new' }, admin);
      const deleted = await ok(doc.DELETE_USER_LEVEL, { status: 'vip' }, admin);
      expect(deleted['delete_user_levels_by_pk']).toEqual({ status: 'vip' });
    });
  });
});

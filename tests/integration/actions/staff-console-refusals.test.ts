import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createSmtpMailer, type Mailer } from '@app/shared/mail';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
  type GraphqlBody,
} from './harness.ts';
import * as doc from './staff-console-documents.ts';
import { liveClient, type LiveClient } from './staff-live.ts';

/*
 * Every operation of the staff console, tried by a signed-in customer and by a visitor: each is
 * refused, or, where the customer's own role has the same root field (their orders, their
 * withdrawals, their roles), answers with their own rows and nobody else's. Afterwards nothing
 * in the database has changed and no mail went out. The same documents work for staff
 * (staff-console.test.ts; the queries again at the end here, so no refusal below is a typo).
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const DEPOSIT_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

/** The tables the console reads or writes, each as a digest of its rows. */
const TABLES = [
  'transactions',
  'transaction_status_history',
  'bank_accounts',
  'bonus_withdrawals',
  'referral_bonuses',
  'roles',
  'portal_users',
  'support_requests',
  'support_feedback',
  'user_custom_carrency',
  'user_levels',
];

/** A refusal: the engine does not know the field, argument or column for this role. */
const REFUSED = /not found in type|no mutations exist|no subscriptions exist/;

interface Operation {
  name: string;
  query: string;
  variables: Record<string, unknown>;
  kind: 'query' | 'mutation' | 'subscription';
  /**
   * For a customer whose role has the same root fields: what they get instead (only their own
   * rows). Absent: the customer is refused too.
   */
  ownRowsOnly?: (data: Record<string, unknown>) => void;
}

describe.each(databaseTargets)(
  'staff console refused to customers and visitors on $name',
  (target) => {
    let db: TestDatabase;
    let mailbox: Mailbox;
    let mailer: Mailer;
    let stack: ActionsStack;
    const live: LiveClient[] = [];
    const ids = {
      customer: randomUUID(),
      other: randomUUID(),
      manager: randomUUID(),
      admin: randomUUID(),
    };
    const customer: Caller = { userId: ids.customer, role: 'user' };
    const manager: Caller = { userId: ids.manager, role: 'manager' };
    let operations: Operation[] = [];

    const digest = async () => {
      const parts: Record<string, string> = {};
      for (const table of TABLES) {
        const { rows } = await db.pool.query<{ digest: string | null }>(
          `SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM public.${table} t`,
        );
        parts[table] = rows[0]!.digest ?? 'empty';
      }
      return parts;
    };

    beforeAll(async () => {
      db = await target.create();
      await prepareDatabase(db, ids);
      await db.pool.query(
        `INSERT INTO roles (user_id, role_type) VALUES ($1, 'manager'), ($2, 'admin')`,
        [ids.manager, ids.admin],
      );
      mailbox = await startMailbox();
      mailer = createSmtpMailer(mailbox.url, 'Exchange <no-reply@exchange.test>');
      stack = await startActionsStack(db, {
        env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
        mailer,
      });

      // Something for every operation to act on: orders of both customers in every state that
      // an operator step needs, an account, a pending withdrawal, a request, a custom rate.
      const order = async (user: string, pair: [string, string]) => {
        const { rows } = await db.pool.query<{ id: string }>(
          `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                   receive_amount, rate, email, full_name, wallet_address, reason)
         VALUES ($1, $2, $3, 1, 2, 2, 'someone@example.com', 'Some One', $4, 'Savings')
         RETURNING id`,
          [user, pair[0], pair[1], TRC20_ADDRESS],
        );
        return rows[0]!.id;
      };
      const waiting = await order(ids.other, ['BTC', 'USDTTRC20']);
      const own = await order(ids.customer, ['BTC', 'USDTTRC20']);
      const awaitingPayment = await order(ids.other, ['BTC', 'USDTTRC20']);
      const paid = await order(ids.other, ['BTC', 'USDTTRC20']);
      await db.pool.query(
        `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = $3
        WHERE id IN ($1, $2)`,
        [awaitingPayment, paid, DEPOSIT_BTC],
      );
      await db.pool.query(`UPDATE transactions SET status = 'paid' WHERE id = $1`, [paid]);
      const account = (
        await db.pool.query<{ id: string }>(
          `INSERT INTO bank_accounts (label, beneficiary, account_number, swift_bic, bank_address, currency_code)
         VALUES ('EUR', 'Exchange Ltd', 'DE89370400440532013000', 'COBADEFFXXX', 'Berlin', 'EUR')
         RETURNING id`,
        )
      ).rows[0]!.id;
      await db.pool.query(
        `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = $2 WHERE id = $1`,
        [own, DEPOSIT_BTC],
      );
      await db.pool.query(`UPDATE transactions SET status = 'paid' WHERE id = $1`, [own]);
      await db.pool.query(
        `UPDATE transactions SET status = 'completed', payout_tx_id = 'tx-own' WHERE id = $1`,
        [own],
      );
      await db.pool.query(
        `INSERT INTO referral_bonuses (referrer_id, referral_id, transaction_id, order_amount_usdt,
                                     accrual_rate, amount_usdt)
       VALUES ($1, $2, $3, 50000, 0.005, 250)`,
        [ids.other, ids.customer, own],
      );
      const withdrawal = (
        await db.pool.query<{ id: string }>(
          `INSERT INTO bonus_withdrawals (user_id, amount_usdt, wallet_address)
         VALUES ($1, 150, $2) RETURNING id`,
          [ids.other, TRC20_ADDRESS],
        )
      ).rows[0]!.id;
      const request = (
        await db.pool.query<{ id: string }>(
          `INSERT INTO support_requests (email, message) VALUES ('asker@example.com', 'Help') RETURNING id`,
        )
      ).rows[0]!.id;
      const rate = (
        await db.pool.query<{ id: string }>(
          `INSERT INTO user_custom_carrency (user_id, currency_code, sell_rate)
         VALUES ($1, 'BTC', 1000) RETURNING id`,
          [ids.other],
        )
      ).rows[0]!.id;

      const everything = { where: {}, orderBy: [{ created_at: 'desc' }], limit: 50, offset: 0 };
      const onlyOwnOrders = (data: Record<string, unknown>) => {
        const rows = data['transactions'] as Array<{ user: { id: string } }>;
        expect(rows.map((row) => row.user.id)).toEqual([ids.customer]);
      };
      operations = [
        // /admin/transactions
        { name: 'queue', kind: 'query', query: doc.QUEUE, variables: everything },
        {
          name: 'live queue',
          kind: 'subscription',
          query: doc.QUEUE_LIVE,
          variables: everything,
          ownRowsOnly: onlyOwnOrders,
        },
        {
          name: 'live status counts',
          kind: 'subscription',
          query: doc.STATUS_COUNTS_LIVE,
          variables: {},
        },
        {
          name: 'status counts',
          kind: 'query',
          query: `query { transaction_status_counts { status total } }`,
          variables: {},
        },
        {
          name: 'filtered status counts',
          kind: 'query',
          query: doc.FILTERED_STATUS_COUNTS,
          variables: { where: {} },
          ownRowsOnly: (data) => {
            // Their own single completed order, no one else's three open ones.
            const counts = Object.fromEntries(
              Object.entries(data).map(([status, value]) => [
                status,
                (value as { aggregate: { count: number } }).aggregate.count,
              ]),
            );
            expect(counts).toEqual({
              waiting_for_operator: 0,
              waiting_for_payment: 0,
              paid: 0,
              completed: 1,
              canceled: 0,
            });
          },
        },
        {
          name: 'order detail',
          kind: 'query',
          query: doc.ORDER_DETAIL,
          variables: { id: waiting },
        },
        {
          name: 'live order detail',
          kind: 'subscription',
          query: doc.ORDER_LIVE,
          variables: { id: waiting },
          ownRowsOnly: (data) => expect(data['transactions_by_pk']).toBeNull(),
        },
        {
          name: 'active bank accounts',
          kind: 'query',
          query: doc.ACTIVE_BANK_ACCOUNTS,
          variables: { currency: 'EUR' },
        },
        {
          name: 'supplyRequisites',
          kind: 'mutation',
          query: doc.SUPPLY_REQUISITES,
          variables: { id: waiting, depositAddress: DEPOSIT_BTC },
        },
        {
          name: 'confirmPayment',
          kind: 'mutation',
          query: doc.CONFIRM_PAYMENT,
          variables: { id: awaitingPayment },
        },
        {
          name: 'completeExchange',
          kind: 'mutation',
          query: doc.COMPLETE_EXCHANGE,
          variables: { id: paid, payoutTxId: 'tx-forged' },
        },
        {
          name: 'cancelExchangeByStaff',
          kind: 'mutation',
          query: doc.CANCEL_EXCHANGE,
          variables: { id: waiting, reason: 'forged' },
        },
        {
          name: 'pending withdrawals',
          kind: 'query',
          query: doc.PENDING_WITHDRAWALS,
          variables: { limit: 20, offset: 0 },
          ownRowsOnly: (data) => {
            expect(data['bonus_withdrawals']).toEqual([]);
            expect(data['bonus_withdrawals_aggregate']).toEqual({
              aggregate: { count: 0, sum: { amount_usdt: null } },
            });
          },
        },
        {
          name: 'processBonusWithdrawal',
          kind: 'mutation',
          query: doc.PROCESS_WITHDRAWAL,
          variables: { id: withdrawal, outcome: 'paid', payoutTxId: 'tx-forged' },
        },
        // /admin/managers
        {
          name: 'staff list',
          kind: 'query',
          query: doc.STAFF_LIST,
          variables: {},
          ownRowsOnly: (data) => expect(data['roles']).toEqual([]),
        },
        {
          name: 'grantManagerRole',
          kind: 'mutation',
          query: doc.GRANT_MANAGER,
          variables: { email: 'customer@example.com' },
        },
        {
          name: 'revokeManagerRole',
          kind: 'mutation',
          query: doc.REVOKE_MANAGER,
          variables: { userId: ids.manager },
        },
        {
          name: 'insert_roles_one',
          kind: 'mutation',
          query: `mutation ($id: uuid!) { insert_roles_one(object: { user_id: $id, role_type: "manager" }) { id } }`,
          variables: { id: ids.customer },
        },
        {
          name: 'delete_roles',
          kind: 'mutation',
          query: `mutation { delete_roles(where: {}) { affected_rows } }`,
          variables: {},
        },
        // /admin/bank-accounts
        { name: 'bank accounts', kind: 'query', query: doc.BANK_ACCOUNTS, variables: {} },
        {
          name: 'create bank account',
          kind: 'mutation',
          query: doc.CREATE_BANK_ACCOUNT,
          variables: {
            object: {
              beneficiary: 'Mallory',
              account_number: 'DE02120300000000202051',
              swift_bic: 'BYLADEM1001',
              bank_address: 'Elsewhere',
              currency_code: 'EUR',
            },
          },
        },
        {
          name: 'edit bank account',
          kind: 'mutation',
          query: doc.UPDATE_BANK_ACCOUNT,
          variables: { id: account, set: { beneficiary: 'Mallory' } },
        },
        {
          name: 'deactivate bank account',
          kind: 'mutation',
          query: doc.UPDATE_BANK_ACCOUNT,
          variables: { id: account, set: { is_active: false } },
        },
        // /admin/support-requests
        {
          name: 'support requests',
          kind: 'query',
          query: doc.SUPPORT_REQUESTS,
          variables: { where: {}, limit: 20, offset: 0 },
        },
        {
          name: 'mark handled',
          kind: 'mutation',
          query: doc.MARK_HANDLED,
          variables: { id: request, handled: true },
        },
        {
          name: 'sendSupportFeedback',
          kind: 'mutation',
          query: doc.SEND_FEEDBACK,
          variables: {
            email: 'victim@example.com',
            subject: 'Your account',
            message: 'Click here',
            supportRequestId: request,
          },
        },
        // /admin/user-custom-currency
        {
          name: 'find users',
          kind: 'query',
          query: doc.FIND_USERS,
          variables: { pattern: '%@%', limit: 20 },
        },
        {
          name: 'set custom rate',
          kind: 'mutation',
          query: doc.SET_CUSTOM_RATE,
          variables: { userId: ids.customer, currency: 'BTC', buyRate: null, sellRate: '999999' },
        },
        {
          name: 'remove custom rate',
          kind: 'mutation',
          query: doc.REMOVE_CUSTOM_RATE,
          variables: { id: rate },
        },
        {
          name: 'set user status',
          kind: 'mutation',
          query: doc.SET_USER_STATUS,
          variables: { id: ids.customer, status: 'platinum' },
        },
        {
          name: 'update user level',
          kind: 'mutation',
          query: doc.UPDATE_USER_LEVEL,
          variables: { status: 'new', set: { buy_margin: '0' } },
        },
        {
          name: 'insert user level',
          kind: 'mutation',
          query: doc.INSERT_USER_LEVEL,
          variables: {
            object: { status: 'free', buy_margin: '0', sell_margin: '0', min_orders: 1 },
          },
        },
        {
          name: 'delete user level',
          kind: 'mutation',
          query: doc.DELETE_USER_LEVEL,
          variables: { status: 'platinum' },
        },
      ];
    });

    afterAll(async () => {
      await Promise.all(live.map((client) => client.close()));
      await stack?.close();
      mailer?.close();
      await mailbox?.close();
      await db?.dispose();
    });

    /** What `caller` (a visitor when undefined) gets for `operation`: data or errors. */
    async function attempt(operation: Operation, caller: Caller | undefined): Promise<GraphqlBody> {
      if (operation.kind !== 'subscription')
        return stack.graphql(operation.query, operation.variables, caller);
      const client = liveClient(
        stack.engineUrl,
        typeof caller === 'string' ? { userId: caller, role: 'user' } : caller,
      );
      live.push(client);
      const first = await client.subscribe<Record<string, unknown>>(
        operation.query,
        operation.variables,
      ).first;
      return 'data' in first
        ? { data: first.data }
        : { errors: first.errors as GraphqlBody['errors'] };
    }

    it.each([
      ['a signed-in customer', 'customer'],
      ['a visitor', 'visitor'],
    ] as const)('refuses %s every console operation and changes nothing', async (_who, who) => {
      const caller = who === 'customer' ? customer : undefined;
      const before = await digest();
      const outcomes: string[] = [];
      for (const operation of operations) {
        const body = await attempt(operation, caller);
        const refused = body.errors?.some((error) => REFUSED.test(error.message)) ?? false;
        if (refused) {
          expect(body.data ?? null, operation.name).toBeNull();
          outcomes.push(`${operation.name}: refused`);
          continue;
        }
        if (who === 'customer' && operation.ownRowsOnly && body.data && !body.errors) {
          operation.ownRowsOnly(body.data);
          outcomes.push(`${operation.name}: own rows only`);
          continue;
        }
        outcomes.push(`${operation.name}: NOT REFUSED ${JSON.stringify(body)}`);
      }
      const expected = operations.map((operation) =>
        who === 'customer' && operation.ownRowsOnly
          ? `${operation.name}: own rows only`
          : `${operation.name}: refused`,
      );
      expect(outcomes).toEqual(expected);
      expect(await digest()).toEqual(before);
      // (Order e-mails from the event triggers arrive meanwhile; the feedback's never does.)
      expect(mailbox.to('victim@example.com')).toEqual([]);
    });

    it('answers the same queries for staff (the refusals above are about the role)', async () => {
      for (const operation of operations) {
        if (operation.kind === 'mutation') continue;
        const body = await attempt(operation, manager);
        expect(body.errors, operation.name).toBeUndefined();
      }
    });
  },
);

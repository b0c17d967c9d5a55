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
import { consoleOperations, DEPOSIT_BTC, type Operation } from './staff-console-operations.ts';
import { liveClient, type LiveClient } from './staff-live.ts';

/*
 * Every operation of the staff console, tried by a signed-in customer and by a visitor: each is
 * refused, or, where the customer's own role has the same root field (their orders, their
 * withdrawals, their roles), answers with their own rows and nobody else's. Afterwards nothing
 * in the database has changed and no mail went out. The same documents work for staff
 * (staff-console.test.ts; the queries again at the end here, so no refusal below is a typo).
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

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

      operations = consoleOperations({
        ids,
        waiting,
        awaitingPayment,
        paid,
        account,
        withdrawal,
        request,
        rate,
      });
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

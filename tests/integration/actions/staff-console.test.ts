import { describe, expect, it } from 'vitest';

import { databaseRefusal } from '@app/shared/errors/database';

import { databaseTargets } from '../../support/databases.ts';

import * as doc from './staff-console-documents.ts';
import {
  ACCOUNT,
  DEPOSIT_BTC,
  TRC20_ADDRESS,
  useStaffConsole,
  type QueueRow,
} from './staff-console-harness.ts';
import { liveClient } from './staff-live.ts';

/*
 * The staff console's data service (issue 7), page by page, through the real engine serving the
 * product metadata and the actions service (staff-console-harness.ts). Every document is the one
 * the console sends (staff-console-documents.ts). This file: the transactions and bank-account
 * pages (the account an order was told to pay to is one these tests chose); the managers and
 * customers pages are in staff-console-users.test.ts, support requests in
 * staff-console-support.test.ts.
 */

describe.each(databaseTargets)('staff console data service on $name', (target) => {
  const c = useStaffConsole(target);
  const { live, ids, manager, manager2, admin, orders, ok, queue, numbers, n } = c;

  describe('transactions', () => {
    it('filters the queue by status, direction, dates, e-mail and number, newest first', async () => {
      const open = await queue({ status: { _eq: 'waiting_for_operator' } });
      expect(numbers(open.transactions)).toEqual([n('a3'), n('b1'), n('a2')]);
      expect(open.transactions_aggregate.aggregate.count).toBe(3);
      expect(open.transactions[1]!.user).toEqual({
        id: ids.bob,
        email: 'bob@example.com',
        telegram_username: null,
        status: 'new',
        is_disabled: false,
      });

      const direction = await queue({
        send_currency: { _eq: 'EUR' },
        receive_currency: { _eq: 'BTC' },
      });
      expect(numbers(direction.transactions)).toEqual([n('b2'), n('b1')]);

      const day = await queue({
        created_at: { _gte: '2025-03-02T00:00:00Z', _lt: '2025-03-03T00:00:00Z' },
      });
      expect(numbers(day.transactions)).toEqual([n('b1'), n('a2')]);

      // Part of an e-mail, in any case (what the order form captured).
      const byEmail = await queue({ email: { _ilike: doc.containsPattern('ALICE@') } });
      expect(numbers(byEmail.transactions)).toEqual([n('a3'), n('a2'), n('a1')]);
      // `_` is a literal underscore once escaped: no order's e-mail has one.
      const literal = await queue({ email: { _ilike: doc.containsPattern('alice_') } });
      expect(literal.transactions).toEqual([]);
      // The customer's account e-mail or Telegram username, through the relationship.
      const byAccount = await queue({
        user: { telegram_username: { _ilike: doc.containsPattern('alice_tg') } },
      });
      expect(byAccount.transactions_aggregate.aggregate.count).toBe(3);

      const byNumber = await queue({ number: { _eq: n('a2') } });
      expect(byNumber.transactions.map((row) => row.id)).toEqual([orders['a2']!.id]);
    });

    it('pages and sorts on the server, with the total for the pager', async () => {
      const first = await queue({}, { limit: 2, offset: 0, orderBy: [{ number: 'asc' }] });
      const second = await queue({}, { limit: 2, offset: 2, orderBy: [{ number: 'asc' }] });
      const third = await queue({}, { limit: 2, offset: 4, orderBy: [{ number: 'asc' }] });
      expect([...first.transactions, ...second.transactions, ...third.transactions]).toHaveLength(
        5,
      );
      expect(
        numbers([...first.transactions, ...second.transactions, ...third.transactions]),
      ).toEqual(['a1', 'a2', 'a3', 'b1', 'b2'].map(n));
      expect(first.transactions_aggregate.aggregate.count).toBe(5);
      const oldest = await queue({}, { limit: 1, orderBy: [{ created_at: 'asc' }] });
      expect(numbers(oldest.transactions)).toEqual([n('a1')]);
    });

    it('counts orders per status, all statuses and under the filters', async () => {
      const counts = await ok(
        `query { transaction_status_counts(order_by: { position: asc }) { status total } }`,
        {},
        manager,
      );
      expect(counts['transaction_status_counts']).toEqual([
        { status: 'waiting_for_operator', total: 3 },
        { status: 'waiting_for_payment', total: 0 },
        { status: 'paid', total: 0 },
        { status: 'completed', total: 1 },
        { status: 'canceled', total: 1 },
        { status: 'on_hold', total: 0 },
        { status: 'needs_user_action', total: 0 },
        { status: 'refund_in_progress', total: 0 },
        { status: 'refunded', total: 0 },
        { status: 'expired', total: 0 },
      ]);
      const filtered = await ok(
        doc.FILTERED_STATUS_COUNTS,
        { where: { user_id: { _eq: ids.alice } } },
        manager,
      );
      expect(
        Object.fromEntries(
          Object.entries(filtered).map(([status, value]) => [
            status,
            (value as { aggregate: { count: number } }).aggregate.count,
          ]),
        ),
      ).toEqual({
        waiting_for_operator: 2,
        waiting_for_payment: 0,
        paid: 0,
        completed: 1,
        canceled: 0,
      });
    });

    it('shows the order, its customer with level and completed orders, and its history', async () => {
      const data = await ok(doc.ORDER_DETAIL, { id: orders['a1']!.id }, manager);
      const order = data['transactions_by_pk'] as Record<string, unknown>;
      expect(order).toMatchObject({
        number: n('a1'),
        status: 'completed',
        payout_tx_id: 'tx-a1',
        send_currency_info: { code: 'BTC', kind: 'crypto' },
        receive_currency_info: { code: 'USDTTRC20', network: 'TRC20' },
        bank_account: null,
        user: {
          id: ids.alice,
          email: 'alice@example.com',
          telegram_username: 'alice_tg',
          status: 'new',
          user_level: { status: 'new', min_orders: 0 },
          completed_orders: { aggregate: { count: 1 } },
        },
      });
      expect(
        (order['status_history'] as Array<{ to_status: string }>).map((row) => row.to_status),
      ).toEqual(['waiting_for_operator', 'waiting_for_payment', 'paid', 'completed']);
    });

    it('keeps the queue and the status counts live for staff', async () => {
      const client = liveClient(c.stack.engineUrl, manager);
      live.push(client);
      const open = client.subscribe<{ transactions: QueueRow[] }>(doc.QUEUE_LIVE, {
        where: { status: { _eq: 'waiting_for_operator' } },
        orderBy: [{ created_at: 'desc' }],
        limit: 50,
        offset: 0,
      });
      const counts = client.subscribe<{
        transaction_status_counts: Array<{ status: string; total: number }>;
      }>(doc.STATUS_COUNTS_LIVE);
      await open.next((value) => value.transactions.length === 3);
      const waiting = (value: (typeof counts.values)[number], status: string) =>
        value.transaction_status_counts.find((row) => row.status === status)?.total;
      await counts.next((value) => waiting(value, 'waiting_for_operator') === 3);

      // Another operator takes a3: it leaves this queue and moves to the next tab.
      const supplied = await c.stack.graphql(
        doc.SUPPLY_REQUISITES,
        { id: orders['a3']!.id, depositAddress: DEPOSIT_BTC },
        manager2,
      );
      expect(supplied.errors).toBeUndefined();
      const after = await open.next((value) => value.transactions.length === 2);
      expect(after.transactions.map((row) => row.id)).not.toContain(orders['a3']!.id);
      await counts.next(
        (value) =>
          waiting(value, 'waiting_for_operator') === 2 &&
          waiting(value, 'waiting_for_payment') === 1,
      );
    });

    it('lists the active accounts of the send currency and runs an order to completed', async () => {
      const { rows } = await c.db.pool.query<{ id: string; is_active: boolean }>(
        `INSERT INTO bank_accounts (label, beneficiary, account_number, swift_bic, bank_address,
                                    currency_code, is_active)
         VALUES ('EUR open', 'Exchange Ltd', 'DE89370400440532013000', 'COBADEFFXXX', 'Berlin', 'EUR', true),
                ('EUR closed', 'Exchange Ltd', 'DE89370400440532013001', 'COBADEFFXXX', 'Berlin', 'EUR', false),
                ('UAH open', 'Exchange Ltd', 'UA213223130000026007233566001', 'PBANUA2XXXX', 'Kyiv', 'UAH', true)
         RETURNING id, is_active`,
      );
      const accounts = await ok(doc.ACTIVE_BANK_ACCOUNTS, { currency: 'EUR' }, manager);
      expect(accounts['bank_accounts']).toEqual([
        expect.objectContaining({ id: rows[0]!.id, label: 'EUR open', currency_code: 'EUR' }),
      ]);

      const id = orders['b1']!.id;
      const supplied = await ok(doc.SUPPLY_REQUISITES, { id, bankAccountId: rows[0]!.id }, manager);
      expect(supplied['supplyRequisites']).toMatchObject({
        status: 'waiting_for_payment',
        transaction: { payment_reference: expect.any(String) as unknown },
      });
      expect((await ok(doc.CONFIRM_PAYMENT, { id }, manager))['confirmPayment']).toMatchObject({
        status: 'paid',
      });
      expect(
        (await ok(doc.COMPLETE_EXCHANGE, { id, payoutTxId: 'btc-payout-b1' }, admin))[
          'completeExchange'
        ],
      ).toMatchObject({ status: 'completed' });
      const detail = await ok(doc.ORDER_DETAIL, { id }, manager);
      expect(detail['transactions_by_pk']).toMatchObject({
        bank_account: { id: rows[0]!.id, label: 'EUR open' },
        status_history: [
          { to_status: 'waiting_for_operator', changed_by_user: null },
          { to_status: 'waiting_for_payment', changed_by_user: { id: ids.manager } },
          { to_status: 'paid', changed_by_user: { id: ids.manager } },
          { to_status: 'completed', changed_by_user: { id: ids.admin } },
        ],
      });

      const canceled = await ok(
        doc.CANCEL_EXCHANGE,
        { id: orders['a2']!.id, reason: 'Duplicate order' },
        manager,
      );
      expect(canceled['cancelExchangeByStaff']).toMatchObject({ status: 'canceled' });
    });

    it('lists pending bonus withdrawals and settles one', async () => {
      // Bob referred alice, whose completed order earned him a bonus worth withdrawing.
      await c.db.pool.query(
        `INSERT INTO referral_bonuses (referrer_id, referral_id, transaction_id, order_amount_usdt,
                                       accrual_rate, amount_usdt)
         VALUES ($1, $2, $3, 50000, 0.005, 250)`,
        [ids.bob, ids.alice, orders['a1']!.id],
      );
      const { rows } = await c.db.pool.query<{ id: string }>(
        `INSERT INTO bonus_withdrawals (user_id, amount_usdt, wallet_address)
         VALUES ($1, 120, $2), ($1, 100, $2) RETURNING id`,
        [ids.bob, TRC20_ADDRESS],
      );
      const pending = await ok(doc.PENDING_WITHDRAWALS, { limit: 20, offset: 0 }, manager);
      expect(pending['bonus_withdrawals']).toEqual([
        expect.objectContaining({
          id: rows[0]!.id,
          amount_usdt: '120',
          user: expect.objectContaining({ email: 'bob@example.com' }) as unknown,
        }),
        expect.objectContaining({ id: rows[1]!.id, amount_usdt: '100' }),
      ]);
      expect(pending['bonus_withdrawals_aggregate']).toEqual({
        aggregate: { count: 2, sum: { amount_usdt: '220' } },
      });
      const paid = await ok(
        doc.PROCESS_WITHDRAWAL,
        { id: rows[0]!.id, outcome: 'paid', payoutTxId: 'trc20-payout-1' },
        manager,
      );
      expect(paid['processBonusWithdrawal']).toMatchObject({
        status: 'paid',
        withdrawal: { processed_by: ids.manager },
      });
      const rejected = await ok(
        doc.PROCESS_WITHDRAWAL,
        { id: rows[1]!.id, outcome: 'rejected', reason: 'Wallet under review' },
        admin,
      );
      expect(rejected['processBonusWithdrawal']).toMatchObject({ status: 'rejected' });
      const left = await ok(doc.PENDING_WITHDRAWALS, { limit: 20, offset: 0 }, manager);
      expect(left['bonus_withdrawals']).toEqual([]);
    });
  });

  describe('bank accounts', () => {
    it('lets a manager create, edit, deactivate and activate an account', async () => {
      const created = await ok(doc.CREATE_BANK_ACCOUNT, { object: ACCOUNT }, manager);
      const account = created['insert_bank_accounts_one'] as { id: string; is_active: boolean };
      expect(account).toMatchObject({ ...ACCOUNT, is_active: true });
      const edited = await ok(
        doc.UPDATE_BANK_ACCOUNT,
        {
          id: account.id,
          set: { bank_address: 'Neue Mainzer Strasse 1, Frankfurt', label: 'EUR 2' },
        },
        manager,
      );
      expect(edited['update_bank_accounts_by_pk']).toMatchObject({
        bank_address: 'Neue Mainzer Strasse 1, Frankfurt',
        label: 'EUR 2',
      });
      const off = await ok(
        doc.UPDATE_BANK_ACCOUNT,
        { id: account.id, set: { is_active: false } },
        admin,
      );
      expect(off['update_bank_accounts_by_pk']).toMatchObject({ is_active: false });
      const active = await ok(doc.ACTIVE_BANK_ACCOUNTS, { currency: 'EUR' }, manager);
      expect((active['bank_accounts'] as Array<{ id: string }>).map((row) => row.id)).not.toContain(
        account.id,
      );
      const on = await ok(
        doc.UPDATE_BANK_ACCOUNT,
        { id: account.id, set: { is_active: true } },
        manager,
      );
      expect(on['update_bank_accounts_by_pk']).toMatchObject({ is_active: true });

      const list = await ok(doc.BANK_ACCOUNTS, {}, manager);
      expect(list['bank_accounts']).toContainEqual(
        expect.objectContaining({ id: account.id, orders: { aggregate: { count: 0 } } }),
      );
    });

    it('refuses malformed details and keeps the details customers were given', async () => {
      const bad = await c.stack.graphql(
        doc.CREATE_BANK_ACCOUNT,
        { object: { ...ACCOUNT, account_number: 'de89 3704' } },
        manager,
      );
      // A table CHECK: Hasura's dmlTxErrorHandler answers it as a permission error (decision 032).
      expect(bad.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/^Check constraint violation\. /) as unknown,
        extensions: { code: 'permission-error' },
      });

      // The account bob's order b1 was told to pay to.
      const { rows } = await c.db.pool.query<{ id: string }>(
        `SELECT bank_account_id AS id FROM transactions WHERE id = $1`,
        [orders['b1']!.id],
      );
      const used = rows[0]!.id;
      const changed = await c.stack.graphql(
        doc.UPDATE_BANK_ACCOUNT,
        { id: used, set: { account_number: 'DE02120300000000202051' } },
        admin,
      );
      expect(changed.errors?.[0]).toMatchObject({
        message: expect.stringContaining(
          'cannot be changed; deactivate it and add a new account',
        ) as unknown,
        extensions: { code: 'permission-error' },
      });
      // The code clients branch on, whatever the English says.
      expect(databaseRefusal(Object.assign(new Error('refused'), { errors: changed.errors }))).toBe(
        'bank-account-details-fixed',
      );
      const relabeled = await ok(
        doc.UPDATE_BANK_ACCOUNT,
        { id: used, set: { label: 'EUR (old)', is_active: false } },
        manager,
      );
      expect(relabeled['update_bank_accounts_by_pk']).toMatchObject({
        account_number: 'DE89370400440532013000',
        label: 'EUR (old)',
        is_active: false,
      });
      const list = await ok(doc.BANK_ACCOUNTS, {}, manager);
      expect(list['bank_accounts']).toContainEqual(
        expect.objectContaining({ id: used, orders: { aggregate: { count: 1 } } }),
      );
    });
  });
});

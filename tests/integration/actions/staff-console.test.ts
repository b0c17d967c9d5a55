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
 * The staff console's data service (issue 7), page by page, through the real engine serving the
 * product metadata and the actions service, with feedback mail delivered to a real SMTP server.
 * Every document is the one the console sends (staff-console-documents.ts).
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const DEPOSIT_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const WEB = 'https://exchange.test';
const INBOX = 'support-inbox@exchange.test';

const ACCOUNT = {
  label: 'EUR main',
  beneficiary: 'Exchange Service Ltd',
  account_number: 'DE89370400440532013000',
  swift_bic: 'COBADEFFXXX',
  bank_address: 'Kaiserstrasse 16, Frankfurt',
  currency_code: 'EUR',
};

interface QueueRow {
  id: string;
  number: string;
  status: string;
  email: string;
  send_currency: string;
  receive_currency: string;
  user: { id: string; email: string; telegram_username: string | null };
}

describe.each(databaseTargets)('staff console data service on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let mailer: Mailer;
  let stack: ActionsStack;
  const live: LiveClient[] = [];
  const ids = {
    alice: randomUUID(),
    bob: randomUUID(),
    manager: randomUUID(),
    manager2: randomUUID(),
    admin: randomUUID(),
    carol: randomUUID(),
    dave: randomUUID(),
  };
  const manager: Caller = { userId: ids.manager, role: 'manager' };
  const manager2: Caller = { userId: ids.manager2, role: 'manager' };
  const admin: Caller = { userId: ids.admin, role: 'administrator' };
  const alice: Caller = { userId: ids.alice, role: 'user' };
  /** Orders by name: alice's BTC -> USDT ones, bob's EUR -> BTC ones. */
  const orders: Record<string, { id: string; number: string }> = {};

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, ids);
    await db.pool.query(
      `UPDATE portal_users SET telegram_username = 'alice_tg', locale = 'ru' WHERE id = $1`,
      [ids.alice],
    );
    await db.pool.query(`UPDATE portal_users SET is_disabled = true WHERE id = $1`, [ids.dave]);
    await db.pool.query(
      `INSERT INTO roles (user_id, role_type) VALUES ($1, 'manager'), ($2, 'manager'), ($3, 'admin')`,
      [ids.manager, ids.manager2, ids.admin],
    );
    mailbox = await startMailbox();
    mailer = createSmtpMailer(mailbox.url, 'Exchange <no-reply@exchange.test>');
    stack = await startActionsStack(db, {
      env: {
        ACTIONS_SECRET,
        QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
        PUBLIC_WEB_URL: WEB,
        SUPPORT_INBOX_EMAIL: INBOX,
      },
      mailer,
    });

    // Orders as createExchange leaves them, over three days, for two customers.
    const insert = async (
      name: string,
      user: string,
      email: string,
      pair: [string, string],
      createdAt: string,
    ) => {
      const { rows } = await db.pool.query<{ id: string; number: string }>(
        `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                   receive_amount, rate, email, full_name, wallet_address, reason,
                                   created_at)
         VALUES ($1, $2, $3, 1, 2, 2, $4, 'Customer Name', $5, 'Savings', $6)
         RETURNING id, number::text AS number`,
        [user, pair[0], pair[1], email, pair[1] === 'BTC' ? BTC_ADDRESS : TRC20_ADDRESS, createdAt],
      );
      orders[name] = rows[0]!;
    };
    await insert(
      'a1',
      ids.alice,
      'alice@example.com',
      ['BTC', 'USDTTRC20'],
      '2025-03-01T10:00:00Z',
    );
    await insert(
      'a2',
      ids.alice,
      'Alice@Example.com',
      ['BTC', 'USDTTRC20'],
      '2025-03-02T10:00:00Z',
    );
    await insert(
      'a3',
      ids.alice,
      'alice@example.com',
      ['BTC', 'USDTTRC20'],
      '2025-03-03T10:00:00Z',
    );
    await insert('b1', ids.bob, 'bob.buyer@example.com', ['EUR', 'BTC'], '2025-03-02T12:00:00Z');
    await insert('b2', ids.bob, 'bob.buyer@example.com', ['EUR', 'BTC'], '2025-03-03T12:00:00Z');
    // a1 is completed (alice has one completed order), b2 canceled by the customer.
    await db.pool.query(
      `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = $2 WHERE id = $1`,
      [orders['a1']!.id, DEPOSIT_BTC],
    );
    await db.pool.query(`UPDATE transactions SET status = 'paid' WHERE id = $1`, [
      orders['a1']!.id,
    ]);
    await db.pool.query(
      `UPDATE transactions SET status = 'completed', payout_tx_id = 'tx-a1' WHERE id = $1`,
      [orders['a1']!.id],
    );
    await db.pool.query(
      `UPDATE transactions SET status = 'canceled', canceled_by = 'user' WHERE id = $1`,
      [orders['b2']!.id],
    );
  });

  afterAll(async () => {
    await Promise.all(live.map((client) => client.close()));
    await stack?.close();
    mailer?.close();
    await mailbox?.close();
    await db?.dispose();
  });

  /** The data of a call that must succeed. */
  async function ok(query: string, variables: Record<string, unknown>, caller: Caller) {
    const body = await stack.graphql(query, variables, caller);
    expect(body.errors).toBeUndefined();
    return body.data!;
  }
  const codeOf = (body: GraphqlBody) => body.errors?.[0]?.extensions['code'];

  const queue = (where: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    ok(
      doc.QUEUE,
      { where, orderBy: [{ created_at: 'desc' }], limit: 50, offset: 0, ...extra },
      manager,
    ) as Promise<{
      transactions: QueueRow[];
      transactions_aggregate: { aggregate: { count: number } };
    }>;
  const numbers = (rows: QueueRow[]) => rows.map((row) => row.number);
  const n = (name: string) => orders[name]!.number;

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
      const client = liveClient(stack.engineUrl, manager);
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
      const supplied = await stack.graphql(
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
      const { rows } = await db.pool.query<{ id: string; is_active: boolean }>(
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
      await db.pool.query(
        `INSERT INTO referral_bonuses (referrer_id, referral_id, transaction_id, order_amount_usdt,
                                       accrual_rate, amount_usdt)
         VALUES ($1, $2, $3, 50000, 0.005, 250)`,
        [ids.bob, ids.alice, orders['a1']!.id],
      );
      const { rows } = await db.pool.query<{ id: string }>(
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
      const unknown = await stack.graphql(
        doc.GRANT_MANAGER,
        { email: 'nobody@example.com' },
        admin,
      );
      expect(unknown.errors?.[0]).toMatchObject({
        message: 'No account uses the e-mail nobody@example.com. The person must sign up first.',
        extensions: { code: 'user-not-found', field: 'email' },
      });
      expect(codeOf(await stack.graphql(doc.GRANT_MANAGER, { email: 'carol' }, admin))).toBe(
        'invalid-input',
      );
      expect(
        codeOf(await stack.graphql(doc.GRANT_MANAGER, { email: 'dave@example.com' }, admin)),
      ).toBe('user-disabled');
      expect(
        codeOf(await stack.graphql(doc.GRANT_MANAGER, { email: 'admin@example.com' }, admin)),
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

      const self = await stack.graphql(doc.REVOKE_MANAGER, { userId: ids.admin }, admin);
      expect(self.errors?.[0]).toMatchObject({
        message: 'You cannot revoke your own role.',
        extensions: { code: 'cannot-revoke-self' },
      });
      const otherAdmin = randomUUID();
      await db.pool.query(
        `INSERT INTO portal_users (id, email) VALUES ($1, 'admin2@example.com')`,
        [otherAdmin],
      );
      await db.pool.query(
        `INSERT INTO roles (user_id, role_type) VALUES ($1, 'admin'), ($1, 'manager')`,
        [otherAdmin],
      );
      expect(codeOf(await stack.graphql(doc.REVOKE_MANAGER, { userId: otherAdmin }, admin))).toBe(
        'administrator',
      );
      expect(codeOf(await stack.graphql(doc.REVOKE_MANAGER, { userId: randomUUID() }, admin))).toBe(
        'user-not-found',
      );
      const { rows } = await db.pool.query(
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
        const body = await stack.graphql(query, variables, manager);
        expect(body.errors?.[0]?.message).toMatch(/not found in type/);
      }
      // Administrators write roles only through the two actions.
      const direct = await stack.graphql(
        `mutation { insert_roles_one(object: { user_id: "${ids.carol}", role_type: "manager" }) { id } }`,
        {},
        admin,
      );
      expect(direct.errors?.[0]?.message).toMatch(/not found in type/);
      const { rows } = await db.pool.query(`SELECT 1 FROM roles WHERE user_id = $1`, [ids.carol]);
      expect(rows).toEqual([]);
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
      const bad = await stack.graphql(
        doc.CREATE_BANK_ACCOUNT,
        { object: { ...ACCOUNT, account_number: 'de89 3704' } },
        manager,
      );
      expect(bad.errors?.[0]).toMatchObject({ extensions: { code: 'constraint-violation' } });

      // The account bob's order b1 was told to pay to.
      const { rows } = await db.pool.query<{ id: string }>(
        `SELECT bank_account_id AS id FROM transactions WHERE id = $1`,
        [orders['b1']!.id],
      );
      const used = rows[0]!.id;
      const changed = await stack.graphql(
        doc.UPDATE_BANK_ACCOUNT,
        { id: used, set: { account_number: 'DE02120300000000202051' } },
        admin,
      );
      expect(changed.errors?.[0]).toMatchObject({
        message: expect.stringContaining(
          'cannot be changed; deactivate it and add a new account',
        ) as unknown,
        extensions: { code: 'constraint-violation' },
      });
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

  describe('support requests', () => {
    const requests: Record<string, string> = {};

    beforeAll(async () => {
      const insert = async (name: string, email: string, createdAt: string, user?: string) => {
        const { rows } = await db.pool.query<{ id: string }>(
          `INSERT INTO support_requests (user_id, name, email, order_id, message, created_at)
           VALUES ($1, $2, $3, '100042', 'Where is my payout?', $4) RETURNING id`,
          [user ?? null, name, email, createdAt],
        );
        requests[name] = rows[0]!.id;
      };
      await insert('Alice', 'alice@example.com', '2025-04-01T09:00:00Z', ids.alice);
      await insert('Erin', 'erin@example.com', '2025-04-02T09:00:00Z');
      await insert('Frank', 'frank@example.com', '2025-04-03T09:00:00Z');
    });

    const list = async (where: Record<string, unknown>) => {
      const data = await ok(doc.SUPPORT_REQUESTS, { where, limit: 20, offset: 0 }, manager);
      return {
        names: (data['support_requests'] as Array<{ name: string }>).map((row) => row.name),
        count: (data['support_requests_aggregate'] as { aggregate: { count: number } }).aggregate
          .count,
        rows: data['support_requests'] as Array<Record<string, unknown>>,
      };
    };

    it('lists requests newest first, by handled and by date, and marks one handled', async () => {
      expect((await list({})).names).toEqual(['Frank', 'Erin', 'Alice']);
      expect(
        (await list({ created_at: { _gte: '2025-04-02T00:00:00Z', _lt: '2025-04-03T00:00:00Z' } }))
          .names,
      ).toEqual(['Erin']);
      const handled = await ok(doc.MARK_HANDLED, { id: requests['Frank'], handled: true }, manager);
      expect(handled['update_support_requests_by_pk']).toMatchObject({
        handled: true,
        handled_by: ids.manager,
        handled_at: expect.any(String) as unknown,
      });
      expect((await list({ handled: { _eq: false } })).names).toEqual(['Erin', 'Alice']);
      expect(await list({ handled: { _eq: true } })).toMatchObject({ names: ['Frank'], count: 1 });
      const reopened = await ok(
        doc.MARK_HANDLED,
        { id: requests['Frank'], handled: false },
        manager,
      );
      expect(reopened['update_support_requests_by_pk']).toMatchObject({
        handled: false,
        handled_by: null,
        handled_at: null,
      });
    });

    it('e-mails the customer from the feedback form and marks the request handled', async () => {
      const message = 'Hello Alice,\n\nYour payout left today: tx abc.\n<b>Thanks</b>';
      const sent = await ok(
        doc.SEND_FEEDBACK,
        {
          email: 'alice@example.com',
          subject: 'Your order 100042',
          message,
          supportRequestId: requests['Alice'],
        },
        manager,
      );
      const result = sent['sendSupportFeedback'] as Record<string, unknown>;
      expect(result).toMatchObject({
        supportRequestId: requests['Alice'],
        handled: true,
        feedback: {
          email: 'alice@example.com',
          subject: 'Your order 100042',
          sent_by: ids.manager,
        },
        supportRequest: { id: requests['Alice'], handled: true, handled_by: ids.manager },
      });

      const mail = await mailbox.waitFor(
        'alice@example.com',
        (m) => m.subject === 'Your order 100042',
      );
      expect(mail.text).toContain('Your payout left today: tx abc.');
      // Alice's account is in Russian: the closing line and the link follow it.
      expect(mail.text).toContain('Это сообщение от нашей службы поддержки.');
      expect(mail.text).toContain(`${WEB}/ru/contact`);
      expect(mail.html).toContain('&lt;b&gt;Thanks&lt;/b&gt;');
      expect(mail.replyTo?.value[0]?.address).toBe(INBOX);
      expect(mail.messageId).toBe(`<${result['id'] as string}.support_feedback@exchange.test>`);

      const shown = await list({ id: { _eq: requests['Alice'] } });
      expect(shown.rows[0]).toMatchObject({
        handled: true,
        feedback: [
          {
            email: 'alice@example.com',
            subject: 'Your order 100042',
            message,
            sent_by_user: { email: 'manager@example.com' },
          },
        ],
      });
    });

    it('writes to any address, optionally leaving the request open', async () => {
      const sent = await ok(
        doc.SEND_FEEDBACK,
        {
          email: 'erin.other@example.com',
          subject: 'About your request',
          message: 'We need one more detail.',
          supportRequestId: requests['Erin'],
          markHandled: false,
        },
        admin,
      );
      expect(sent['sendSupportFeedback']).toMatchObject({ handled: false });
      const mail = await mailbox.waitFor('erin.other@example.com');
      expect(mail.text).toContain('This message is from our support team.');
      expect(mail.text).toContain(`${WEB}/contact`);
      const plain = await ok(
        doc.SEND_FEEDBACK,
        { email: 'gina@example.com', subject: 'Hello', message: 'A note without a request.' },
        manager,
      );
      expect(plain['sendSupportFeedback']).toMatchObject({ supportRequestId: null, handled: null });
      await mailbox.waitFor('gina@example.com');
    });

    it('refuses bad input, an unknown request and a double send, and sends nothing', async () => {
      const count = async () =>
        (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM support_feedback'))
          .rows[0]!.n;
      const before = await count();
      const mails = mailbox.messages.length;
      const send = (variables: Record<string, unknown>) =>
        stack.graphql(
          doc.SEND_FEEDBACK,
          { email: 'henry@example.com', subject: 'Hi', message: 'Text', ...variables },
          manager,
        );
      expect((await send({ email: 'henry' })).errors?.[0]).toMatchObject({
        message: 'email: Invalid email',
        extensions: { code: 'invalid-input', field: 'email' },
      });
      expect((await send({ subject: '  ' })).errors?.[0]?.extensions).toMatchObject({
        code: 'invalid-input',
        field: 'subject',
      });
      expect((await send({ message: '' })).errors?.[0]?.extensions).toMatchObject({
        code: 'invalid-input',
        field: 'message',
      });
      expect((await send({ message: 'x'.repeat(5001) })).errors?.[0]).toMatchObject({
        message: 'message: at most 5000 characters.',
      });
      expect((await send({ markHandled: true })).errors?.[0]?.extensions).toMatchObject({
        field: 'markHandled',
      });
      expect(codeOf(await send({ supportRequestId: randomUUID() }))).toBe('not-found');
      expect(await count()).toBe(before);
      expect(mailbox.messages.length).toBe(mails);

      // A second click sends nothing more.
      expect((await send({ subject: 'Once' })).errors).toBeUndefined();
      const twice = await send({ email: 'HENRY@example.com', subject: 'Once' });
      expect(twice.errors?.[0]).toMatchObject({ extensions: { code: 'duplicate' } });
      expect(await count()).toBe(before + 1);
    });

    it('records nothing and leaves the request open when the mail server refuses', async () => {
      mailbox.refuse();
      try {
        const refused = await stack.graphql(
          doc.SEND_FEEDBACK,
          {
            email: 'frank@example.com',
            subject: 'Re: payout',
            message: 'Done.',
            supportRequestId: requests['Frank'],
          },
          manager,
        );
        expect(refused.errors?.[0]).toMatchObject({
          message: 'The mail server did not take the message; nothing was sent. Please try again.',
          extensions: { code: 'mail-not-sent' },
        });
      } finally {
        mailbox.accept();
      }
      const { rows } = await db.pool.query(
        `SELECT handled, (SELECT count(*)::int FROM support_feedback WHERE support_request_id = $1) AS sent
           FROM support_requests WHERE id = $1`,
        [requests['Frank']],
      );
      expect(rows).toEqual([{ handled: false, sent: 0 }]);
    });

    it('limits one staff member to 10 mails a minute', async () => {
      for (let index = 0; index < 10; index += 1) {
        const body = await stack.graphql(
          doc.SEND_FEEDBACK,
          { email: `bulk${index}@example.com`, subject: 'Notice', message: `Message ${index}` },
          manager2,
        );
        expect(body.errors).toBeUndefined();
      }
      const eleventh = await stack.graphql(
        doc.SEND_FEEDBACK,
        { email: 'bulk10@example.com', subject: 'Notice', message: 'Message 10' },
        manager2,
      );
      expect(eleventh.errors?.[0]).toMatchObject({
        message: 'You have sent 10 messages in the last minute. Please try again in a minute.',
        extensions: { code: 'too-frequent' },
      });
      // Another staff member is not held up.
      expect(
        (
          await stack.graphql(
            doc.SEND_FEEDBACK,
            { email: 'bulk10@example.com', subject: 'Notice', message: 'Message 10' },
            admin,
          )
        ).errors,
      ).toBeUndefined();
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
      const neither = await stack.graphql(
        doc.SET_CUSTOM_RATE,
        { userId: ids.alice, currency: 'ETH', buyRate: null, sellRate: null },
        manager,
      );
      expect(neither.errors?.[0]?.extensions['code']).toBe('constraint-violation');

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
        expect((await stack.graphql(query, variables, manager)).errors?.[0]?.message).toMatch(
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

import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, expect } from 'vitest';

import { createSmtpMailer, type Mailer } from '@app/shared/mail';

import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
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
import type { LiveClient } from './staff-live.ts';

/*
 * The staff console suites' shared world (issue 7): the real engine serving the product metadata
 * and the actions service, feedback mail delivered to a real SMTP server, staff and customers,
 * and five orders over three days. Each suite file calls useStaffConsole inside its
 * describe.each, which starts one such world for the file.
 */

export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
export const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
export const DEPOSIT_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
export const WEB = 'https://exchange.test';
export const INBOX = 'support-inbox@exchange.test';

export const ACCOUNT = {
  label: 'EUR main',
  beneficiary: 'Exchange Service Ltd',
  account_number: 'DE89370400440532013000',
  swift_bic: 'COBADEFFXXX',
  bank_address: 'Kaiserstrasse 16, Frankfurt',
  currency_code: 'EUR',
};

export interface QueueRow {
  id: string;
  number: string;
  status: string;
  email: string;
  send_currency: string;
  receive_currency: string;
  user: { id: string; email: string; telegram_username: string | null };
}

/** Starts the world before the suite's tests and stops it after; the handles are read lazily. */
export function useStaffConsole(target: DatabaseTarget) {
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

  return {
    get db() {
      return db;
    },
    get mailbox() {
      return mailbox;
    },
    get stack() {
      return stack;
    },
    live,
    ids,
    manager,
    manager2,
    admin,
    alice,
    orders,
    ok,
    codeOf,
    queue,
    numbers,
    n,
  };
}

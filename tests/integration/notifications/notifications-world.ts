import { randomUUID } from 'node:crypto';

import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

import { createSmtpMailer, type Mailer } from '@app/shared/mail';

import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
import { mailContent, startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { scanForRequisites } from '../../support/requisites-scan.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
} from '../actions/harness.ts';

import { startBotReceiver, type BotReceiver } from './bot-receiver.ts';

/*
 * The notification suites' shared world: the engine's event triggers from the product metadata,
 * the actions service's /events routes mailing through a real SMTP server, and a loopback
 * receiver standing in for the bot service's webhook; orders inserted and moved as the lifecycle
 * moves them, with payment details of both kinds. After each test every mail received so far is
 * scanned for every payment detail in the database (tests/support/requisites-scan.ts): none may
 * carry one. Each suite file calls useNotificationsWorld inside its describe.each, which starts
 * one world for the file.
 */

/** The users' own payout addresses (theirs, so the mails may show them). */
export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
export const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
/** The users' own refund addresses. */
export const REFUND_BTC = 'bc1qrefund0000000000000000000000000000000';
export const REFUND_IBAN = 'DE02120300000000202051';
/** The service's bank account (requisites: never in a mail). */
export const ACCOUNT = {
  beneficiary: 'Exchange Ltd',
  accountNumber: 'DE89370400440532013000',
  swift: 'COBADEFFXXX',
  address: 'Taunusanlage 12, 60325 Frankfurt',
};
export const WEB = 'https://exchange.test';
export const INBOX = 'support-inbox@exchange.test';
export const BOT_EVENTS_SECRET = 'test-bot-events-secret-0123456789';
export const LINK_SECRET = 'test-order-link-secret-0123456789abcdef';

let depositSerial = 0;
/** A deposit address (and memo) of the service no other order has. */
export function deposit() {
  depositSerial += 1;
  const serial = String(depositSerial).padStart(4, '0');
  return {
    address: `bc1qdeposit${serial}${Math.random().toString(36).slice(2, 12)}`,
    memo: `memo-${serial}-${Math.floor(Math.random() * 1e9)}`,
  };
}

export const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) { id number sendAmount receiveAmount status }
}`;
const OUTPUT = 'id number status';
export const SUPPLY = `mutation ($id: uuid!, $address: String, $memo: String, $account: uuid) {
  supplyRequisites(
    transactionId: $id, depositAddress: $address, depositMemo: $memo, bankAccountId: $account
  ) { ${OUTPUT} }
}`;
export const CONFIRM = `mutation ($id: uuid!) { confirmPayment(transactionId: $id) { ${OUTPUT} } }`;
export const COMPLETE = `mutation ($id: uuid!, $tx: String!) {
  completeExchange(transactionId: $id, payoutTxId: $tx) { ${OUTPUT} }
}`;
export const STAFF_CANCEL = `mutation ($id: uuid!, $reason: String!) {
  cancelExchangeByStaff(transactionId: $id, reason: $reason) { ${OUTPUT} }
}`;

export async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const html = (mail: ParsedMail) => (typeof mail.html === 'string' ? mail.html : '');

/** An order row as events carried it before issue 10 (no deadlines, no side-state columns). */
export const legacyRow = (email: string, userId: string) => ({
  id: randomUUID(),
  user_id: userId,
  number: 100999,
  send_currency: 'EUR',
  receive_currency: 'BTC',
  send_amount: 1000,
  receive_amount: 0.0123,
  email,
  full_name: 'Legacy',
  locale: 'en',
  wallet_address: BTC_ADDRESS,
  iban: null,
  deposit_address: null,
  deposit_memo: null,
  bank_account_id: randomUUID(),
  payment_reference: 'EX-100999',
  payout_tx_id: null,
  canceled_by: null,
  cancel_reason: null,
});

/** A BTC -> USDT (TRC20) order of 0.02 BTC for 1234.5 USDT. */
export const cryptoPair = {
  from: 'BTC',
  to: 'USDTTRC20',
  send: '0.02',
  receive: '1234.5',
  wallet: TRC20_ADDRESS,
};

/** Starts the world before the suite's tests and stops it after; the handles are read lazily. */
export function useNotificationsWorld(target: DatabaseTarget) {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let mailer: Mailer;
  let bot: BotReceiver;
  let stack: ActionsStack;
  const alice = randomUUID();
  const staffId = randomUUID();
  const staff: Caller = { userId: staffId, role: 'manager' };
  let accountId: string;

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, staff: staffId });
    const { rows: accounts } = await db.pool.query<{ id: string }>(
      `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address,
                                  currency_code, is_active)
       VALUES ($1, $2, $3, $4, 'EUR', true)
       RETURNING id`,
      [ACCOUNT.beneficiary, ACCOUNT.accountNumber, ACCOUNT.swift, ACCOUNT.address],
    );
    accountId = accounts[0]!.id;
    mailbox = await startMailbox();
    mailer = createSmtpMailer(mailbox.url, 'Exchange <no-reply@exchange.test>');
    bot = await startBotReceiver();
    stack = await startActionsStack(db, {
      env: {
        ACTIONS_SECRET,
        QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
        PUBLIC_WEB_URL: WEB,
        SUPPORT_INBOX_EMAIL: INBOX,
        ORDER_LINK_SECRET: LINK_SECRET,
      },
      mailer,
      engineEnvironment: { BOT_EVENTS_URL: `${bot.url}/events`, BOT_EVENTS_SECRET },
    });
  });

  // Every mail so far, after every test: no payment detail of any order or bank account.
  afterEach(async () => {
    await scanForRequisites(db.pool, mailbox.messages.map(mailContent));
  });

  afterAll(async () => {
    await stack?.close();
    mailer?.close();
    await mailbox?.close();
    await bot?.close();
    await db?.dispose();
  });

  const graphql = async (query: string, variables: Record<string, unknown>, caller: Caller) => {
    const { data, errors } = await stack.graphql(query, variables, caller);
    expect(errors).toBeUndefined();
    return data;
  };

  /**
   * The account with this proven address (made on first use): order mail goes to the owning
   * account's proven address, never the form's e-mail (decision 016).
   */
  async function customer(email: string): Promise<string> {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO portal_users (email, is_verified_email) VALUES ($1, true)
       ON CONFLICT ((lower(email))) DO UPDATE SET email = EXCLUDED.email
       RETURNING id`,
      [email],
    );
    return rows[0]!.id;
  }

  /** An order of the account of `email` inserted directly (as createExchange leaves it). */
  async function insertOrder(options: {
    email: string;
    locale: 'en' | 'ru' | 'ua';
    /** Default EUR 1000 -> BTC 0.0123. */
    pair?: { from: string; to: string; send: string; receive: string; wallet: string };
  }): Promise<{ id: string; number: string }> {
    const pair = options.pair ?? {
      from: 'EUR',
      to: 'BTC',
      send: '1000',
      receive: '0.0123',
      wallet: BTC_ADDRESS,
    };
    const { rows } = await db.pool.query<{ id: string; number: string }>(
      `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                 receive_amount, rate, email, full_name, wallet_address, reason,
                                 locale)
       VALUES ($1, $2, $3, $4, $5, $5::numeric / $4::numeric, $6, 'Олена <Test>', $7, 'Savings', $8)
       RETURNING id, number::text AS number`,
      [
        await customer(options.email),
        pair.from,
        pair.to,
        pair.send,
        pair.receive,
        options.email,
        pair.wallet,
        options.locale,
      ],
    );
    return rows[0]!;
  }

  async function eventRow(trigger: string, rowId: string) {
    const { rows } = await db.pool.query<{
      id: string;
      tries: number;
      delivered: boolean;
      error: boolean;
    }>(
      `SELECT id, tries, delivered, error FROM hdb_catalog.event_log
        WHERE trigger_name = $1 AND payload -> 'data' -> 'new' ->> 'id' = $2`,
      [trigger, rowId],
    );
    return rows[0];
  }

  /** Moves an order as the lifecycle actions do, in one statement (the guard checks it). */
  async function move(id: string, set: string, params: unknown[] = []) {
    await db.pool.query(`UPDATE transactions SET ${set} WHERE id = $1`, [id, ...params]);
  }

  /** The order gets payment details: a deposit address with a memo, or the bank account. */
  async function giveRequisites(id: string, kind: 'crypto' | 'bank') {
    if (kind === 'bank') {
      await move(
        id,
        `status = 'waiting_for_payment', bank_account_id = $2, payment_reference = 'EX-' || number`,
        [accountId],
      );
      return;
    }
    const { address, memo } = deposit();
    await move(id, `status = 'waiting_for_payment', deposit_address = $2, deposit_memo = $3`, [
      address,
      memo,
    ]);
  }

  /** A timestamp column of the order as the mails print it: `2026-01-05 14:30 UTC`. */
  async function utcOf(id: string, column: 'requisites_due_at' | 'pay_by') {
    const { rows } = await db.pool.query<{ time: string }>(
      `SELECT to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC' AS time
         FROM transactions WHERE id = $1`,
      [id],
    );
    return rows[0]!.time;
  }

  /** The mail to `email` with exactly this subject. */
  const mailWith = (email: string, subject: string) =>
    mailbox.waitFor(email, (mail) => mail.subject === subject);

  return {
    get db() {
      return db;
    },
    get mailbox() {
      return mailbox;
    },
    get bot() {
      return bot;
    },
    get stack() {
      return stack;
    },
    get accountId() {
      return accountId;
    },
    alice,
    staff,
    graphql,
    customer,
    insertOrder,
    eventRow,
    move,
    giveRequisites,
    utcOf,
    mailWith,
  };
}

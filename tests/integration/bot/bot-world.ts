import { randomUUID } from 'node:crypto';

import { afterAll, afterEach, beforeAll } from 'vitest';

import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
import { insertBankAccount, insertOrder, insertUser } from '../../support/fixtures.ts';
import { scanForRequisites } from '../../support/requisites-scan.ts';
import { prepareDatabase } from '../actions/harness.ts';

import { everythingSent, startBotService, telegramUser, type BotService } from './harness.ts';

/*
 * The bot suites' shared world: a migrated database with a bank account, the bot service
 * against the Bot API emulator, Telegram-linked accounts and orders moved to any status with
 * payment details of either kind. After each test everything the bot sent is scanned for every
 * payment detail in the database: none may appear. Each suite file calls useBotWorld inside
 * its describe.each, which starts one world for the file.
 */

export const LANGUAGES = [
  ['en', 'en'],
  ['ru', 'ru'],
  ['uk', 'ua'],
] as const;

/** A Hasura event-trigger delivery, as the engine sends it. */
export function event(
  trigger: string,
  row: Record<string, unknown>,
  old: Record<string, unknown> | null = null,
) {
  return {
    id: randomUUID(),
    created_at: new Date().toISOString(),
    trigger: { name: trigger },
    table: {
      schema: 'public',
      name: trigger.startsWith('support')
        ? 'support_requests'
        : trigger.startsWith('chain')
          ? 'chain_payments'
          : 'transactions',
    },
    event: { op: old ? 'UPDATE' : 'INSERT', data: { old, new: row }, session_variables: null },
    delivery_info: { max_retries: 10, current_retry: 0 },
  };
}

/** Starts the world before the suite's tests and stops it after; the handles are read lazily. */
export function useBotWorld(target: DatabaseTarget) {
  let db: TestDatabase;
  let service: BotService;
  /** A Telegram-linked account speaking `locale`, with the Telegram user. */
  async function linkedAccount(languageCode = 'en', locale = 'en') {
    const user = telegramUser(languageCode);
    const id = await insertUser(db.pool);
    await db.pool.query('UPDATE portal_users SET telegram_id = $2, locale = $3 WHERE id = $1', [
      id,
      user.id,
      locale,
    ]);
    // The person started the bot long ago (Telegram refuses a bot's first word to a stranger).
    service.emulator.userStartedBot(user);
    return { user, id };
  }

  let bankAccountId: string;
  let depositSerial = 0;

  /**
   * An order of `userId` moved through the lifecycle to `status`, as operators move it: paid
   * to a deposit address with a memo (BTC, the default), or to the bank account (`bank`:
   * 1000 EUR for 0.0123 BTC).
   */
  async function orderIn(
    userId: string,
    status: string,
    overrides: Record<string, unknown> = {},
    kind: 'crypto' | 'bank' = 'crypto',
  ) {
    const order = await insertOrder(db.pool, userId, {
      ...(kind === 'bank'
        ? {
            send_currency: 'EUR',
            receive_currency: 'BTC',
            send_amount: '1000',
            receive_amount: '0.0123',
            rate: '0.0000123',
            wallet_address: 'bc1qpayout00000000000000000000000000000000',
          }
        : {}),
      ...overrides,
    });
    depositSerial += 1;
    const requisites: [string, unknown[]] =
      kind === 'bank'
        ? [
            "status = 'waiting_for_payment', bank_account_id = $2, payment_reference = 'EX-' || number",
            [bankAccountId],
          ]
        : [
            "status = 'waiting_for_payment', deposit_address = $2, deposit_memo = $3",
            [
              `bc1qdeposit${depositSerial}x${randomUUID().slice(0, 8)}`,
              `memo-${randomUUID().slice(0, 13)}`,
            ],
          ];
    const steps: Record<string, Array<[string, unknown[]]>> = {
      waiting_for_operator: [],
      waiting_for_payment: [requisites],
      canceled: [["status = 'canceled', canceled_by = 'user'", []]],
    };
    steps['paid'] = [...steps['waiting_for_payment']!, ["status = 'paid'", []]];
    steps['completed'] = [
      ...steps['paid'],
      ["status = 'completed', payout_tx_id = 'tx-completed'", []],
    ];
    steps['on_hold'] = [requisites, ["status = 'on_hold', hold_category = 'source_of_funds'", []]];
    steps['needs_user_action'] = [
      requisites,
      [
        "status = 'needs_user_action', action_reason = 'underpaid', received_amount = $2",
        [kind === 'bank' ? '900' : '0.014'],
      ],
    ];
    steps['refund_required'] = [
      ...steps['on_hold'],
      ["status = 'needs_user_action', action_reason = 'refund_required'", []],
    ];
    steps['refund_in_progress'] = [
      ...steps['needs_user_action'],
      [
        "status = 'refund_in_progress', refund_address = $2",
        [kind === 'bank' ? 'DE02120300000000202051' : 'bc1qrefund00000000000000000000000000000000'],
      ],
    ];
    steps['refunded'] = [
      ...steps['refund_in_progress'],
      ["status = 'refunded', refund_tx_id = 'refund-tx-1'", []],
    ];
    steps['expired'] = [requisites, ["status = 'expired'", []]];
    for (const [step, params] of steps[status] ?? []) {
      await db.pool.query(`UPDATE transactions SET ${step} WHERE id = $1`, [order.id, ...params]);
    }
    return order;
  }

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, {});
    bankAccountId = await insertBankAccount(db.pool);
    service = await startBotService(db);
  });
  afterEach(async () => {
    await scanForRequisites(db.pool, everythingSent(service.emulator));
  });
  afterAll(async () => {
    await service?.close();
    await db?.dispose();
  });

  return {
    get db() {
      return db;
    },
    get service() {
      return service;
    },
    linkedAccount,
    orderIn,
  };
}

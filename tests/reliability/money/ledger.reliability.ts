import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
  type GraphqlBody,
} from '../../integration/actions/harness.ts';
import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

/*
 * Money invariants (issue 11): a model-based property test of the order lifecycle and the
 * affiliate ledger. fast-check generates programs of user and staff operations; each program
 * runs in batches whose operations go to the engine at the same time (random interleavings,
 * including the same step twice at once), and after every batch the ledger is checked:
 *
 * - no balance is ever negative;
 * - each referrer's bonuses are exactly the accruals of their referrals' completed orders,
 *   one per order;
 * - no withdrawal is paid twice, no order is made twice for one idempotency key;
 * - every order's history is a path of allowed transitions ending in its status, and the
 *   figures its state needs are there;
 * - no operation ever fails with an unexpected (5xx) error.
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const DEPOSIT = 'bc1q-service-deposit-ledger';

/** Codes an operation may be refused with in a correct product: anything else is a defect. */
const EXPECTED_REFUSALS = new Set([
  'invalid-transition',
  'insufficient-balance',
  'below-minimum',
  'refund-required',
  'not-found',
  'invalid-input',
  'validation-failed',
  // Continuing at the current rate with an amount the quote refuses now.
  'amount-above-max',
  'amount-below-min',
]);

const STEPS = [
  'supply',
  'confirm',
  'confirmUnder',
  'confirmOver',
  'hold',
  'release',
  'releaseRefund',
  'continue',
  'refund',
  'completeRefund',
  'complete',
  'cancel',
  'cancelByStaff',
] as const;
type Step = (typeof STEPS)[number];

/** The steps that move an order on from each status (repeats weigh the likelier ones). */
const NEXT_STEPS: Record<string, Step[]> = {
  waiting_for_operator: [
    'supply',
    'supply',
    'supply',
    'supply',
    'supply',
    'cancel',
    'cancelByStaff',
  ],
  waiting_for_payment: [
    'confirm',
    'confirm',
    'confirm',
    'confirm',
    'confirmUnder',
    'confirmOver',
    'hold',
    'cancel',
  ],
  paid: ['complete', 'complete', 'complete', 'complete', 'hold'],
  on_hold: ['release', 'releaseRefund'],
  needs_user_action: ['continue', 'refund'],
  refund_in_progress: ['completeRefund'],
  expired: ['confirm', 'hold'],
};

type Operation =
  | { kind: 'create'; user: number; amount: string; twice: boolean }
  | { kind: 'step'; order: number; step: Step }
  | { kind: 'advance'; order: number; choice: number }
  | { kind: 'expire' }
  | { kind: 'withdraw'; referrer: number; amount: string }
  | { kind: 'process'; withdrawal: number; outcome: 'paid' | 'rejected' };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      user: fc.nat(3),
      amount: fc.constantFrom('0.3', '0.5', '0.8', '1'),
      twice: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('step' as const),
      order: fc.nat(40),
      step: fc.constantFrom(...STEPS),
    }),
  },
  {
    weight: 16,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      order: fc.nat(40),
      choice: fc.nat(100),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      referrer: fc.nat(1),
      amount: fc.constantFrom('100', '150', '250', '400'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('process' as const),
      withdrawal: fc.nat(10),
      outcome: fc.constantFrom('paid' as const, 'rejected' as const),
    }),
  },
);

/** A program: batches of operations, each batch sent at once. */
const program = fc.array(fc.array(operation, { minLength: 2, maxLength: 8 }), {
  minLength: byProfile({ short: 16, full: 30 }),
  maxLength: byProfile({ short: 22, full: 45 }),
});

const ID = 'id status';
const MUTATIONS: Record<Step, { query: string; staff: boolean }> = {
  supply: {
    query: `mutation ($id: uuid!) { supplyRequisites(transactionId: $id, depositAddress: "${DEPOSIT}") { ${ID} } }`,
    staff: true,
  },
  confirm: {
    query: `mutation ($id: uuid!) { confirmPayment(transactionId: $id) { ${ID} } }`,
    staff: true,
  },
  confirmUnder: {
    query: `mutation ($id: uuid!) { confirmPayment(transactionId: $id, receivedAmount: "0.1") { ${ID} } }`,
    staff: true,
  },
  confirmOver: {
    query: `mutation ($id: uuid!) { confirmPayment(transactionId: $id, receivedAmount: "1.5") { ${ID} } }`,
    staff: true,
  },
  hold: {
    query: `mutation ($id: uuid!) { holdOrder(transactionId: $id, category: "aml_review") { ${ID} } }`,
    staff: true,
  },
  release: {
    query: `mutation ($id: uuid!) { releaseHold(transactionId: $id, outcome: "release") { ${ID} } }`,
    staff: true,
  },
  releaseRefund: {
    query: `mutation ($id: uuid!) { releaseHold(transactionId: $id, outcome: "refund") { ${ID} } }`,
    staff: true,
  },
  continue: {
    query: `mutation ($id: uuid!) { resolvePaymentIssue(transactionId: $id, choice: "continue") { ${ID} } }`,
    staff: false,
  },
  refund: {
    query: `mutation ($id: uuid!) { resolvePaymentIssue(transactionId: $id, choice: "refund", refundAddress: "${BTC_ADDRESS}") { ${ID} } }`,
    staff: false,
  },
  completeRefund: {
    query: `mutation ($id: uuid!) { completeRefund(transactionId: $id, refundTxId: "refund-tx") { ${ID} } }`,
    staff: true,
  },
  complete: {
    query: `mutation ($id: uuid!) { completeExchange(transactionId: $id, payoutTxId: "payout-tx") { ${ID} } }`,
    staff: true,
  },
  cancel: {
    query: `mutation ($id: uuid!) { cancelExchange(transactionId: $id) { ${ID} } }`,
    staff: false,
  },
  cancelByStaff: {
    query: `mutation ($id: uuid!) { cancelExchangeByStaff(transactionId: $id, reason: "test") { ${ID} } }`,
    staff: true,
  },
};

describe.each(databaseTargets)(
  'money invariants under concurrent operations on $name',
  (target) => {
    let db: TestDatabase;
    let stack: ActionsStack;
    let shift = 0;
    const staffId = randomUUID();
    const staff: Caller = { userId: staffId, role: 'manager' };
    const tally = {
      runs: 0,
      operations: 0,
      refused: 0,
      unexpected: 0,
      duplicates: 0,
      completedOrders: 0,
      refundedOrders: 0,
      bonuses: 0,
      withdrawalsPaid: 0,
    };

    beforeAll(async () => {
      db = await target.create();
      await prepareDatabase(db, { staff: staffId });
      stack = await startActionsStack(db, {
        env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
        now: () => new Date(Date.now() + shift),
      });
    });

    afterAll(async () => {
      recordFigures({
        check: `money-invariants:${target.name}`,
        figures: { duplicate_actions: tally.duplicates, fuzz_5xx: tally.unexpected },
        details: { ...tally },
      });
      await stack?.close();
      await db?.dispose();
    });

    /** A request's outcome; an unexpected failure is counted and reported, never swallowed. */
    async function send(
      query: string,
      variables: Record<string, unknown>,
      caller: Caller,
    ): Promise<Record<string, unknown> | null> {
      tally.operations += 1;
      let body: GraphqlBody;
      try {
        body = await stack.graphql(query, variables, caller);
      } catch (error) {
        tally.unexpected += 1;
        throw error;
      }
      if (!body.errors) return body.data ?? null;
      const code = String(body.errors[0]!.extensions['code']);
      if (!EXPECTED_REFUSALS.has(code)) {
        tally.unexpected += 1;
        throw new Error(`unexpected failure ${code}: ${body.errors[0]!.message}`);
      }
      tally.refused += 1;
      return null;
    }

    async function checkInvariants(referrers: string[], users: string[]): Promise<void> {
      const balances = await db.pool.query<{ user_id: string; available: string }>(
        `SELECT user_id, available_usdt::text AS available FROM affiliate_statistics
        WHERE user_id = ANY($1::uuid[]) AND available_usdt < 0`,
        [referrers],
      );
      expect(balances.rows, 'a negative affiliate balance').toEqual([]);

      const ledger = await db.pool.query<{ referrer: string; bonuses: string; accruals: string }>(
        `SELECT r.id AS referrer,
              (SELECT COALESCE(sum(amount_usdt), 0)::text FROM referral_bonuses WHERE referrer_id = r.id) AS bonuses,
              (SELECT COALESCE(sum(trunc(t.amount_usdt * s.accrual_rate, 6)), 0)::text
                 FROM transactions t JOIN portal_users u ON u.id = t.user_id, affiliate_settings s
                WHERE u.referrer_id = r.id AND t.status = 'completed') AS accruals
         FROM portal_users r WHERE r.id = ANY($1::uuid[])`,
        [referrers],
      );
      for (const row of ledger.rows)
        expect(row.bonuses, `bonuses of ${row.referrer}`).toBe(row.accruals);
      const strayBonuses = await db.pool.query(
        `SELECT b.id FROM referral_bonuses b JOIN transactions t ON t.id = b.transaction_id
        WHERE b.referrer_id = ANY($1::uuid[]) AND t.status <> 'completed'`,
        [referrers],
      );
      expect(strayBonuses.rows, 'a bonus for an order that is not completed').toEqual([]);

      const orders = await db.pool.query<{
        id: string;
        status: string;
        payout_tx_id: string | null;
        refund_tx_id: string | null;
        path: string[];
      }>(
        `SELECT t.id, t.status, t.payout_tx_id, t.refund_tx_id,
              array_agg(h.from_status || '>' || h.to_status ORDER BY h.id)
                FILTER (WHERE h.from_status IS NOT NULL) AS path
         FROM transactions t JOIN transaction_status_history h ON h.transaction_id = t.id
        WHERE t.user_id = ANY($1::uuid[])
        GROUP BY t.id`,
        [users],
      );
      const allowed = await db.pool.query<{ ok: boolean; step: string }>(
        `SELECT DISTINCT s AS step,
              transaction_transition_allowed(split_part(s, '>', 1), split_part(s, '>', 2)) AS ok
         FROM transactions t JOIN LATERAL (
           SELECT h.from_status || '>' || h.to_status AS s FROM transaction_status_history h
            WHERE h.transaction_id = t.id AND h.from_status IS NOT NULL) x ON true
        WHERE t.user_id = ANY($1::uuid[])`,
        [users],
      );
      expect(allowed.rows.filter((row) => !row.ok)).toEqual([]);
      for (const order of orders.rows) {
        const path = order.path ?? [];
        const last = path.at(-1)?.split('>')[1] ?? 'waiting_for_operator';
        expect(last, `history of ${order.id}`).toBe(order.status);
        if (order.status === 'completed') expect(order.payout_tx_id).not.toBeNull();
        if (order.status === 'refunded') expect(order.refund_tx_id).not.toBeNull();
        expect(
          order.payout_tx_id !== null && order.refund_tx_id !== null,
          'paid out and refunded',
        ).toBe(false);
      }
    }

    it('keeps the ledger whole whatever users and staff do at once', async () => {
      await fc.assert(
        fc.asyncProperty(program, async (batches) => {
          tally.runs += 1;
          const referrers = [randomUUID(), randomUUID()];
          const users = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
          for (const [index, id] of [...referrers, ...users].entries()) {
            await db.pool.query(
              // Confirmed customers: an unconfirmed account has few orders (decision 016).
              `INSERT INTO portal_users (id, email, referrer_id, is_verified_email)
               VALUES ($1, $2, $3, true)`,
              [
                id,
                `ledger-${id}@example.com`,
                index < 2 ? null : index === 5 ? null : referrers[index % 2],
              ],
            );
          }
          const orders: Array<{ id: string; owner: string }> = [];
          const withdrawals: string[] = [];
          const paidBy = new Map<string, number>();

          // Each referrer starts with a bonus from one completed referral order, so withdrawals
          // have a balance to draw on (and to overdraw).
          for (const owner of [users[0]!, users[1]!]) {
            const created = await send(
              `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id } }`,
              {
                input: {
                  from: 'BTC',
                  to: 'USDTTRC20',
                  side: 'send',
                  amount: '1',
                  email: 'ledger@example.com',
                  fullName: 'Ledger Test',
                  walletAddress: TRC20_ADDRESS,
                  reason: 'Savings',
                  agreeTerms: true,
                  agreeAml: true,
                  idempotencyKey: randomUUID(),
                },
              },
              owner,
            );
            const id = (created!['createExchange'] as { id: string }).id;
            for (const step of ['supply', 'confirm', 'complete'] as const)
              expect(await send(MUTATIONS[step].query, { id }, staff)).not.toBeNull();
            orders.push({ id, owner });
          }

          for (const batch of batches) {
            await Promise.all(
              batch.map(async (op) => {
                switch (op.kind) {
                  case 'create': {
                    const owner = users[op.user]!;
                    const key = randomUUID();
                    const input = {
                      from: 'BTC',
                      to: 'USDTTRC20',
                      side: 'send',
                      amount: op.amount,
                      email: 'ledger@example.com',
                      fullName: 'Ledger Test',
                      walletAddress: TRC20_ADDRESS,
                      reason: 'Savings',
                      agreeTerms: true,
                      agreeAml: true,
                      idempotencyKey: key,
                    };
                    const query = `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id } }`;
                    const results = await Promise.all(
                      (op.twice ? [1, 2] : [1]).map(() => send(query, { input }, owner)),
                    );
                    const ids = new Set(
                      results.map(
                        (data) => (data?.['createExchange'] as { id: string } | undefined)?.id,
                      ),
                    );
                    if (ids.size > 1) tally.duplicates += 1;
                    const { rows } = await db.pool.query<{ id: string }>(
                      'SELECT id FROM transactions WHERE user_id = $1 AND idempotency_key = $2',
                      [owner, key],
                    );
                    if (rows.length > 1) tally.duplicates += rows.length - 1;
                    if (rows[0]) orders.push({ id: rows[0].id, owner });
                    break;
                  }
                  case 'step': {
                    if (orders.length === 0) return;
                    const order = orders[op.order % orders.length]!;
                    const { query, staff: byStaff } = MUTATIONS[op.step];
                    await send(query, { id: order.id }, byStaff ? staff : order.owner);
                    break;
                  }
                  case 'advance': {
                    // A step that an open order's status allows (others in the batch may move
                    // the same order first: that race is the point).
                    const { rows: open } = await db.pool.query<{ id: string; status: string }>(
                      `SELECT id, status FROM transactions
                        WHERE id = ANY($1::uuid[])
                          AND status NOT IN ('completed', 'canceled', 'refunded')
                        ORDER BY number`,
                      [orders.map((item) => item.id)],
                    );
                    if (open.length === 0) return;
                    const pick = open[op.order % open.length]!;
                    const order = orders.find((item) => item.id === pick.id)!;
                    const next = NEXT_STEPS[pick.status];
                    if (!next) return;
                    const step = next[op.choice % next.length]!;
                    const { query, staff: byStaff } = MUTATIONS[step];
                    await send(query, { id: order.id }, byStaff ? staff : order.owner);
                    break;
                  }
                  case 'expire': {
                    shift = 31 * 60_000;
                    const response = await fetch(`${stack.actionsUrl}/cron/order-deadlines`, {
                      method: 'POST',
                      headers: {
                        'content-type': 'application/json',
                        [SECRET_HEADER]: ACTIONS_SECRET,
                      },
                      body: '{}',
                    });
                    shift = 0;
                    if (response.status >= 500) tally.unexpected += 1;
                    expect(response.status).toBe(200);
                    break;
                  }
                  case 'withdraw': {
                    const data = await send(
                      `mutation ($amount: numeric!, $wallet: String!) {
                      requestBonusWithdrawal(amount: $amount, walletAddress: $wallet) { id }
                    }`,
                      { amount: op.amount, wallet: TRC20_ADDRESS },
                      referrers[op.referrer]!,
                    );
                    const id = (data?.['requestBonusWithdrawal'] as { id: string } | undefined)?.id;
                    if (id) withdrawals.push(id);
                    break;
                  }
                  case 'process': {
                    if (withdrawals.length === 0) return;
                    const id = withdrawals[op.withdrawal % withdrawals.length]!;
                    const data = await send(
                      `mutation ($id: uuid!, $outcome: String!, $tx: String, $reason: String) {
                      processBonusWithdrawal(withdrawalId: $id, outcome: $outcome, payoutTxId: $tx, reason: $reason) { id }
                    }`,
                      op.outcome === 'paid'
                        ? { id, outcome: 'paid', tx: `wd-${randomUUID()}` }
                        : { id, outcome: 'rejected', reason: 'test' },
                      staff,
                    );
                    if (data && op.outcome === 'paid') paidBy.set(id, (paidBy.get(id) ?? 0) + 1);
                    break;
                  }
                }
              }),
            );
            await checkInvariants(referrers, users);
          }
          const { rows: reached } = await db.pool.query<Record<string, number>>(
            `SELECT (SELECT count(*)::int FROM transactions WHERE user_id = ANY($1::uuid[]) AND status = 'completed') AS completed,
                  (SELECT count(*)::int FROM transactions WHERE user_id = ANY($1::uuid[]) AND status = 'refunded') AS refunded,
                  (SELECT count(*)::int FROM referral_bonuses WHERE referrer_id = ANY($2::uuid[])) AS bonuses,
                  (SELECT count(*)::int FROM bonus_withdrawals WHERE user_id = ANY($2::uuid[]) AND status = 'paid') AS paid`,
            [users, referrers],
          );
          tally.completedOrders += reached[0]!['completed']!;
          tally.refundedOrders += reached[0]!['refunded']!;
          tally.bonuses += reached[0]!['bonuses']!;
          tally.withdrawalsPaid += reached[0]!['paid']!;
          const paidTwice = [...paidBy.values()].filter((count) => count > 1).length;
          tally.duplicates += paidTwice;
          expect(paidTwice, 'a withdrawal paid twice').toBe(0);
        }),
        { numRuns: byProfile({ short: 4, full: 25 }), endOnFailure: true },
      );
      expect(tally.duplicates).toBe(0);
      expect(tally.unexpected).toBe(0);
    });
  },
);

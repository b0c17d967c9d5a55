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

import { checkInvariants } from './ledger-invariants.ts';
import {
  EXPECTED_REFUSALS,
  MUTATIONS,
  NEXT_STEPS,
  TRC20_ADDRESS,
  program,
} from './ledger-program.ts';

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
            await checkInvariants(db, referrers, users);
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

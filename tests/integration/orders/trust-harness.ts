import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, expect } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';

import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
  type GraphqlBody,
} from '../actions/harness.ts';

import { CREATE, DEPOSIT, LINK_SECRET, SUPPLY, TRC20_ADDRESS } from './trust-documents.ts';

/*
 * The order trust suites' shared world (issue 10, decision 015): the real engine and actions
 * service on an injected clock, two customers and a manager, and the steps every suite takes
 * (create an order, give its requisites, run the deadlines job). Each suite file calls
 * useTrustWorld inside its describe.each, which starts one world for the file.
 */

/** Starts the world before the suite's tests and stops it after; the handles are read lazily. */
export function useTrustWorld(target: DatabaseTarget) {
  let db: TestDatabase;
  let stack: ActionsStack;
  /** The actions service's clock: the real one shifted by `shift` milliseconds. */
  const clock = { shift: 0 };
  const alice = randomUUID();
  const bob = randomUUID();
  const staffId = randomUUID();
  const staff: Caller = { userId: staffId, role: 'manager' };

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, bob, staff: staffId });
    stack = await startActionsStack(db, {
      env: {
        ACTIONS_SECRET,
        QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
        ORDER_LINK_SECRET: LINK_SECRET,
      },
      now: () => new Date(Date.now() + clock.shift),
    });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  const graphql: ActionsStack['graphql'] = (...args) => stack.graphql(...args);

  async function ok(body: Promise<GraphqlBody>): Promise<Record<string, unknown>> {
    const result = await body;
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return result.data!;
  }

  async function refused(body: Promise<GraphqlBody>): Promise<Record<string, unknown>> {
    const result = await body;
    expect(result.errors, 'expected the request to be refused').toBeDefined();
    return result.errors![0]!.extensions;
  }

  async function order(id: string) {
    const { rows } = await db.pool.query<Record<string, string | null>>(
      `SELECT status, send_amount::text AS send_amount, receive_amount::text AS receive_amount,
            rate::text AS rate, quoted_receive_amount::text AS quoted_receive_amount,
            quoted_rate::text AS quoted_rate, requoted_at, requisites_late_at,
            to_json(requisites_due_at) #>> '{}' AS requisites_due_at,
            to_json(pay_by) #>> '{}' AS pay_by, received_amount::text AS received_amount,
            action_reason, hold_category, settled_receive_amount::text AS settled_receive_amount,
            settled_rate::text AS settled_rate, refund_address, refund_memo, refund_tx_id,
            payout_memo, expired_at
       FROM transactions WHERE id = $1`,
      [id],
    );
    return rows[0]!;
  }

  async function create(input: Record<string, unknown> = {}, user = alice): Promise<string> {
    const data = await ok(
      stack.graphql(
        CREATE,
        {
          input: {
            from: 'BTC',
            to: 'USDTTRC20',
            side: 'send',
            amount: '0.015',
            email: 'alice@example.com',
            fullName: 'Alice Example',
            walletAddress: TRC20_ADDRESS,
            reason: 'Savings',
            agreeTerms: true,
            agreeAml: true,
            idempotencyKey: randomUUID(),
            ...input,
          },
        },
        user,
      ),
    );
    return (data['createExchange'] as { id: string }).id;
  }

  async function awaitingPayment(input: Record<string, unknown> = {}): Promise<string> {
    const id = await create(input);
    await ok(stack.graphql(SUPPLY, { id, address: DEPOSIT }, staff));
    return id;
  }

  async function runDeadlines(): Promise<{ expired: string[]; flaggedLate: string[] }> {
    const response = await fetch(`${stack.actionsUrl}/cron/order-deadlines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_HEADER]: ACTIONS_SECRET },
      body: '{}',
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { expired: string[]; flaggedLate: string[] };
  }

  return {
    get db() {
      return db;
    },
    clock,
    alice,
    bob,
    staff,
    graphql,
    ok,
    refused,
    order,
    create,
    awaitingPayment,
    runDeadlines,
  };
}

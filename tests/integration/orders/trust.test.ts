import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';
import { orderLinkToken } from '@app/actions/orders/link-token';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
  type GraphqlBody,
} from '../actions/harness.ts';

/*
 * Issue 10's order paths through the real engine and actions service (decision 015): the
 * deadlines job on an injected clock, late requisites, the re-quote in the user's favour, holds,
 * underpayment and overpayment, refunds, secret links and the public requisites check.
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OTHER_BTC_ADDRESS = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const DEPOSIT = 'bc1q-service-deposit-0001';
const IBAN = 'DE89370400440532013000';
const LINK_SECRET = 'test-order-link-secret-0123456789abcdef';
const MINUTE = 60_000;

const STATUS = 'id number status';
const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) { id number status }
}`;
const SUPPLY = `mutation ($id: uuid!, $address: String) {
  supplyRequisites(transactionId: $id, depositAddress: $address) { ${STATUS} }
}`;
const CONFIRM = `mutation ($id: uuid!, $received: numeric) {
  confirmPayment(transactionId: $id, receivedAmount: $received) { ${STATUS} }
}`;
const HOLD = `mutation ($id: uuid!, $category: String!) {
  holdOrder(transactionId: $id, category: $category) { ${STATUS} }
}`;
const RELEASE = `mutation ($id: uuid!, $outcome: String!) {
  releaseHold(transactionId: $id, outcome: $outcome) { ${STATUS} }
}`;
const RESOLVE = `mutation ($id: uuid!, $choice: String!, $address: String, $memo: String) {
  resolvePaymentIssue(transactionId: $id, choice: $choice, refundAddress: $address, refundMemo: $memo) {
    ${STATUS}
  }
}`;
const REFUNDED = `mutation ($id: uuid!, $tx: String!) {
  completeRefund(transactionId: $id, refundTxId: $tx) { ${STATUS} }
}`;
const COMPLETE = `mutation ($id: uuid!, $tx: String!) {
  completeExchange(transactionId: $id, payoutTxId: $tx) { ${STATUS} }
}`;
const CANCEL = `mutation ($id: uuid!) { cancelExchange(transactionId: $id) { ${STATUS} } }`;
const BY_LINK = `query ($token: String!) {
  orderByLink(token: $token) {
    id number status sendAmount receiveAmount requisitesDueAt payBy queuePosition actionReason
    holdCategory receivedAmount settledReceiveAmount refundTxId payoutTxId
  }
}`;
const CHECK = `query ($value: String!) { checkRequisites(value: $value) { value verdict kind currency } }`;
const MINE = `query ($id: uuid!) {
  transactions_by_pk(id: $id) {
    status queue_position requisites_due_at requisites_late_at pay_by action_reason hold_category
    received_amount settled_receive_amount settled_rate refund_address refund_tx_id
  }
}`;

describe.each(databaseTargets)('order trust paths on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  /** The actions service's clock: the real one shifted by `shift` milliseconds. */
  let shift = 0;
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
      now: () => new Date(Date.now() + shift),
    });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

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

  it('promises the requisites within 10 minutes and starts the payment window only when they come', async () => {
    const before = Date.now();
    const id = await create();
    const created = await order(id);
    const due = Date.parse(created['requisites_due_at']!);
    expect(due).toBeGreaterThanOrEqual(before + 10 * MINUTE - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 10 * MINUTE + 1000);
    expect(created['pay_by']).toBeNull();

    await ok(stack.graphql(SUPPLY, { id, address: DEPOSIT }, staff));
    const given = await order(id);
    // BTC is crypto: a 30-minute window from the moment the details were given.
    const payBy = Date.parse(given['pay_by']!);
    expect(payBy).toBeGreaterThan(Date.now() + 29 * MINUTE);
    expect(payBy).toBeLessThan(Date.now() + 31 * MINUTE);
  });

  it('runs the promise from the opening of the working hours for an order made outside them', async () => {
    // USDT -> UAH is handled 09:00-23:00 UTC+3 with a 22:30 cut-off: an order at 21:00 UTC
    // (midnight in Kyiv) tomorrow is handled from 09:00 Kyiv time, 06:00 UTC, the day after.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const night = Date.parse(`${tomorrow}T21:00:00Z`);
    shift = night - Date.now();
    try {
      const id = await create({
        from: 'USDTTRC20',
        to: 'UAH',
        amount: '500',
        walletAddress: undefined,
        iban: 'UA213223130000026007233566001',
      });
      const due = Date.parse((await order(id))['requisites_due_at']!);
      expect(new Date(due).toISOString()).toBe(
        new Date(night + 9 * 3_600_000 + 10 * MINUTE).toISOString(),
      );
    } finally {
      shift = 0;
    }
  });

  it('expires an unpaid order past pay_by by the clock, once, and never an order that was paid', async () => {
    const unpaid = await awaitingPayment();
    const paid = await awaitingPayment();
    await ok(stack.graphql(CONFIRM, { id: paid }, staff));

    shift = 29 * MINUTE;
    expect((await runDeadlines()).expired).toEqual([]);
    expect((await order(unpaid))['status']).toBe('waiting_for_payment');

    shift = 31 * MINUTE;
    const { rows } = await db.pool.query<{ number: string }>(
      'SELECT number::text AS number FROM transactions WHERE id = $1',
      [unpaid],
    );
    expect((await runDeadlines()).expired).toContain(rows[0]!.number);
    const expired = await order(unpaid);
    expect(expired['status']).toBe('expired');
    expect(expired['expired_at']).not.toBeNull();
    expect((await order(paid))['status']).toBe('paid');
    // A second run finds nothing to do.
    expect((await runDeadlines()).expired).not.toContain(rows[0]!.number);
    shift = 0;

    // The owner sees it; the history says so.
    const mine = await ok(stack.graphql(MINE, { id: unpaid }, alice));
    expect((mine['transactions_by_pk'] as { status: string }).status).toBe('expired');
    const history = await db.pool.query(
      `SELECT 1 FROM transaction_status_history WHERE transaction_id = $1 AND to_status = 'expired'`,
      [unpaid],
    );
    expect(history.rowCount).toBe(1);

    // A payment that arrives late is never lost: the user is asked what to do.
    await ok(stack.graphql(CONFIRM, { id: unpaid, received: '0.015' }, staff));
    const late = await order(unpaid);
    expect(late['status']).toBe('needs_user_action');
    expect(late['action_reason']).toBe('late_payment');
  });

  it('flags late requisites once, shows the queue position, and lets the user cancel', async () => {
    const first = await create();
    const second = await create();
    const position = async (id: string) =>
      (
        (await ok(stack.graphql(MINE, { id }, alice)))['transactions_by_pk'] as {
          queue_position: number | null;
        }
      ).queue_position;
    const p1 = await position(first);
    const p2 = await position(second);
    expect(p1).not.toBeNull();
    expect(p2).toBe(p1! + 1);

    shift = 11 * MINUTE;
    const report = await runDeadlines();
    shift = 0;
    const flagged = await order(second);
    expect(flagged['requisites_late_at']).not.toBeNull();
    expect(report.flaggedLate.length).toBeGreaterThanOrEqual(2);
    shift = 12 * MINUTE;
    const again = await runDeadlines();
    shift = 0;
    expect(again.flaggedLate).toEqual([]);
    expect((await order(second))['requisites_late_at']).toEqual(flagged['requisites_late_at']);

    // Cancelling costs nothing and is the owner's right while the operator is late.
    const canceled = await ok(stack.graphql(CANCEL, { id: second }, alice));
    expect((canceled['cancelExchange'] as { status: string }).status).toBe('canceled');
    expect(await position(second)).toBeNull();
  });

  it('re-quotes an order whose requisites come late, keeping the better amount for the user', async () => {
    const id = await create();
    const locked = await order(id);
    // The market moved up for BTC: a newer price from another provider.
    await db.pool.query(
      `INSERT INTO rates (currency_code, provider, price_usdt, fetched_at)
       SELECT 'BTC', 'test-up', price_usdt * 1.05, now() FROM rates
        WHERE currency_code = 'BTC' ORDER BY fetched_at DESC LIMIT 1`,
    );
    try {
      shift = 11 * MINUTE;
      await ok(stack.graphql(SUPPLY, { id, address: DEPOSIT }, staff));
      shift = 0;
      const requoted = await order(id);
      expect(requoted['requoted_at']).not.toBeNull();
      expect(requoted['quoted_receive_amount']).toBe(locked['receive_amount']);
      expect(requoted['quoted_rate']).toBe(locked['rate']);
      expect(Number(requoted['receive_amount'])).toBeGreaterThan(Number(locked['receive_amount']));

      // In time, the locked quote holds whatever the market does.
      const onTime = await create();
      const onTimeLocked = await order(onTime);
      await ok(stack.graphql(SUPPLY, { id: onTime, address: DEPOSIT }, staff));
      const kept = await order(onTime);
      expect(kept['receive_amount']).toBe(onTimeLocked['receive_amount']);
      expect(kept['requoted_at']).toBeNull();
    } finally {
      shift = 0;
      await db.pool.query(`DELETE FROM rates WHERE provider = 'test-up'`);
    }

    // Late, but the market moved against the user: the locked figures stay.
    const down = await create();
    const downLocked = await order(down);
    await db.pool.query(
      `INSERT INTO rates (currency_code, provider, price_usdt, fetched_at)
       SELECT 'BTC', 'test-down', price_usdt * 0.9, now() FROM rates
        WHERE currency_code = 'BTC' ORDER BY fetched_at DESC LIMIT 1`,
    );
    try {
      shift = 11 * MINUTE;
      await ok(stack.graphql(SUPPLY, { id: down, address: DEPOSIT }, staff));
    } finally {
      shift = 0;
      await db.pool.query(`DELETE FROM rates WHERE provider = 'test-down'`);
    }
    const downAfter = await order(down);
    expect(downAfter['receive_amount']).toBe(downLocked['receive_amount']);
    expect(downAfter['requoted_at']).toBeNull();

    // Nobody can change the figures by hand, not even the database owner outside the re-quote.
    await expect(
      db.pool.query(`UPDATE transactions SET receive_amount = receive_amount * 2 WHERE id = $1`, [
        down,
      ]),
    ).rejects.toThrow(/cannot be changed/);
  });

  it('holds a payment for review, then releases it to paid and on to completed', async () => {
    const id = await awaitingPayment();
    expect(await refused(stack.graphql(HOLD, { id, category: 'because' }, staff))).toMatchObject({
      code: 'invalid-input',
    });
    expect(await refused(stack.graphql(HOLD, { id, category: 'aml_review' }, alice))).toBeDefined();
    expect((await order(id))['status']).toBe('waiting_for_payment');

    await ok(stack.graphql(HOLD, { id, category: 'source_of_funds' }, staff));
    const held = await order(id);
    expect(held).toMatchObject({
      status: 'on_hold',
      hold_category: 'source_of_funds',
      received_amount: '0.01500000',
    });
    const mine = await ok(stack.graphql(MINE, { id }, alice));
    expect(mine['transactions_by_pk']).toMatchObject({
      status: 'on_hold',
      hold_category: 'source_of_funds',
    });

    await ok(stack.graphql(RELEASE, { id, outcome: 'release' }, staff));
    expect(await order(id)).toMatchObject({ status: 'paid', hold_category: null });
    await ok(stack.graphql(COMPLETE, { id, tx: 'payout-tx-1' }, staff));
    expect((await order(id))['status']).toBe('completed');
  });

  it('a released hold of a different or late amount still asks the user, never pays out the locked figures', async () => {
    const short = await awaitingPayment();
    await ok(
      stack.graphql(
        `mutation ($id: uuid!) {
          holdOrder(transactionId: $id, category: "aml_review", receivedAmount: "0.01") { id }
        }`,
        { id: short },
        staff,
      ),
    );
    await ok(stack.graphql(RELEASE, { id: short, outcome: 'release' }, staff));
    expect(await order(short)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'underpaid',
    });

    const late = await awaitingPayment();
    shift = 31 * MINUTE;
    await runDeadlines();
    shift = 0;
    await ok(stack.graphql(HOLD, { id: late, category: 'aml_review' }, staff));
    await ok(stack.graphql(RELEASE, { id: late, outcome: 'release' }, staff));
    expect(await order(late)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'late_payment',
    });
  });

  it('underpaid: the user chooses a refund to a valid address, staff send it, the order is refunded', async () => {
    const id = await awaitingPayment();
    await ok(stack.graphql(CONFIRM, { id, received: '0.01' }, staff));
    expect(await order(id)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'underpaid',
      received_amount: '0.01',
    });

    // Bad input changes nothing.
    expect(
      await refused(
        stack.graphql(RESOLVE, { id, choice: 'refund', address: TRC20_ADDRESS }, alice),
      ),
    ).toMatchObject({ code: 'invalid-input', field: 'refundAddress' });
    expect(await refused(stack.graphql(RESOLVE, { id, choice: 'refund' }, alice))).toMatchObject({
      code: 'invalid-input',
    });
    expect(await refused(stack.graphql(RESOLVE, { id, choice: 'maybe' }, alice))).toMatchObject({
      code: 'invalid-input',
    });
    // Only the owner decides.
    expect(
      await refused(stack.graphql(RESOLVE, { id, choice: 'refund', address: BTC_ADDRESS }, bob)),
    ).toMatchObject({ code: 'not-found' });
    expect((await order(id))['status']).toBe('needs_user_action');

    await ok(stack.graphql(RESOLVE, { id, choice: 'refund', address: BTC_ADDRESS }, alice));
    expect(await order(id)).toMatchObject({
      status: 'refund_in_progress',
      refund_address: BTC_ADDRESS,
      action_reason: null,
    });
    // The address is fixed while the refund is under way.
    await expect(
      db.pool.query(`UPDATE transactions SET refund_address = $2 WHERE id = $1`, [
        id,
        OTHER_BTC_ADDRESS,
      ]),
    ).rejects.toThrow(/refund address/);

    expect(await refused(stack.graphql(REFUNDED, { id, tx: 'r-1' }, alice))).toBeDefined();
    await ok(stack.graphql(REFUNDED, { id, tx: 'refund-tx-42' }, staff));
    expect(await order(id)).toMatchObject({ status: 'refunded', refund_tx_id: 'refund-tx-42' });
    const mine = await ok(stack.graphql(MINE, { id }, alice));
    expect(mine['transactions_by_pk']).toMatchObject({
      status: 'refunded',
      refund_tx_id: 'refund-tx-42',
    });
    // Refunded is final.
    expect(await refused(stack.graphql(REFUNDED, { id, tx: 'again' }, staff))).toMatchObject({
      code: 'invalid-transition',
    });
  });

  it('overpaid: the user continues at the current rate with the amount that arrived', async () => {
    const id = await awaitingPayment();
    const locked = await order(id);
    await ok(stack.graphql(CONFIRM, { id, received: '0.02' }, staff));
    expect(await order(id)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'overpaid',
    });
    await ok(stack.graphql(RESOLVE, { id, choice: 'continue' }, alice));
    const settled = await order(id);
    expect(settled['status']).toBe('paid');
    // The quote of 0.02 BTC now, through the quote action itself.
    const quote = await ok(
      stack.graphql(
        `query ($input: QuoteInput!) { quote(input: $input) { receiveAmount rate } }`,
        { input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.02' } },
        alice,
      ),
    );
    expect(settled['settled_receive_amount']).toBe(
      (quote['quote'] as { receiveAmount: string }).receiveAmount,
    );
    expect(settled['settled_rate']).toBe((quote['quote'] as { rate: string }).rate);
    // The locked terms stay as they were.
    expect(settled['receive_amount']).toBe(locked['receive_amount']);
    await ok(stack.graphql(COMPLETE, { id, tx: 'payout-tx-2' }, staff));
  });

  it('a refused hold asks the user for a refund address and offers no way to continue', async () => {
    const id = await awaitingPayment();
    await ok(stack.graphql(HOLD, { id, category: 'sanctions_screening' }, staff));
    await ok(stack.graphql(RELEASE, { id, outcome: 'refund' }, staff));
    expect(await order(id)).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'refund_required',
    });
    expect(await refused(stack.graphql(RESOLVE, { id, choice: 'continue' }, alice))).toMatchObject({
      code: 'refund-required',
    });
    await ok(stack.graphql(RESOLVE, { id, choice: 'refund', address: BTC_ADDRESS }, alice));
    expect((await order(id))['status']).toBe('refund_in_progress');

    // With a refund address given at creation, a refused hold goes straight to the refund.
    const upfront = await awaitingPayment({ refundAddress: BTC_ADDRESS });
    await ok(stack.graphql(HOLD, { id: upfront, category: 'aml_review' }, staff));
    await ok(stack.graphql(RELEASE, { id: upfront, outcome: 'refund' }, staff));
    expect(await order(upfront)).toMatchObject({
      status: 'refund_in_progress',
      refund_address: BTC_ADDRESS,
    });
  });

  it('checks the memo and refund fields at creation', async () => {
    const refused1 = await refused(
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
            refundAddress: TRC20_ADDRESS,
          },
        },
        alice,
      ),
    );
    expect(refused1).toMatchObject({
      code: 'validation-failed',
      fields: { refundAddress: 'invalid-wallet-address' },
    });
    const id = await create({ refundAddress: BTC_ADDRESS, payoutMemo: '123456' });
    expect(await order(id)).toMatchObject({ refund_address: BTC_ADDRESS, payout_memo: '123456' });
    // Paying by bank: the refund goes to an IBAN.
    const eur = await create({
      from: 'EUR',
      to: 'USDTTRC20',
      amount: '500',
      refundAddress: 'DE89 3704 0044 0532 0130 00',
    });
    expect((await order(eur))['refund_address']).toBe(IBAN);
  });

  it('opens an order by its secret link only, read-only and without payment details', async () => {
    const id = await awaitingPayment();
    const other = await awaitingPayment();
    const token = orderLinkToken(LINK_SECRET, id);
    const data = await ok(stack.graphql(BY_LINK, { token }));
    const linked = data['orderByLink'] as Record<string, unknown>;
    expect(linked).toMatchObject({ id, status: 'waiting_for_payment', sendAmount: '0.01500000' });
    expect(linked['payBy']).not.toBeNull();
    expect(JSON.stringify(data)).not.toContain(DEPOSIT);
    // Another order's token shows that order only.
    const otherData = await ok(
      stack.graphql(BY_LINK, { token: orderLinkToken(LINK_SECRET, other) }),
    );
    expect((otherData['orderByLink'] as { id: string }).id).toBe(other);
    // An altered token, another key's token, garbage: not found.
    const altered = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}${token.slice(-1)}`;
    for (const bad of [
      altered,
      orderLinkToken('another-secret-0123456789abcdef', id),
      'x',
      `${token}x`,
    ]) {
      expect(await refused(stack.graphql(BY_LINK, { token: bad }))).toMatchObject({
        code: 'not-found',
      });
    }
  });

  it("answers whether an address or IBAN is really the service's", async () => {
    await awaitingPayment();
    const check = async (value: string) =>
      (await ok(stack.graphql(CHECK, { value })))['checkRequisites'] as Record<string, unknown>;
    expect(await check(DEPOSIT)).toMatchObject({
      verdict: 'active',
      kind: 'deposit_address',
      currency: 'BTC',
    });
    expect(await check(OTHER_BTC_ADDRESS)).toMatchObject({ verdict: 'unknown', kind: null });

    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address, currency_code)
       VALUES ('Exchange Ltd', 'LT121000011101001000', 'HABALT22', 'Vilnius', 'EUR') RETURNING id`,
    );
    expect(await check('lt12 1000 0111 0100 1000')).toMatchObject({
      value: 'LT121000011101001000',
      verdict: 'active',
      kind: 'bank_account',
      currency: 'EUR',
    });
    await db.pool.query('UPDATE bank_accounts SET is_active = false WHERE id = $1', [rows[0]!.id]);
    expect(await check('LT121000011101001000')).toMatchObject({ verdict: 'retired' });
  });
});

import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
  type GraphqlBody,
} from './harness.ts';

/*
 * What completing an order does for the affiliate program and the levels, and the bonus
 * withdrawal actions: the balance rules hold under concurrency, staff settle withdrawals.
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

const WITHDRAW = `mutation ($amount: numeric!, $wallet: String!) {
  requestBonusWithdrawal(amount: $amount, walletAddress: $wallet) {
    id amountUsdt walletAddress status availableUsdt withdrawal { id status }
  }
}`;
const PROCESS = `mutation ($id: uuid!, $outcome: String!, $tx: String, $reason: String) {
  processBonusWithdrawal(withdrawalId: $id, outcome: $outcome, payoutTxId: $tx, reason: $reason) {
    status availableUsdt
  }
}`;

describe.each(databaseTargets)('affiliate program and levels on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const referrerId = randomUUID();
  const staffId = randomUUID();
  const staff: Caller = { userId: staffId, role: 'manager' };
  const admin: Caller = { userId: staffId, role: 'administrator' };

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { referrer: referrerId, staff: staffId });
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  const codeOf = (body: GraphqlBody) => body.errors?.[0]?.extensions['code'];

  /** A user referred by `referrer` (or nobody), with a confirmed e-mail (decision 016). */
  async function newUser(referrer: string | null = referrerId, status = 'new'): Promise<string> {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO portal_users (email, referrer_id, status, is_verified_email)
       VALUES ($1, $2, $3, true) RETURNING id`,
      [`${randomUUID()}@example.com`, referrer, status],
    );
    return rows[0]!.id;
  }

  /** An order worth `usdt` taken to completed step by step, as the actions do. */
  async function completedOrder(userId: string, usdt: string): Promise<string> {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                 receive_amount, rate, email, full_name, wallet_address, reason,
                                 amount_usdt)
       VALUES ($1, 'BTC', 'USDTTRC20', 1, 2, 2, 'u@example.com', 'U Ser', $2, 'Savings', $3)
       RETURNING id`,
      [userId, TRC20_ADDRESS, usdt],
    );
    const id = rows[0]!.id;
    await db.pool.query(
      `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = $2 WHERE id = $1`,
      [id, TRC20_ADDRESS],
    );
    await db.pool.query(`UPDATE transactions SET status = 'paid' WHERE id = $1`, [id]);
    await db.pool.query(
      `UPDATE transactions SET status = 'completed', payout_tx_id = 'tx-1' WHERE id = $1`,
      [id],
    );
    return id;
  }

  async function statusOf(userId: string): Promise<string> {
    const { rows } = await db.pool.query<{ status: string }>(
      'SELECT status FROM portal_users WHERE id = $1',
      [userId],
    );
    return rows[0]!.status;
  }

  it("credits the referrer the configured share of a completed order's USDT value, once", async () => {
    const referral = await newUser();
    const order = await completedOrder(referral, '1234.567891');
    const { rows } = await db.pool.query(
      `SELECT referrer_id, referral_id, order_amount_usdt::text, accrual_rate::text, amount_usdt::text
         FROM referral_bonuses WHERE transaction_id = $1`,
      [order],
    );
    // 0.5 % rounded down to six decimals: 6.172839455 -> 6.172839.
    expect(rows).toEqual([
      {
        referrer_id: referrerId,
        referral_id: referral,
        order_amount_usdt: '1234.567891',
        accrual_rate: '0.005000',
        amount_usdt: '6.172839',
      },
    ]);

    // An unreferred user's order credits nobody.
    const loner = await newUser(null);
    const unreferred = await completedOrder(loner, '1000');
    const none = await db.pool.query('SELECT 1 FROM referral_bonuses WHERE transaction_id = $1', [
      unreferred,
    ]);
    expect(none.rowCount).toBe(0);
  });

  it('lets administrators change the accrual rate, and records the rate per bonus', async () => {
    const update = `mutation ($rate: numeric!) {
      update_affiliate_settings(where: {}, _set: { accrual_rate: $rate }) { affected_rows }
    }`;
    expect(codeOf(await stack.graphql(update, { rate: '0.5' }, staff))).toBeDefined();
    const changed = await stack.graphql(update, { rate: '0.01' }, admin);
    expect(changed.errors).toBeUndefined();

    const order = await completedOrder(await newUser(), '1000');
    const { rows } = await db.pool.query(
      'SELECT accrual_rate::text, amount_usdt::text FROM referral_bonuses WHERE transaction_id = $1',
      [order],
    );
    expect(rows).toEqual([{ accrual_rate: '0.010000', amount_usdt: '10.000000' }]);
    // Earlier bonuses keep the rate they were accrued at.
    const rates = await db.pool.query<{ accrual_rate: string }>(
      'SELECT DISTINCT accrual_rate::text FROM referral_bonuses ORDER BY 1',
    );
    expect(rates.rows.map((row) => row.accrual_rate)).toEqual(['0.005000', '0.010000']);
    await db.pool.query('UPDATE affiliate_settings SET accrual_rate = 0.005');
  });

  it('moves a user up the levels by completed orders, never down, and leaves staff statuses', async () => {
    const climber = await newUser(null);
    for (let index = 0; index < 4; index += 1) await completedOrder(climber, '100');
    expect(await statusOf(climber)).toBe('new');
    await completedOrder(climber, '100');
    // Five completed orders: bronze (min_orders 5).
    expect(await statusOf(climber)).toBe('bronze');

    // A user staff put on a higher level stays there.
    const gold = await newUser(null, 'gold');
    await completedOrder(gold, '100');
    expect(await statusOf(gold)).toBe('gold');

    // A status that names no level was set by staff on purpose.
    const special = await newUser(null, 'partner');
    for (let index = 0; index < 5; index += 1) await completedOrder(special, '100');
    expect(await statusOf(special)).toBe('partner');
  });

  it('refuses withdrawals under 100 USDT, to a bad wallet, or over the balance; writes nothing', async () => {
    const earner = await newUser(null);
    const referral = await newUser(earner);
    await completedOrder(referral, '30000'); // 150 USDT
    const as: Caller = { userId: earner, role: 'user' };

    expect(
      codeOf(await stack.graphql(WITHDRAW, { amount: '99.99', wallet: TRC20_ADDRESS }, as)),
    ).toBe('below-minimum');
    expect(
      codeOf(await stack.graphql(WITHDRAW, { amount: '150.01', wallet: TRC20_ADDRESS }, as)),
    ).toBe('insufficient-balance');
    expect(
      codeOf(await stack.graphql(WITHDRAW, { amount: '100.0000001', wallet: TRC20_ADDRESS }, as)),
    ).toBe('invalid-input');
    const badWallet = await stack.graphql(
      WITHDRAW,
      { amount: '100', wallet: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeD' },
      as,
    );
    expect(badWallet.errors?.[0]?.extensions).toMatchObject({ field: 'walletAddress' });
    const count = await db.pool.query('SELECT 1 FROM bonus_withdrawals WHERE user_id = $1', [
      earner,
    ]);
    expect(count.rowCount).toBe(0);

    const all = await stack.graphql(WITHDRAW, { amount: '150', wallet: TRC20_ADDRESS }, as);
    expect(all.errors).toBeUndefined();
    expect(all.data?.['requestBonusWithdrawal']).toMatchObject({
      amountUsdt: '150',
      walletAddress: TRC20_ADDRESS,
      status: 'pending',
      availableUsdt: '0.000000',
      withdrawal: { status: 'pending' },
    });
  });

  it('lets exactly one of 20 concurrent 100 USDT withdrawals through a 100 USDT balance', async () => {
    const earner = await newUser(null);
    await completedOrder(await newUser(earner), '20000'); // exactly 100 USDT
    const as: Caller = { userId: earner, role: 'user' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        stack.graphql(WITHDRAW, { amount: '100', wallet: TRC20_ADDRESS }, as),
      ),
    );
    const accepted = results.filter((result) => result.errors === undefined);
    expect(accepted).toHaveLength(1);
    expect(
      results
        .filter((result) => codeOf(result) !== 'insufficient-balance' && result.errors)
        .map((r) => r.errors),
    ).toEqual([]);
    expect(results.filter((result) => codeOf(result) === 'insufficient-balance')).toHaveLength(19);
    const rows = await db.pool.query('SELECT 1 FROM bonus_withdrawals WHERE user_id = $1', [
      earner,
    ]);
    expect(rows.rowCount).toBe(1);
  });

  it('lets staff pay or reject a pending withdrawal once; a rejection returns the amount', async () => {
    const earner = await newUser(null);
    await completedOrder(await newUser(earner), '40000'); // 200 USDT
    const as: Caller = { userId: earner, role: 'user' };
    const request = async () => {
      const body = await stack.graphql(WITHDRAW, { amount: '100', wallet: TRC20_ADDRESS }, as);
      return (body.data?.['requestBonusWithdrawal'] as { id: string }).id;
    };
    const first = await request();
    const second = await request();

    // Users have no such action; a paid outcome needs its tx id.
    expect(codeOf(await stack.graphql(PROCESS, { id: first, outcome: 'paid', tx: 'x' }, as))).toBe(
      'validation-failed',
    );
    expect(codeOf(await stack.graphql(PROCESS, { id: first, outcome: 'paid' }, staff))).toBe(
      'invalid-input',
    );

    const paid = await stack.graphql(PROCESS, { id: first, outcome: 'paid', tx: 'trx-1' }, staff);
    expect(paid.data?.['processBonusWithdrawal']).toEqual({
      status: 'paid',
      availableUsdt: '0.000000',
    });
    const rejected = await stack.graphql(
      PROCESS,
      { id: second, outcome: 'rejected', reason: 'Wallet on a sanctions list' },
      staff,
    );
    expect(rejected.data?.['processBonusWithdrawal']).toEqual({
      status: 'rejected',
      availableUsdt: '100.000000',
    });
    expect(
      codeOf(await stack.graphql(PROCESS, { id: first, outcome: 'rejected', reason: 'x' }, staff)),
    ).toBe('invalid-transition');
    const { rows } = await db.pool.query(
      `SELECT status, processed_by, processed_at IS NOT NULL AS processed
         FROM bonus_withdrawals WHERE id = $1`,
      [first],
    );
    expect(rows).toEqual([{ status: 'paid', processed_by: staffId, processed: true }]);
  });

  it('shows a user only their own affiliate figures and history', async () => {
    const earner = await newUser(null);
    const referral = await newUser(earner);
    await completedOrder(referral, '2000'); // 10 USDT
    const query = `query {
      affiliate_statistics { user_id accumulated_usdt total_referrals }
      referral_history { referral amount_usdt }
    }`;
    const mine = await stack.graphql(query, {}, { userId: earner, role: 'user' });
    expect(mine.data?.['affiliate_statistics']).toEqual([
      { user_id: earner, accumulated_usdt: '10.000000', total_referrals: 1 },
    ]);
    const history = mine.data?.['referral_history'] as Array<Record<string, string>>;
    expect(history).toHaveLength(1);
    expect(history[0]!['referral']).toMatch(/^[0-9a-f]{2}\*\*\*@example\.com$/);
    expect(history[0]!['amount_usdt']).toBe('10.000000');
    const theirs = await stack.graphql(query, {}, { userId: referral, role: 'user' });
    expect(theirs.data).toEqual({
      affiliate_statistics: [{ user_id: referral, accumulated_usdt: '0', total_referrals: 0 }],
      referral_history: [],
    });
  });

  it('lets a user rename their referral name within the rules', async () => {
    const user = await newUser(null);
    const as: Caller = { userId: user, role: 'user' };
    const rename = (name: string) =>
      stack.graphql(
        `mutation ($id: uuid!, $name: String!) {
           update_portal_users_by_pk(pk_columns: { id: $id }, _set: { referral_name: $name }) { referral_name }
         }`,
        { id: user, name },
        as,
      );
    expect((await rename('Rita2026')).data?.['update_portal_users_by_pk']).toEqual({
      referral_name: 'Rita2026',
    });
    for (const bad of ['ab', 'with space', 'a'.repeat(21), 'dash-name']) {
      const refused = await rename(bad);
      // The format CHECK, as Hasura answers a check violation.
      expect(refused.errors?.[0]?.extensions['code'], bad).toBe('permission-error');
    }
    // Unique regardless of case.
    const other = await newUser(null);
    const taken = await stack.graphql(
      `mutation ($id: uuid!) {
         update_portal_users_by_pk(pk_columns: { id: $id }, _set: { referral_name: "RITA2026" }) { id }
       }`,
      { id: other },
      { userId: other, role: 'user' },
    );
    expect(taken.errors?.[0]?.extensions['code']).toBe('constraint-violation');
    expect(
      await db.pool.query('SELECT referral_name FROM portal_users WHERE id = $1', [user]),
    ).toMatchObject({
      rows: [{ referral_name: 'Rita2026' }],
    });
  });
});

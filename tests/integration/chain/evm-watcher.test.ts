import { randomUUID } from 'node:crypto';

import { parseEther, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EvmSource } from '@app/watchers/evm-source';
import { NetworkWatcher } from '@app/watchers/network-watcher';

import { databaseTargets } from '../../support/databases.ts';
import { randomAddress, startLocalEvm, type LocalEvm } from '../../support/local-evm.ts';
import { BTC_ADDRESS, until, useNotificationsWorld } from '../notifications/notifications-world.ts';

/*
 * The EVM watcher against a real local chain (Hardhat's node over JSON-RPC), the product's
 * database and the actions service behind the engine's event trigger (issue 25): a customer
 * pays an order's deposit address in ETH or in an ERC-20, the watcher shows the payment with its
 * confirmations, and at the currency's depth the order is paid with no operator; a re-org
 * below that depth takes back what was shown and moves nothing; a restarted watcher goes on
 * where it stopped.
 */

const REQUIRED = 3;

describe.each(databaseTargets)('the EVM watcher on a local chain, on $name', (target) => {
  const world = useNotificationsWorld(target);
  let chain: LocalEvm;
  let token: Address;

  beforeAll(async () => {
    chain = await startLocalEvm();
    token = await chain.deployToken('Tether USD', 'USDT');
    // The test chain's token stands in for USDT on ERC20; fewer confirmations, for speed.
    await world.db.pool.query(
      `UPDATE currencies SET confirmations_required = $1,
              token_contract = CASE code WHEN 'USDTERC20' THEN $2 END,
              token_decimals = CASE code WHEN 'USDTERC20' THEN 18 END
        WHERE code IN ('ETH', 'USDTERC20')`,
      [REQUIRED, token],
    );
  });
  afterAll(async () => {
    await chain?.close();
  });

  const watcher = () =>
    new NetworkWatcher({
      db: world.db.pool,
      network: 'ERC20',
      source: (watchList) => new EvmSource(chain.url, watchList),
      compareAs: (value) => value.toLowerCase(),
      pollMs: 60_000,
      keepDepth: 10,
      logger: undefined,
    });

  /** An order paying `send` of `from` at a fresh EVM deposit address, waiting for it. */
  async function waitingOrder(from: 'ETH' | 'USDTERC20', send: string) {
    const order = await world.insertOrder({
      email: `evm-${randomUUID()}@example.com`,
      locale: 'en',
      pair: { from, to: 'BTC', send, receive: '0.001', wallet: BTC_ADDRESS },
    });
    const address = randomAddress();
    await world.move(order.id, `status = 'waiting_for_payment', deposit_address = $2`, [address]);
    return { ...order, address };
  }

  const payments = async (orderId: string) =>
    (
      await world.db.pool.query<{
        state: string;
        confirmations: number;
        amount: string;
        currency: string;
        outcome: string | null;
      }>(
        `SELECT state, confirmations, amount::text AS amount, currency_code AS currency, outcome
           FROM chain_payments WHERE transaction_id = $1 ORDER BY first_seen_at`,
        [orderId],
      )
    ).rows;

  const status = async (orderId: string) =>
    (
      await world.db.pool.query<{ status: string }>(
        'SELECT status FROM transactions WHERE id = $1',
        [orderId],
      )
    ).rows[0]!.status;

  const paidBy = (orderId: string) =>
    until(async () => ((await status(orderId)) === 'paid' ? true : undefined), 'order paid');

  it('shows an ETH payment with its confirmations, and pays the order at the required depth', async () => {
    const order = await waitingOrder('ETH', '0.015');
    const eth = watcher();
    await eth.syncOnce(); // starts at the head
    await chain.sendEth(order.address, parseEther('0.015'));
    await chain.mine(1);
    await eth.syncOnce();
    expect(await payments(order.id)).toEqual([
      { state: 'seen', confirmations: 1, amount: '0.015', currency: 'ETH', outcome: null },
    ]);
    await chain.mine(1);
    await eth.syncOnce();
    expect(await payments(order.id)).toMatchObject([{ state: 'seen', confirmations: 2 }]);
    expect(await status(order.id)).toBe('waiting_for_payment');

    await chain.mine(1);
    await eth.syncOnce();
    await paidBy(order.id);
    expect(await payments(order.id)).toEqual([
      {
        state: 'confirmed',
        confirmations: REQUIRED,
        amount: '0.015',
        currency: 'ETH',
        outcome: 'paid',
      },
    ]);
    const { rows } = await world.db.pool.query<{ source: string }>(
      `SELECT source FROM transaction_status_history WHERE transaction_id = $1 AND to_status = 'paid'`,
      [order.id],
    );
    expect(rows).toEqual([{ source: 'watcher:ERC20' }]);
    // The health row follows the chain.
    const { rows: health } = await world.db.pool.query<{ last: string; head: string }>(
      `SELECT last_block_number::text AS last, head_number::text AS head
         FROM chain_watch_state WHERE network = 'ERC20'`,
    );
    expect(health).toEqual([
      { last: String(await chain.head()), head: String(await chain.head()) },
    ]);
  });

  it('pays an ERC-20 order from the token Transfer log, exactly, and a short one asks the user', async () => {
    const exact = await waitingOrder('USDTERC20', '500');
    const short = await waitingOrder('USDTERC20', '500');
    const evm = watcher();
    await evm.syncOnce();
    await chain.sendToken(token, exact.address, parseUnits('500', 18));
    await chain.sendToken(token, short.address, parseUnits('499.999999999999999999', 18));
    await chain.mine(REQUIRED);
    await evm.syncOnce();
    await paidBy(exact.id);
    expect(await payments(exact.id)).toMatchObject([
      { state: 'confirmed', amount: '500', currency: 'USDTERC20', outcome: 'paid' },
    ]);
    await until(
      async () => ((await status(short.id)) === 'needs_user_action' ? true : undefined),
      'short order asks the user',
    );
    expect(await payments(short.id)).toMatchObject([
      { amount: '499.999999999999999999', outcome: 'needs_user_action' },
    ]);
  });

  it('takes back a payment a re-org removed below its depth, and moves nothing', async () => {
    const order = await waitingOrder('ETH', '0.02');
    const eth = watcher();
    await eth.syncOnce();
    const before = await chain.snapshot();
    await chain.sendEth(order.address, parseEther('0.02'));
    await chain.mine(REQUIRED - 1);
    await eth.syncOnce();
    expect(await payments(order.id)).toMatchObject([
      { state: 'seen', confirmations: REQUIRED - 1 },
    ]);

    // The branch that held the payment is replaced by a longer one without it.
    await chain.reorg(before, REQUIRED + 1);
    await eth.syncOnce();
    expect(await payments(order.id)).toMatchObject([{ state: 'dropped', confirmations: 0 }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await status(order.id)).toBe('waiting_for_payment');
  });

  it('goes on after a restart from where it stopped, without repeating anything', async () => {
    const order = await waitingOrder('ETH', '0.03');
    const first = watcher();
    await first.syncOnce();
    await chain.sendEth(order.address, parseEther('0.03'));
    await chain.mine(1);
    await first.syncOnce();
    expect(await payments(order.id)).toMatchObject([{ state: 'seen', confirmations: 1 }]);

    // Stopped; the chain goes on; a new watcher (a restart, or another instance) catches up.
    await chain.mine(REQUIRED + 2);
    const second = watcher();
    await second.syncOnce();
    await paidBy(order.id);
    await second.syncOnce();
    const third = watcher();
    await third.syncOnce();
    expect(await payments(order.id)).toMatchObject([{ state: 'confirmed', outcome: 'paid' }]);
  });

  it('two watcher instances on one network record each payment once and pay the order once', async () => {
    const order = await waitingOrder('ETH', '0.04');
    const [a, b] = [watcher(), watcher()];
    await Promise.all([a.syncOnce(), b.syncOnce()]);
    await chain.sendEth(order.address, parseEther('0.04'));
    await chain.mine(1);
    await Promise.all([a.syncOnce(), b.syncOnce()]);
    await chain.mine(REQUIRED);
    await Promise.all([a.syncOnce(), b.syncOnce()]);
    await paidBy(order.id);
    await Promise.all([a.syncOnce(), b.syncOnce()]);
    expect(await payments(order.id)).toMatchObject([{ state: 'confirmed', outcome: 'paid' }]);
    const { rows } = await world.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transaction_status_history
        WHERE transaction_id = $1 AND to_status = 'paid'`,
      [order.id],
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});

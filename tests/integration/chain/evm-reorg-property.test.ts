import { randomUUID } from 'node:crypto';

import fc from 'fast-check';
import { parseEther, type Hash, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EvmSource } from '@app/watchers/evm-source';
import { NetworkWatcher } from '@app/watchers/network-watcher';

import { databaseTargets } from '../../support/databases.ts';
import { randomAddress, startLocalEvm, type LocalEvm } from '../../support/local-evm.ts';
import { BTC_ADDRESS, until, useNotificationsWorld } from '../notifications/notifications-world.ts';

/*
 * The acceptance property of issue 25 on a real chain (Hardhat's node), the product's database
 * and the actions service: over random sequences of payments, mined blocks, re-organisations
 * (up to one block less deep than the currency's confirmations, which is what the figure is
 * chosen against) and watcher reads, no order is paid before its payment is `REQUIRED` deep in
 * the chain, none is paid twice, every payment counted is still in the chain, and once the chain
 * is left to grow, every payment that is deep enough has paid its order. The confirmation
 * tracker's own property test (watchers/src/confirmations.test.ts) covers the same over
 * synthetic chains, many more times.
 */

const REQUIRED = 3;
const ORDERS = 3;

type Step =
  | { kind: 'pay'; order: number }
  | { kind: 'mine'; blocks: number }
  | { kind: 'reorg'; depth: number }
  | { kind: 'read' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), order: fc.nat({ max: ORDERS - 1 }) }),
  fc.record({ kind: fc.constant('mine' as const), blocks: fc.integer({ min: 1, max: 2 }) }),
  fc.record({
    kind: fc.constant('reorg' as const),
    depth: fc.integer({ min: 1, max: REQUIRED - 1 }),
  }),
  fc.constant({ kind: 'read' as const }),
);

describe.each(databaseTargets)(
  'paying through re-organisations on a local chain, on $name',
  (target) => {
    const world = useNotificationsWorld(target);
    let chain: LocalEvm;

    beforeAll(async () => {
      chain = await startLocalEvm();
      await world.db.pool.query(
        `UPDATE currencies SET confirmations_required = $1 WHERE code = 'ETH'`,
        [REQUIRED],
      );
    });
    afterAll(async () => {
      await chain?.close();
    });

    it('never pays below the required depth, never twice, and pays every deep enough payment', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 20 }), async (steps) => {
          const orders = [];
          for (let i = 0; i < ORDERS; i++) {
            const order = await world.insertOrder({
              email: `reorg-${randomUUID()}@example.com`,
              locale: 'en',
              pair: {
                from: 'ETH',
                to: 'BTC',
                send: '0.01',
                receive: '0.0002',
                wallet: BTC_ADDRESS,
              },
            });
            const address = randomAddress();
            await world.move(order.id, `status = 'waiting_for_payment', deposit_address = $2`, [
              address,
            ]);
            orders.push({ ...order, address });
          }
          const watcher = new NetworkWatcher({
            db: world.db.pool,
            network: 'ERC20',
            source: (watchList) => new EvmSource(chain.url, watchList),
            compareAs: (value) => value.toLowerCase(),
            pollMs: 60_000,
            keepDepth: 16,
            logger: undefined,
          });
          await watcher.syncOnce();
          // A snapshot before every block mined: a re-org goes back to one of them.
          const snapshots: Array<{ height: bigint; id: Hex }> = [];
          const mine = async (blocks: number) => {
            for (let b = 0; b < blocks; b++) {
              snapshots.push({ height: await chain.head(), id: await chain.snapshot() });
              await chain.mine(1);
            }
          };
          for (const action of steps) {
            if (action.kind === 'pay')
              await chain.sendEth(orders[action.order]!.address, parseEther('0.01'));
            else if (action.kind === 'mine') await mine(action.blocks);
            else if (action.kind === 'read') await watcher.syncOnce();
            else {
              const to = (await chain.head()) - BigInt(action.depth);
              const index = snapshots.findLastIndex((snapshot) => snapshot.height === to);
              if (index === -1) continue;
              const { id } = snapshots[index]!;
              snapshots.splice(index);
              // A longer branch without what the replaced blocks held.
              await chain.reorg(id, 0);
              await mine(action.depth + 1);
            }
            await checkSafety(orders);
          }
          // Left to grow: everything deep enough is read and counted.
          await mine(REQUIRED);
          await watcher.syncOnce();
          await settled();
          await checkSafety(orders);
          const head = await chain.head();
          for (const order of orders) {
            const deep = await deepPayments(order.address, head);
            const status = await statusOf(order.id);
            if (deep > 0)
              expect(status, `order ${order.number} paid ${deep} time(s) deep`).not.toBe(
                'waiting_for_payment',
              );
          }
        }),
        { numRuns: 6, endOnFailure: true },
      );
    });

    /** Whether confirmed payments have all been applied (their events delivered). */
    const settled = () =>
      until(async () => {
        const { rows } = await world.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM chain_payments WHERE state = 'confirmed' AND outcome IS NULL`,
        );
        return rows[0]!.n === 0 ? true : undefined;
      }, 'confirmed payments applied');

    const statusOf = async (id: string) =>
      (
        await world.db.pool.query<{ status: string }>(
          'SELECT status FROM transactions WHERE id = $1',
          [id],
        )
      ).rows[0]!.status;

    /** The payments to `address` at least REQUIRED deep in the chain as it is now. */
    async function deepPayments(address: string, head: bigint): Promise<number> {
      const { rows } = await world.db.pool.query<{ tx: string }>(
        `SELECT tx_hash AS tx FROM chain_payments WHERE lower(to_address) = lower($1)`,
        [address],
      );
      let deep = 0;
      for (const { tx } of rows) {
        const block = await chain.receiptBlock(tx as Hash);
        if (block !== undefined && head - block + 1n >= BigInt(REQUIRED)) deep += 1;
      }
      return deep;
    }

    /** Safety, after every step: what counted is in the chain, deep enough, and counted once. */
    async function checkSafety(orders: Array<{ id: string; number: string }>) {
      await settled();
      const head = await chain.head();
      for (const order of orders) {
        const { rows: paid } = await world.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM transaction_status_history
          WHERE transaction_id = $1 AND to_status IN ('paid', 'needs_user_action')`,
          [order.id],
        );
        expect(paid[0]!.n, `order ${order.number} moved more than once`).toBeLessThanOrEqual(1);
        const { rows: confirmed } = await world.db.pool.query<{ tx: string; outcome: string }>(
          `SELECT tx_hash AS tx, outcome FROM chain_payments
          WHERE transaction_id = $1 AND state = 'confirmed'`,
          [order.id],
        );
        for (const payment of confirmed) {
          const block = await chain.receiptBlock(payment.tx as Hash);
          expect(block, `payment ${payment.tx} counted but not in the chain`).toBeDefined();
          expect(head - block! + 1n).toBeGreaterThanOrEqual(BigInt(REQUIRED));
        }
        if (paid[0]!.n === 1) expect(confirmed.length).toBeGreaterThanOrEqual(1);
      }
    }
  },
);

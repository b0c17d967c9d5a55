import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  ConfirmationTracker,
  type ChainBlock,
  type ChainSource,
  type PaymentEvent,
  type Transfer,
} from './confirmations.ts';

/*
 * The tracker against a simulated chain (issue 25's property: "no order ever moves on fewer
 * confirmations than its currency requires, and none moves twice"). The chain mines blocks
 * from a mempool and re-organises: the newest blocks are replaced by a branch at least as long
 * (the longest chain wins), their transfers going back to the mempool or away for good.
 */

interface Payment extends Transfer {
  /** Confirmations its currency requires. */
  required: number;
}

class SimulatedChain implements ChainSource<Payment> {
  readonly blocks: ChainBlock<Payment>[] = [
    { height: 0, hash: 'genesis', parentHash: '', transfers: [] },
  ];
  private mempool: Payment[] = [];
  private minted = 0;
  /** Calls the tracker made, by method. */
  readonly calls = { head: 0, blockHash: 0, block: 0 };

  get tip(): ChainBlock<Payment> {
    return this.blocks.at(-1)!;
  }

  send(payment: Payment): void {
    this.mempool.push(payment);
  }

  /** One block with the first `take` transfers waiting. */
  mine(take = Infinity): void {
    const transfers = this.mempool.splice(0, take);
    this.minted += 1;
    this.blocks.push({
      height: this.tip.height + 1,
      hash: `b${this.minted}`,
      parentHash: this.tip.hash,
      transfers,
    });
  }

  /** Replaces the newest `depth` blocks with `length` (>= depth) new ones. */
  reorganise(depth: number, length: number, keep: (payment: Payment) => boolean): void {
    const removed = this.blocks.splice(this.blocks.length - depth, depth);
    this.mempool = [...removed.flatMap((block) => block.transfers).filter(keep), ...this.mempool];
    for (let i = 0; i < length; i++) this.mine(i === 0 ? 0 : Infinity);
  }

  /** Where each transfer sits on the chain now. */
  placements(): Map<string, number> {
    const placed = new Map<string, number>();
    for (const block of this.blocks)
      for (const transfer of block.transfers) placed.set(transfer.id, block.height);
    return placed;
  }

  // A network answers later; so does the simulation, so that the tracker's awaits interleave.
  head() {
    this.calls.head += 1;
    return Promise.resolve(this.tip.height);
  }

  blockHash(height: number) {
    this.calls.blockHash += 1;
    return Promise.resolve(this.blocks[height]!.hash);
  }

  block(height: number) {
    this.calls.block += 1;
    return Promise.resolve(this.blocks[height]!);
  }
}

const tracker = (keepDepth: number) =>
  new ConfirmationTracker<Payment>({
    fromHeight: 1,
    required: (payment) => payment.required,
    keepDepth,
  });

const kinds = (events: PaymentEvent<Payment>[]) =>
  events.map((event) =>
    event.kind === 'dropped'
      ? `${event.kind} ${event.transfer.id}`
      : `${event.kind} ${event.transfer.id} @${event.height} ${event.confirmations}`,
  );

describe('ConfirmationTracker', () => {
  it('shows a payment from its first block, counts it at its confirmations, once', async () => {
    const chain = new SimulatedChain();
    const watch = tracker(10);
    chain.send({ id: 'tx1', required: 3 });
    chain.mine();
    expect(kinds(await watch.sync(chain))).toEqual(['seen tx1 @1 1']);
    chain.mine();
    expect(kinds(await watch.sync(chain))).toEqual(['confirmations tx1 @1 2']);
    chain.mine();
    expect(kinds(await watch.sync(chain))).toEqual(['confirmed tx1 @1 3']);
    chain.mine();
    expect(await watch.sync(chain)).toEqual([]);
  });

  it('drops a payment a re-org took out, and shows it again where it lands', async () => {
    const chain = new SimulatedChain();
    const watch = tracker(10);
    chain.mine();
    chain.send({ id: 'tx1', required: 3 });
    chain.mine();
    expect(kinds(await watch.sync(chain))).toEqual(['seen tx1 @2 1']);
    // The block holding it is replaced by an empty one at the same height: the chain is no
    // longer, yet what was shown must go.
    chain.reorganise(1, 1, () => true);
    expect(kinds(await watch.sync(chain))).toEqual(['dropped tx1']);
    chain.mine();
    expect(kinds(await watch.sync(chain))).toEqual(['seen tx1 @3 1']);
    chain.mine();
    chain.mine();
    expect(kinds(await watch.sync(chain))).toEqual(['confirmed tx1 @3 3']);
  });

  it('follows a chain that got shorter', async () => {
    const chain = new SimulatedChain();
    const watch = tracker(10);
    chain.mine();
    chain.send({ id: 'tx1', required: 2 });
    chain.mine();
    chain.mine();
    await watch.sync(chain);
    chain.blocks.splice(2);
    expect(kinds(await watch.sync(chain))).toEqual(['dropped tx1']);
    expect(watch.height).toBe(1);
  });

  it('refuses a re-org deeper than it keeps instead of guessing', async () => {
    const chain = new SimulatedChain();
    const watch = tracker(2);
    for (let i = 0; i < 5; i++) chain.mine();
    await watch.sync(chain);
    chain.reorganise(3, 3, () => true);
    await expect(watch.sync(chain)).rejects.toThrow(/deeper than 2 blocks/);
  });

  it('after a stop, counts what it reads in one go even when it is deeper than it keeps', async () => {
    const chain = new SimulatedChain();
    const watch = tracker(5);
    for (let i = 0; i < 30; i++) {
      chain.send({ id: `tx${i}`, required: 3 });
      chain.mine();
    }
    const events = await watch.sync(chain);
    const confirmed = events.filter((event) => event.kind === 'confirmed');
    // Blocks 1 to 28 are 3 deep or more; 29 and 30 are only seen.
    expect(confirmed.map((event) => event.transfer.id)).toEqual(
      Array.from({ length: 28 }, (_, i) => `tx${i}`),
    );
    expect(events.filter((event) => event.kind === 'seen')).toHaveLength(30);
  });

  it('catches up in steps of maxBlocks', async () => {
    const chain = new SimulatedChain();
    const watch = tracker(10);
    for (let i = 0; i < 7; i++) chain.mine();
    await watch.sync(chain, 3);
    expect(watch.height).toBe(3);
    await watch.sync(chain, 3);
    await watch.sync(chain, 3);
    expect(watch.height).toBe(7);
  });

  it('reads each block once and checks one hash per sync, however many transfers it holds', async () => {
    const chain = new SimulatedChain();
    const watch = tracker(10);
    for (let block = 0; block < 20; block++) {
      for (let i = 0; i < 50; i++) chain.send({ id: `tx${block}-${i}`, required: 2 });
      chain.mine();
      await watch.sync(chain);
    }
    expect(chain.calls).toEqual({ head: 20, blockHash: 19, block: 20 });
  });

  /** A step of the simulated chain's life. */
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('mine' as const),
      payments: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant('reorg' as const),
      depth: fc.integer({ min: 1, max: 4 }),
      extra: fc.integer({ min: 0, max: 2 }),
      keepEvery: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({ kind: fc.constant('sync' as const), maxBlocks: fc.integer({ min: 1, max: 5 }) }),
  );

  it('never confirms below the required depth, never twice, and ends up showing the chain', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        const chain = new SimulatedChain();
        // Re-orgs reach at most 4 blocks and every payment needs at least 5 when its currency
        // is deep enough for them (below that, see the next property).
        const required = (n: number) => n + 4;
        const keepDepth = 16;
        const watch = tracker(keepDepth);
        const confirmedAt = new Map<string, number>();
        const shown = new Map<string, number>();
        let sent = 0;
        const check = (events: PaymentEvent<Payment>[]) => {
          const placed = chain.placements();
          for (const event of events) {
            if (event.kind === 'dropped') {
              expect(event.wasConfirmed, `${event.transfer.id} dropped after counting`).toBe(false);
              shown.delete(event.transfer.id);
              continue;
            }
            shown.set(event.transfer.id, event.height);
            if (event.kind !== 'confirmed') continue;
            const { id } = event.transfer;
            expect(confirmedAt.has(id), `${id} confirmed twice`).toBe(false);
            confirmedAt.set(id, event.height);
            // On the chain at that height, and deep enough, right now.
            expect(placed.get(id)).toBe(event.height);
            expect(chain.tip.height - event.height + 1).toBeGreaterThanOrEqual(
              event.transfer.required,
            );
          }
        };
        for (const action of steps) {
          if (action.kind === 'mine') {
            for (const n of action.payments)
              chain.send({ id: `tx${sent++}`, required: required(n) });
            chain.mine();
          } else if (action.kind === 'reorg') {
            const depth = Math.min(action.depth, chain.tip.height);
            let index = 0;
            chain.reorganise(depth, depth + action.extra, () => index++ % action.keepEvery === 0);
          } else {
            check(await watch.sync(chain, action.maxBlocks));
          }
        }
        check(await watch.sync(chain));
        // Caught up: what is shown is what the chain holds, within what the tracker keeps.
        const placed = chain.placements();
        const window = chain.tip.height - keepDepth;
        for (const [id, height] of placed) {
          if (height <= window) continue;
          expect(shown.get(id), `${id} on the chain at ${height}`).toBe(height);
        }
        for (const [id, height] of shown) expect(placed.get(id), `${id} shown`).toBe(height);
        // Everything deep enough has counted.
        for (const [id, height] of placed) {
          const payment = chain.blocks[height]!.transfers.find((t) => t.id === id)!;
          if (chain.tip.height - height + 1 >= payment.required)
            expect(confirmedAt.get(id), `${id} deep enough`).toBe(height);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('with fewer required confirmations than a re-org reaches, says so instead of hiding it', async () => {
    // A currency set to 1 confirmation on a chain that re-orgs 2 deep: the confirmation was
    // wrong, and the tracker reports the drop of a confirmed payment for staff to see.
    const chain = new SimulatedChain();
    const watch = tracker(10);
    chain.mine();
    chain.send({ id: 'tx1', required: 1 });
    chain.mine();
    expect(kinds(await watch.sync(chain))).toEqual(['seen tx1 @2 1', 'confirmed tx1 @2 1']);
    chain.reorganise(1, 2, () => false);
    const events = await watch.sync(chain);
    expect(events).toEqual([
      { kind: 'dropped', transfer: { id: 'tx1', required: 1 }, wasConfirmed: true },
    ]);
  });
});

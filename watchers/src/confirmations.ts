/*
 * Follows one chain block by block and says what happened to the transfers it watches
 * (decision 052): first seen, confirmations changed, confirmed, dropped by a re-organisation.
 * It is the same for every network family: a family only answers the head's height and a block
 * at a height (ChainSource), with the transfers to watched addresses already picked out.
 *
 * The rules an order depends on:
 * - a transfer is confirmed once, when the block holding it is `required` deep in the chain
 *   this tracker has checked link by link (each block's parent hash is the hash it kept for the
 *   height below); never before, and never twice;
 * - a re-organisation (a block whose parent is not the block kept below it) rolls the kept
 *   blocks back to the last one the chain still has, and re-reads from there: a transfer that
 *   is not in the new blocks is dropped, one that is comes back at its new height.
 * A re-organisation deeper than a confirmed transfer undoes what the confirmation counted on:
 * that is what `required` is chosen against, and the tracker reports it (`dropped` with
 * `wasConfirmed`) rather than hide it.
 */

/** A transfer to a watched address. `id` is unique on its chain (transaction and output). */
export interface Transfer {
  id: string;
}

/** A block as the chain reports it, with the watched transfers in it. */
export interface ChainBlock<T extends Transfer = Transfer> {
  height: number;
  hash: string;
  parentHash: string;
  transfers: readonly T[];
}

/** What a network family answers. */
export interface ChainSource<T extends Transfer = Transfer> {
  /** The height of the newest block. */
  head(): Promise<number>;
  /** The hash of the block at `height` (a header's worth: cheaper than the block). */
  blockHash(height: number): Promise<string>;
  block(height: number): Promise<ChainBlock<T>>;
}

export type PaymentEvent<T extends Transfer = Transfer> =
  /** In a block at `height` for the first time, or again at a new height after a re-org. */
  | ({ kind: 'seen' } & Placement<T>)
  /** Still at `height`, now `confirmations` deep (below what it needs). */
  | ({ kind: 'confirmations' } & Placement<T>)
  /** `required` deep: the payment counts. Once per transfer. */
  | ({ kind: 'confirmed' } & Placement<T>)
  /** No longer in the chain after a re-org. */
  | { kind: 'dropped'; transfer: T; wasConfirmed: boolean };

interface KeptBlock<T extends Transfer> {
  hash: string;
  transfers: readonly T[];
}

/** Where a transfer is: its block's height and hash, and how deep that block is. */
export interface Placement<T extends Transfer> {
  transfer: T;
  height: number;
  blockHash: string;
  confirmations: number;
}

export interface TrackerOptions<T extends Transfer> {
  /** The first height to read. */
  fromHeight: number;
  /** The confirmations a transfer needs to count (per currency). */
  required(transfer: T): number;
  /**
   * How deep a re-org may reach and still be followed: blocks below the newest one by more
   * than this are forgotten (a transfer in them can no longer be seen again or dropped).
   */
  keepDepth: number;
}

export class ConfirmationTracker<T extends Transfer = Transfer> {
  private readonly kept = new Map<number, KeptBlock<T>>();
  /** The newest height read, or fromHeight - 1 before the first block. */
  private tip: number;
  private readonly confirmed = new Set<string>();
  private shown = new Map<string, Placement<T>>();
  private lastHead: number | undefined;

  constructor(private readonly options: TrackerOptions<T>) {
    if (options.keepDepth < 1) throw new Error('keepDepth must be at least 1');
    this.tip = options.fromHeight - 1;
  }

  /** The height read up to. */
  get height(): number {
    return this.tip;
  }

  /** The hash of the block at `height`, once one is read. */
  get tipHash(): string | undefined {
    return this.kept.get(this.tip)?.hash;
  }

  /** The chain's head as the last sync saw it. */
  get head(): number | undefined {
    return this.lastHead;
  }

  /**
   * Reads the chain up to its head (at most `maxBlocks` new blocks, so that a long way behind
   * is caught up in steps) and returns what changed since the last call.
   */
  async sync(source: ChainSource<T>, maxBlocks = Infinity): Promise<PaymentEvent<T>[]> {
    const head = await source.head();
    this.lastHead = head;
    // A chain that got shorter (a re-org to a shorter branch): what it no longer has goes.
    while (this.tip > head && this.tip >= this.options.fromHeight) this.rollBack();
    // The newest block kept may have been replaced at the same height (a re-org that did not
    // lengthen the chain): step back until the chain has the block kept.
    while (this.tip >= this.options.fromHeight) {
      const kept = this.keptAt(this.tip, head);
      if ((await source.blockHash(this.tip)) === kept.hash) break;
      this.rollBack();
    }
    let read = 0;
    while (this.tip < head && read < maxBlocks) {
      const block = await source.block(this.tip + 1);
      if (
        this.tip >= this.options.fromHeight &&
        block.parentHash !== this.keptAt(this.tip, head).hash
      ) {
        // Not the block we kept below (a re-org since the hash was checked): read it again.
        this.rollBack();
        continue;
      }
      this.kept.set(block.height, { hash: block.hash, transfers: block.transfers });
      this.tip = block.height;
      read += 1;
    }
    // Changes first: a block read and already deep enough to forget (catching up after a
    // stop) still shows and confirms what it holds.
    const events = this.changes();
    for (const height of this.kept.keys())
      if (height <= this.tip - this.options.keepDepth) this.kept.delete(height);
    return events;
  }

  /** The block kept at `height`; none means a re-org deeper than keepDepth, not followed. */
  private keptAt(height: number, head: number): KeptBlock<T> {
    const block = this.kept.get(height);
    if (!block)
      throw new Error(
        `a re-organisation deeper than ${this.options.keepDepth} blocks (head ${head})`,
      );
    return block;
  }

  private rollBack(): void {
    this.kept.delete(this.tip);
    this.tip -= 1;
  }

  /** The events that turn what was shown into what the kept blocks hold now. */
  private changes(): PaymentEvent<T>[] {
    const now = new Map<string, Placement<T>>();
    for (const [height, block] of this.kept)
      for (const transfer of block.transfers)
        now.set(transfer.id, {
          transfer,
          height,
          blockHash: block.hash,
          confirmations: this.tip - height + 1,
        });

    const events: PaymentEvent<T>[] = [];
    for (const [id, before] of this.shown) {
      if (now.has(id)) continue;
      // Forgotten because it is deeper than keepDepth is not dropped: it is final.
      if (before.height <= this.tip - this.options.keepDepth) {
        this.confirmed.delete(id);
        continue;
      }
      events.push({
        kind: 'dropped',
        transfer: before.transfer,
        wasConfirmed: this.confirmed.has(id),
      });
      this.confirmed.delete(id);
    }
    for (const [id, placement] of now) {
      const before = this.shown.get(id);
      const { transfer, confirmations } = placement;
      const counts = !this.confirmed.has(id) && confirmations >= this.options.required(transfer);
      if (!before || before.blockHash !== placement.blockHash)
        events.push({ kind: 'seen', ...placement });
      else if (before.confirmations !== confirmations && !this.confirmed.has(id) && !counts)
        events.push({ kind: 'confirmations', ...placement });
      if (counts) {
        this.confirmed.add(id);
        events.push({ kind: 'confirmed', ...placement });
      }
    }
    this.shown = now;
    return events;
  }
}

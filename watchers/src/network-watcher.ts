import type { Logger } from '@app/shared/log';

import { ConfirmationTracker } from './confirmations.ts';
import type { ChainTransfer, FamilySource, WatchList } from './family.ts';
import {
  lastProgress,
  loadCandidateOrders,
  loadNetwork,
  orderFor,
  recordError,
  recordSync,
  type CandidateOrder,
  type Db,
  type NetworkConfig,
} from './store.ts';

/*
 * One network's watcher: every `pollMs` it reloads what to watch (the network's currencies and
 * the deposit addresses of its orders: two queries, whatever their number), reads the chain's
 * new blocks through the confirmation tracker and writes what changed in one transaction.
 *
 * It starts where it last recorded its progress, `keepDepth` blocks back, so a restart re-reads
 * what a re-org could still change (writes are idempotent), and at the head on its first start
 * (a payment made before the watcher existed is staff's to confirm). A failed sync (the chain's
 * API or the database away) is recorded on the health row and the tracker starts over from the
 * recorded progress: nothing it saw but did not write is lost.
 */

/** How often a watcher that sees nothing new still records that it read the chain. */
const HEALTH_WRITE_MS = 5_000;

export interface NetworkWatcherOptions {
  db: Db;
  network: string;
  /** The family's source, reading through the watch list it is given. */
  source: (watchList: () => WatchList) => FamilySource;
  /** How addresses and contracts are compared (lower case for EVM, as written elsewhere). */
  compareAs: (value: string) => string;
  pollMs: number;
  /** How deep a re-org may reach and still be followed (more than any required depth). */
  keepDepth: number;
  /** At most this many blocks per sync, so a long way behind is caught up in steps. */
  maxBlocksPerSync?: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
}

export class NetworkWatcher {
  readonly source: FamilySource;
  private tracker: ConfirmationTracker<ChainTransfer> | undefined;
  private config: NetworkConfig | undefined;
  private byAddress = new Map<string, CandidateOrder[]>();
  private watchList: WatchList = {
    addresses: new Set(),
    assets: { native: undefined, tokens: new Map() },
  };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private recorded = { height: Number.NaN, at: 0 };

  constructor(private readonly options: NetworkWatcherOptions) {
    this.source = options.source(() => this.watchList);
  }

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One sync now (tests and the benchmark drive it directly). */
  async syncOnce(): Promise<void> {
    const { db, network, logger } = this.options;
    try {
      await this.reload();
      const config = this.config;
      if (!config) return;
      this.tracker ??= await this.newTracker(config);
      const events = await this.tracker.sync(this.source, this.options.maxBlocksPerSync ?? 500);
      const { height, tipHash: hash, head = height } = this.tracker;
      // A read that found nothing new is recorded now and then (the health row's last good
      // read), not on every poll.
      const quiet = events.length === 0 && height === this.recorded.height;
      if (!quiet || Date.now() - this.recorded.at >= HEALTH_WRITE_MS) {
        await recordSync(
          db,
          network,
          events,
          { height, hash, head },
          {
            required: config.required,
            orderOf: (transfer) => this.orderOf(transfer),
          },
        );
        this.recorded = { height, at: Date.now() };
      }
      for (const event of events) {
        if (event.kind === 'dropped' && event.wasConfirmed)
          logger?.error(
            { network, tx: event.transfer.txHash },
            'chain watcher: a confirmed payment is no longer on the chain (re-org deeper than its confirmations)',
          );
      }
    } catch (error) {
      // Start over from what was recorded: events not written are derived again.
      this.tracker = undefined;
      this.recorded = { height: Number.NaN, at: 0 };
      const message = error instanceof Error ? error.message : String(error);
      logger?.warn({ network, err: error }, 'chain watcher: sync failed');
      await recordError(db, network, message).catch(() => {});
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.syncOnce().finally(() => {
        this.running = undefined;
        this.schedule(this.options.pollMs);
      });
    }, ms);
  }

  private async reload(): Promise<void> {
    const { db, network, compareAs } = this.options;
    this.config = await loadNetwork(db, network, compareAs);
    const byAddress = new Map<string, CandidateOrder[]>();
    for (const order of await loadCandidateOrders(db, network)) {
      const key = compareAs(order.address);
      byAddress.set(key, [...(byAddress.get(key) ?? []), order]);
    }
    this.byAddress = byAddress;
    this.watchList = {
      addresses: new Set(byAddress.keys()),
      assets: this.config?.assets ?? { native: undefined, tokens: new Map() },
    };
  }

  private orderOf(transfer: ChainTransfer): string | null {
    return (
      orderFor(transfer, this.byAddress.get(this.options.compareAs(transfer.to)) ?? [])?.id ?? null
    );
  }

  private async newTracker(config: NetworkConfig): Promise<ConfirmationTracker<ChainTransfer>> {
    const { db, network, keepDepth } = this.options;
    const progress = await lastProgress(db, network);
    const fromHeight = progress
      ? Math.max(0, progress.height - keepDepth + 1)
      : await this.source.head();
    return new ConfirmationTracker<ChainTransfer>({
      fromHeight,
      keepDepth,
      required: (transfer) => config.required.get(transfer.currency) ?? Number.POSITIVE_INFINITY,
    });
  }
}

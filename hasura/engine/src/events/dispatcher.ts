import type { Logger } from '@app/shared/log';

/*
 * The delivery loop shared by table events and cron events. It claims due jobs from each
 * queue (a short UPDATE ... FOR UPDATE SKIP LOCKED that stamps a lease, so two engines never
 * hold one job at once), delivers them concurrently up to a limit, and polls again:
 *
 * - every `pollIntervalMs` (the guarantee),
 * - at once when woken (a NOTIFY from a table trigger, or a finished job when more are due),
 * - when a scheduled retry falls due.
 *
 * close() stops claiming, gives running deliveries a grace period, then aborts the rest;
 * an aborted delivery hands its job back (unlocks it) so another engine, or this one after
 * a restart, delivers it.
 */

/** A job claimed (leased) by this engine. */
export interface ClaimedJob {
  /** Unique within its queue. */
  key: string;
  /**
   * Delivers the job and records the outcome. Resolves to the delay in ms after which the
   * job is due again (a retry), if any. When `signal` aborts, it releases the job instead.
   */
  deliver(signal: AbortSignal): Promise<number | undefined>;
}

export interface DeliveryQueue {
  readonly name: string;
  /** Claims up to `limit` due jobs. */
  claim(limit: number): Promise<ClaimedJob[]>;
}

export interface DispatcherOptions {
  pollIntervalMs: number;
  /** Deliveries in flight at once, over all queues. */
  concurrency: number;
  logger: Logger | undefined;
}

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}

export class Dispatcher {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private backlog = false;
  private closed = false;
  private lastPollError = 0;

  constructor(
    private readonly queues: DeliveryQueue[],
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    this.wake();
  }

  /** Polls as soon as possible. */
  wake(): void {
    this.scheduleIn(0);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private scheduleIn(ms: number): void {
    if (this.closed) return;
    const due = Date.now() + ms;
    if (this.timer !== undefined && this.timerDue <= due) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Number.POSITIVE_INFINITY;
      void this.poll();
    }, ms);
  }

  private scheduleRetry(ms: number): void {
    if (this.closed) return;
    // A little late rather than early: the database decides what is due by its own clock.
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.wake();
    }, ms + 25);
    this.retryTimers.add(timer);
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.claimAndStart();
    try {
      await this.polling;
    } finally {
      this.polling = undefined;
    }
    if (this.pollAgain) {
      this.pollAgain = false;
      this.scheduleIn(0);
    } else {
      this.scheduleIn(this.options.pollIntervalMs);
    }
  }

  private async claimAndStart(): Promise<void> {
    for (const queue of this.queues) {
      if (this.closed) return;
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) {
        this.backlog = true;
        return;
      }
      let jobs: ClaimedJob[];
      try {
        jobs = await queue.claim(free);
      } catch (error) {
        // The database may be restarting; say so now and then, and keep polling.
        if (Date.now() - this.lastPollError > 30_000) {
          this.lastPollError = Date.now();
          this.options.logger?.warn(
            { err: error, queue: queue.name },
            'event delivery: claiming events failed',
          );
        }
        continue;
      }
      if (jobs.length === free) this.backlog = true;
      for (const job of jobs) this.startJob(queue, job);
    }
  }

  private startJob(queue: DeliveryQueue, job: ClaimedJob): void {
    const key = `${queue.name}:${job.key}`;
    if (this.inFlight.has(key)) return;
    const controller = new AbortController();
    const done = job
      .deliver(controller.signal)
      .then(
        (retryInMs) => {
          if (retryInMs !== undefined) this.scheduleRetry(retryInMs);
        },
        (error: unknown) => {
          this.options.logger?.error(
            { err: error, queue: queue.name, job: key },
            'event delivery: recording an attempt failed',
          );
        },
      )
      .finally(() => {
        this.inFlight.delete(key);
        if (this.backlog) {
          this.backlog = false;
          this.wake();
        }
      });
    this.inFlight.set(key, { controller, done });
  }

  /** Stops polling; waits up to `graceMs` for deliveries in flight, then aborts them. */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    await this.polling;
    const running = [...this.inFlight.values()];
    if (running.length === 0) return;
    const all = Promise.allSettled(running.map((entry) => entry.done));
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      all,
      new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(graceTimer);
    for (const entry of this.inFlight.values()) entry.controller.abort();
    await all;
  }
}

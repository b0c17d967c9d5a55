import type pg from 'pg';

import type { Logger } from '@app/shared/log';

import { HasuraError } from '../errors.ts';
import { isDatabaseError, toHasuraError } from '../execute/pg-errors.ts';

import { multiplexedStatement, type CompiledLiveQuery } from './compile.ts';

/*
 * Hasura's multiplexed live queries. Subscribers whose subscription compiles to the same SQL
 * text form a cohort; within a cohort, subscribers with the same variables row share one
 * "variable set" (one row in the statement, one result, fanned out). Every refetch interval
 * each cohort runs one statement per `batchSize` variable sets, joining its query LATERAL
 * against the batch's rows, and a result is pushed to a variable set's subscribers only when
 * its text differs from the last one pushed. A cohort still running at the next tick is
 * skipped for that tick, so a slow database never piles statements up.
 *
 * A new variable set gets its first result without waiting for the next tick: new sets are
 * gathered for `firstResultDelayMs` and fetched together (one statement per cohort). A new
 * subscriber joining a set that already has a result gets that result at once.
 */

/** Where multiplexed statements run (a pg.Pool in the engine). */
export interface Queryable {
  query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface LiveQueryOptions {
  pool: Queryable;
  /** HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL, ms. */
  refetchIntervalMs: number;
  /** HASURA_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: variable sets per statement. */
  batchSize: number;
  logger?: Logger | undefined;
  /** How long new subscribers are gathered before their first fetch (default 5 ms). */
  firstResultDelayMs?: number | undefined;
  /** Called after every multiplexed statement (benchmarks, metrics). */
  onStatement?: ((event: LiveQueryStatementEvent) => void) | undefined;
}

export interface LiveQueryStatementEvent {
  /** Why it ran: the refetch tick, new subscribers' first result, or isolating a failed batch. */
  reason: 'poll' | 'first' | 'isolate';
  /** Variable sets (rows) the statement answered. */
  variableSets: number;
  durationMs: number;
  ok: boolean;
}

export interface LiveQueryStats {
  cohorts: number;
  variableSets: number;
  subscribers: number;
  /** Multiplexed statements run so far (every reason). */
  statements: number;
  /** Statements that failed. */
  failedStatements: number;
  /** Cohort refetches started by the interval tick. */
  polls: number;
  /** Cohort refetches skipped because the previous one was still running. */
  skippedPolls: number;
  /** Results pushed to subscribers. */
  pushes: number;
}

/** Receives a response body as JSON text: `{"data":...}` or `{"errors":[...]}`. */
export type LiveQuerySink = (body: string) => void;

export interface LiveSubscription {
  unsubscribe(): void;
}

interface Subscriber {
  sink: LiveQuerySink;
  active: boolean;
}

interface VariableSet {
  id: string;
  vars: string;
  subscribers: Set<Subscriber>;
  /** The last body pushed to the set's subscribers. */
  last: string | undefined;
  /** Created and not yet part of any fetch. */
  awaitingFirst: boolean;
  alive: boolean;
}

interface Cohort {
  key: string;
  statement: string;
  sets: Map<string, VariableSet>;
  busy: boolean;
  alive: boolean;
}

const chunk = <T>(items: T[], size: number): T[][] => {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
};

const errorBody = (error: HasuraError) => JSON.stringify({ errors: [error] });

/** Errors caused by one subscriber's values (a session variable that is not an integer, ...). */
const isDataError = (error: unknown) =>
  isDatabaseError(error) &&
  typeof (error as { code?: unknown }).code === 'string' &&
  (error as { code: string }).code.startsWith('22');

const active = new Set<LiveQueryMultiplexer>();

export class LiveQueryMultiplexer {
  private readonly cohorts = new Map<string, Cohort>();
  private readonly inflight = new Set<Promise<void>>();
  private readonly batchSize: number;
  private readonly firstResultDelayMs: number;
  private tickTimer: NodeJS.Timeout | undefined;
  private firstTimer: NodeJS.Timeout | undefined;
  private nextSetId = 0;
  private closed = false;
  private readonly counters = {
    statements: 0,
    failedStatements: 0,
    polls: 0,
    skippedPolls: 0,
    pushes: 0,
  };

  constructor(private readonly options: LiveQueryOptions) {
    if (!(options.refetchIntervalMs > 0))
      throw new RangeError('refetchIntervalMs must be positive');
    this.batchSize = Math.max(1, Math.floor(options.batchSize));
    this.firstResultDelayMs = Math.max(
      0,
      options.firstResultDelayMs ?? Math.min(5, options.refetchIntervalMs),
    );
    active.add(this);
  }

  /** Adds a subscriber; its sink receives the first result and every change after it. */
  subscribe(query: CompiledLiveQuery, sink: LiveQuerySink): LiveSubscription {
    if (this.closed) throw new Error('the live-query multiplexer is closed');
    let cohort = this.cohorts.get(query.sql);
    if (!cohort) {
      cohort = {
        key: query.sql,
        statement: multiplexedStatement(query.sql),
        sets: new Map(),
        busy: false,
        alive: true,
      };
      this.cohorts.set(query.sql, cohort);
    }
    let set = cohort.sets.get(query.variables);
    if (!set) {
      this.nextSetId += 1;
      set = {
        id: this.nextSetId.toString(36),
        vars: query.variables,
        subscribers: new Set(),
        last: undefined,
        awaitingFirst: true,
        alive: true,
      };
      cohort.sets.set(query.variables, set);
      this.scheduleFirstFetch();
    }
    const subscriber: Subscriber = { sink, active: true };
    set.subscribers.add(subscriber);
    const known = set.last;
    if (known !== undefined) {
      queueMicrotask(() => {
        if (subscriber.active) this.push(subscriber, known);
      });
    }
    this.ensureTicking();
    const owner = cohort;
    const ownSet = set;
    return {
      unsubscribe: () => {
        if (!subscriber.active) return;
        subscriber.active = false;
        ownSet.subscribers.delete(subscriber);
        if (ownSet.subscribers.size > 0) return;
        ownSet.alive = false;
        owner.sets.delete(ownSet.vars);
        if (owner.sets.size > 0) return;
        owner.alive = false;
        this.cohorts.delete(owner.key);
        if (this.cohorts.size === 0) this.stopTicking();
      },
    };
  }

  stats(): LiveQueryStats {
    let variableSets = 0;
    let subscribers = 0;
    for (const cohort of this.cohorts.values()) {
      variableSets += cohort.sets.size;
      for (const set of cohort.sets.values()) subscribers += set.subscribers.size;
    }
    return { cohorts: this.cohorts.size, variableSets, subscribers, ...this.counters };
  }

  /** Stops polling, waits for running statements, drops every subscriber. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopTicking();
    if (this.firstTimer) clearTimeout(this.firstTimer);
    this.firstTimer = undefined;
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    for (const cohort of this.cohorts.values()) {
      cohort.alive = false;
      for (const set of cohort.sets.values()) {
        set.alive = false;
        for (const subscriber of set.subscribers) subscriber.active = false;
      }
    }
    this.cohorts.clear();
    active.delete(this);
  }

  private ensureTicking(): void {
    if (this.tickTimer || this.closed) return;
    this.tickTimer = setInterval(() => this.tick(), this.options.refetchIntervalMs);
  }

  private stopTicking(): void {
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = undefined;
  }

  private scheduleFirstFetch(): void {
    if (this.firstTimer || this.closed) return;
    this.firstTimer = setTimeout(() => {
      this.firstTimer = undefined;
      for (const cohort of this.cohorts.values()) {
        if (!cohort.busy) this.fetchAwaitingFirst(cohort);
      }
    }, this.firstResultDelayMs);
  }

  private tick(): void {
    for (const cohort of this.cohorts.values()) {
      if (cohort.busy) {
        this.counters.skippedPolls += 1;
        continue;
      }
      this.counters.polls += 1;
      this.start(cohort, [...cohort.sets.values()], 'poll');
    }
  }

  private fetchAwaitingFirst(cohort: Cohort): void {
    const fresh = [...cohort.sets.values()].filter((set) => set.awaitingFirst);
    if (fresh.length > 0) this.start(cohort, fresh, 'first');
  }

  /** Runs the cohort for `sets`, in batches; the cohort is busy until every batch is done. */
  private start(cohort: Cohort, sets: VariableSet[], reason: 'poll' | 'first'): void {
    if (sets.length === 0 || this.closed) return;
    cohort.busy = true;
    for (const set of sets) set.awaitingFirst = false;
    const run = Promise.all(
      chunk(sets, this.batchSize).map((batch) => this.runBatch(cohort, batch, reason)),
    )
      .then(() => undefined)
      .catch((error: unknown) =>
        this.options.logger?.error({ err: error }, 'live query refetch failed'),
      )
      .finally(() => {
        this.inflight.delete(run);
        cohort.busy = false;
        // Subscribers that arrived while the cohort was running get their first result now.
        if (cohort.alive && !this.closed) this.fetchAwaitingFirst(cohort);
      });
    this.inflight.add(run);
  }

  private async runBatch(
    cohort: Cohort,
    sets: VariableSet[],
    reason: LiveQueryStatementEvent['reason'],
  ): Promise<void> {
    const started = performance.now();
    this.counters.statements += 1;
    let rows: Array<{ id: string; data: string | null }>;
    try {
      const result = await this.options.pool.query<{ id: string; data: string | null }>(
        cohort.statement,
        [sets.map((set) => set.id), sets.map((set) => set.vars)],
      );
      rows = result.rows;
      this.options.onStatement?.({
        reason,
        variableSets: sets.length,
        durationMs: performance.now() - started,
        ok: true,
      });
    } catch (error) {
      this.counters.failedStatements += 1;
      this.options.onStatement?.({
        reason,
        variableSets: sets.length,
        durationMs: performance.now() - started,
        ok: false,
      });
      if (sets.length > 1 && isDataError(error) && !this.closed) {
        // One subscriber's values (e.g. a session variable that does not cast) must not cost
        // the others their results: answer each set alone this time.
        await Promise.all(sets.map((set) => this.runBatch(cohort, [set], 'isolate')));
        return;
      }
      if (isDatabaseError(error))
        this.options.logger?.error({ err: error }, 'live query statement failed');
      else if (!HasuraError.is(error))
        this.options.logger?.error({ err: error }, 'live query statement failed unexpectedly');
      const body = errorBody(toHasuraError(error, '$'));
      for (const set of sets) this.deliver(set, body);
      return;
    }
    const byId = new Map(rows.map((row) => [row.id, row.data]));
    for (const set of sets) {
      const data = byId.get(set.id);
      this.deliver(set, `{"data":${data ?? 'null'}}`);
    }
  }

  private deliver(set: VariableSet, body: string): void {
    if (!set.alive || this.closed || body === set.last) return;
    set.last = body;
    for (const subscriber of set.subscribers) this.push(subscriber, body);
  }

  private push(subscriber: Subscriber, body: string): void {
    this.counters.pushes += 1;
    try {
      subscriber.sink(body);
    } catch (error) {
      this.options.logger?.error({ err: error }, 'live query subscriber failed');
    }
  }
}

/**
 * Counters summed over every open multiplexer in this process: a benchmark that runs the
 * engine in-process samples `statements` at the start and end of a window to get statements
 * per refetch interval.
 */
export function liveQueryStats(): LiveQueryStats {
  const total: LiveQueryStats = {
    cohorts: 0,
    variableSets: 0,
    subscribers: 0,
    statements: 0,
    failedStatements: 0,
    polls: 0,
    skippedPolls: 0,
    pushes: 0,
  };
  for (const multiplexer of active) {
    const stats = multiplexer.stats();
    for (const key of Object.keys(total) as Array<keyof LiveQueryStats>) total[key] += stats[key];
  }
  return total;
}

import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

import { summarize } from './stats.ts';
import { cpuPercent, kindDelta, slope } from './subscription-measures.ts';
import type { SubscriptionOptions, SubscriptionReport } from './subscription-types.ts';

export { type SubscriptionReport } from './subscription-types.ts';

/*
 * Subscription load on the engine (graphql-transport-ws, the `graphql-ws` client): each
 * WebSocket connection is one heavy user (own JWT) watching `perConnection` of their open
 * orders, one subscription per order, all distinct variables:
 *
 *   1. idle baseline: statements the database runs with nobody subscribed;
 *   2. subscribe everything, wait for every first result;
 *   3. steady state: statements per refetch interval, database side (minus the baseline) and
 *      engine side (its multiplexer counters), nothing changing;
 *   4. updates: `updatesPerSecond` distinct watched rows get `updated_at = now()` (in 10
 *      slices a second); latency = when the client receives the change − when the UPDATE
 *      returned (both measured in this process); rows whose change never arrives are missed.
 */

export const SUBSCRIPTION_QUERY = `subscription Watch($id: uuid!) {
  transactions_by_pk(id: $id) { id status updated_at }
}`;

interface Watch {
  id: string;
  firstAt?: number;
  initial?: string;
  commitAt?: number;
  changeAt?: number;
  unexpected: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Backends publish statistics at least every second while busy, an idle one within 10 s. */
const STATS_SETTLE_MS = 11_000;
const FIRST_RESULTS_TIMEOUT_MS = 90_000;
/** Intervals between the first results and the statement window. */
const STEADY_LEAD_INTERVALS = 4;

/**
 * Matches pushed values to committed updates by (row, updated_at), whichever arrives first
 * (a refetch can deliver a change before the UPDATE's answer is processed here).
 */
class ChurnTracker {
  private readonly pending = new Map<string, number>();
  private readonly early = new Map<string, number>();
  private readonly lastCommitted = new Map<string, string>();
  private readonly lastDelivered = new Map<string, string>();
  readonly latencies: number[] = [];
  updates = 0;
  pushes = 0;

  committed(id: string, at: string, commitAt: number): void {
    this.updates += 1;
    this.lastCommitted.set(id, at);
    const key = `${id}|${at}`;
    const receivedAt = this.early.get(key);
    if (receivedAt !== undefined) {
      this.early.delete(key);
      this.latencies.push(Math.max(0, receivedAt - commitAt));
    } else this.pending.set(key, commitAt);
  }

  received(id: string, at: string, now: number): void {
    this.pushes += 1;
    this.lastDelivered.set(id, at);
    const key = `${id}|${at}`;
    const commitAt = this.pending.get(key);
    if (commitAt !== undefined) {
      this.pending.delete(key);
      this.latencies.push(now - commitAt);
    } else this.early.set(key, now);
  }

  result() {
    let missedRows = 0;
    for (const [id, at] of this.lastCommitted)
      if (this.lastDelivered.get(id) !== at) missedRows += 1;
    return {
      missedRows,
      superseded: this.pending.size - missedRows,
      unknownPushes: this.early.size,
    };
  }
}

export async function runSubscriptionLoad(
  options: SubscriptionOptions,
): Promise<SubscriptionReport> {
  const { db, engine, log } = options;
  const perConnection = Math.ceil(options.subscriptions / options.connections);
  const report: SubscriptionReport = {
    available: false,
    query: SUBSCRIPTION_QUERY,
    subscriptions: 0,
    connections: 0,
    refetch_interval_ms: options.refetchIntervalMs,
    subscribe_ms: null,
    first_results: 0,
    statements: null,
    updates: null,
    churn: null,
    engine_cpu: null,
    errors: [],
  };
  const addError = (message: string) => {
    if (report.errors.length < 20) report.errors.push(message);
  };
  const watchers = options.watchers
    .slice(0, options.connections)
    .filter((watcher) => watcher.orderIds.length >= perConnection);
  if (watchers.length < options.connections) {
    report.reason = `only ${watchers.length} users have ${perConnection} open orders to watch`;
    return report;
  }

  const intervalMs = options.refetchIntervalMs;

  // 1. Idle baseline (after earlier loads' statistics have been published).
  log(
    `  idle baseline: settling ${STATS_SETTLE_MS / 1000} s, then ${(options.baselineIntervals * intervalMs) / 1000} s`,
  );
  await sleep(STATS_SETTLE_MS);
  const idle0 = await db.statements.read();
  const idleStarted = performance.now();
  await sleep(options.baselineIntervals * intervalMs);
  const idle1 = await db.statements.read();
  const idlePerInterval =
    db.statements.method === 'none'
      ? null
      : (idle1 - idle0) / ((performance.now() - idleStarted) / intervalMs);

  // 2. Subscribe.
  const watches = new Map<string, Watch>();
  const clients: Client[] = [];
  const wsUrl = options.url.replace(/^http/, 'ws');
  let firstResults = 0;
  let erroredEvents = 0;
  let churn: ChurnTracker | undefined;
  let resolveAllFirst: () => void = () => {};
  const allFirst = new Promise<void>((resolve) => (resolveAllFirst = resolve));
  const total = watchers.length * perConnection;
  const subscribeStarted = performance.now();
  try {
    for (const watcher of watchers) {
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        lazy: false,
        retryAttempts: 0,
        connectionParams: {
          headers: { Authorization: `Bearer ${options.tokens.token(watcher.userId)}` },
        },
        on: {
          error: (error) =>
            addError(
              `websocket error: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
            ),
          closed: (event) => {
            const close = event as { code?: number; reason?: string };
            if (close.code !== 1000)
              addError(`websocket closed: ${close.code} ${close.reason ?? ''}`);
          },
        },
      });
      clients.push(client);
      for (const id of watcher.orderIds.slice(0, perConnection)) {
        const watch: Watch = { id, unexpected: 0 };
        watches.set(id, watch);
        client.subscribe<{
          transactions_by_pk: { id: string; status: string; updated_at: string } | null;
        }>(
          { query: SUBSCRIPTION_QUERY, variables: { id } },
          {
            next: (value) => {
              const now = performance.now();
              if (value.errors) {
                erroredEvents += 1;
                addError(`subscription error: ${JSON.stringify(value.errors).slice(0, 300)}`);
                return;
              }
              const row = value.data?.transactions_by_pk;
              if (watch.firstAt === undefined) {
                watch.firstAt = now;
                watch.initial = row?.updated_at;
                firstResults += 1;
                if (firstResults === total) resolveAllFirst();
                return;
              }
              if (churn) {
                if (row) churn.received(id, row.updated_at, now);
                else watch.unexpected += 1;
                return;
              }
              if (row && row.updated_at !== watch.initial && watch.changeAt === undefined)
                watch.changeAt = now;
              else watch.unexpected += 1;
            },
            error: (error) => {
              erroredEvents += 1;
              addError(
                `subscription failed: ${error instanceof Error ? error.message : JSON.stringify(error).slice(0, 300)}`,
              );
            },
            complete: () => {},
          },
        );
      }
    }
    report.connections = clients.length;
    report.subscriptions = watches.size;
    log(`  subscribing ${watches.size} over ${clients.length} connections`);
    const timedOut = await Promise.race([
      allFirst.then(() => false),
      sleep(FIRST_RESULTS_TIMEOUT_MS).then(() => true),
      new Promise<boolean>((resolve) => {
        const check = setInterval(() => {
          if (erroredEvents > 0 && firstResults + erroredEvents >= total) {
            clearInterval(check);
            resolve(true);
          }
        }, 200);
        void allFirst.then(() => clearInterval(check));
      }),
    ]);
    report.first_results = firstResults;
    if (timedOut || firstResults < total) {
      report.reason = `${firstResults} of ${total} subscriptions got a first result (${erroredEvents} errors${report.errors[0] ? `; first: ${report.errors[0]}` : ''})`;
      return report;
    }
    report.subscribe_ms = Math.round(performance.now() - subscribeStarted);
    report.available = true;
    log(`  all ${total} first results in ${report.subscribe_ms} ms`);

    // 3. Steady state. New connections' statistics settle first; then the database counter is
    // read repeatedly and its rate taken as a least-squares slope (a single reading can be
    // up to one interval's statements behind, as backends publish at most once a second).
    await sleep(STEADY_LEAD_INTERVALS * intervalMs);
    const engine0 = await engine.stats();
    const samples: Array<[number, number]> = [];
    const steadyStarted = performance.now();
    // Readings every 0.7 interval, so they do not lock to one phase of the refetch ticks.
    const period = intervalMs * 0.7;
    const readings = Math.floor((options.statementIntervals * intervalMs) / period);
    for (let i = 0; i <= readings; i++) {
      const wait = steadyStarted + i * period - performance.now();
      if (wait > 0) await sleep(wait);
      samples.push([performance.now(), await db.statements.read()]);
    }
    const engine1 = await engine.stats();
    const steadyMs = performance.now() - steadyStarted;
    const intervals = steadyMs / intervalMs;
    const live0 = engine0.liveQuery;
    const live1 = engine1.liveQuery;
    const fit = slope(samples);
    const databasePerInterval =
      db.statements.method === 'none' || idlePerInterval === null
        ? null
        : fit.slope * intervalMs - idlePerInterval;
    const first = samples[0]!;
    const last = samples[samples.length - 1]!;
    const twoPoint =
      db.statements.method === 'none' || idlePerInterval === null
        ? null
        : ((last[1] - first[1]) / (last[0] - first[0])) * intervalMs - idlePerInterval;
    // The engine's count per refetch tick (statements and polls are counted as a tick starts,
    // so whole ticks are compared: a time window would cut bursts of statements in two).
    const ticks =
      live0 && live1 && live1.cohorts > 0 ? (live1.polls - live0.polls) / live1.cohorts : 0;
    const enginePerInterval =
      live0 && live1 && ticks > 0 ? (live1.statements - live0.statements) / ticks : null;
    const per100 = (value: number | null) =>
      value === null ? null : Math.round((value / (total / 100)) * 1000) / 1000;
    const round2 = (value: number | null) =>
      value === null ? null : Math.round(value * 100) / 100;
    report.statements = {
      method: db.statements.method,
      note: db.statements.note,
      window_intervals: Math.round(intervals * 100) / 100,
      idle_baseline_per_interval: round2(idlePerInterval),
      database_per_interval: round2(databasePerInterval),
      database_per_interval_stderr:
        db.statements.method === 'none' ? null : round2(fit.stderr * intervalMs),
      database_per_interval_two_point: round2(twoPoint),
      engine_per_interval: round2(enginePerInterval),
      engine_all_queries_per_interval: round2(
        (engine1.statements - engine0.statements) / (ticks > 0 ? ticks : intervals),
      ),
      per_100_subscribers_per_interval: per100(databasePerInterval ?? enginePerInterval),
      engine_per_100_subscribers_per_interval: per100(enginePerInterval),
      naive_polling_per_interval: total,
      engine_skipped_polls: live0 && live1 ? live1.skippedPolls - live0.skippedPolls : null,
      engine_failed_statements:
        live0 && live1 ? live1.failedStatements - live0.failedStatements : null,
      engine_queries_by_kind: kindDelta(engine0, engine1),
    };
    log(
      `  statements per interval: database ${report.statements.database_per_interval ?? 'n/a'} ± ${report.statements.database_per_interval_stderr ?? 'n/a'} (idle ${report.statements.idle_baseline_per_interval ?? 'n/a'}), engine ${report.statements.engine_per_interval ?? 'n/a'}`,
    );

    // 4. Updates: distinct watched rows, each updated once.
    const ids = [...watches.keys()];
    for (let i = ids.length - 1; i > 0; i--) {
      const j = (i * 7919 + 13) % (i + 1);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const perSlice = Math.max(1, Math.round(options.updatesPerSecond / 10));
    const slices = Math.min(options.updateSeconds * 10, Math.floor(ids.length / perSlice));
    let updated = 0;
    let updateStatements = 0;
    const updatesStarted = performance.now();
    const engine2 = await engine.stats();
    for (let slice = 0; slice < slices; slice++) {
      const due = updatesStarted + slice * 100;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const batch = ids.slice(slice * perSlice, (slice + 1) * perSlice);
      try {
        const result = await db.pool.query<{ id: string }>(
          'UPDATE public.transactions SET updated_at = now() WHERE id = ANY($1::uuid[]) RETURNING id',
          [batch],
        );
        const committed = performance.now();
        updateStatements += 1;
        for (const row of result.rows) {
          const watch = watches.get(row.id);
          if (watch) watch.commitAt = committed;
          updated += 1;
        }
      } catch (error) {
        addError(`update failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await sleep(3 * intervalMs);
    const engine3 = await engine.stats();
    const updatesMs = performance.now() - updatesStarted;
    const latencies: number[] = [];
    let missed = 0;
    let early = 0;
    let unexpected = 0;
    for (const watch of watches.values()) {
      unexpected += watch.unexpected;
      if (watch.commitAt === undefined) {
        if (watch.changeAt !== undefined) unexpected += 1;
        continue;
      }
      if (watch.changeAt === undefined) missed += 1;
      else {
        const latency = watch.changeAt - watch.commitAt;
        if (latency < 0) early += 1;
        latencies.push(Math.max(0, latency));
      }
    }
    report.updates = {
      rows_updated: updated,
      update_statements: updateStatements,
      received: latencies.length,
      missed,
      errored_events: erroredEvents,
      unexpected_pushes: unexpected,
      early,
      latency_ms: summarize(latencies),
    };
    report.engine_cpu = {
      steady_percent_of_one_core: cpuPercent(engine0, engine1, steadyMs),
      updates_percent_of_one_core: cpuPercent(engine2, engine3, updatesMs),
      churn_percent_of_one_core: null,
      max_rss_mb: Math.round(engine3.maxRssBytes / 1024 / 1024),
    };
    log(
      `  updates: ${updated} rows, ${latencies.length} changes received, ${missed} missed, p50 ${report.updates.latency_ms.p50} ms, p99 ${report.updates.latency_ms.p99} ms`,
    );

    // 5. Full churn: every watched row updated once a second, in 10 slices a second.
    if (options.churnSeconds > 0) {
      const tracker = new ChurnTracker();
      churn = tracker;
      const slices = 10;
      const groups = Array.from({ length: slices }, (_, k) =>
        ids.filter((_, i) => i % slices === k),
      );
      const ticks = Math.round(options.churnSeconds * slices);
      let statementsRun = 0;
      const churnStarted = performance.now();
      const deadline = churnStarted + options.churnSeconds * 3000;
      const engine4 = await engine.stats();
      for (let tick = 0; tick < ticks && performance.now() < deadline; tick++) {
        const wait = churnStarted + tick * (1000 / slices) - performance.now();
        if (wait > 0) await sleep(wait);
        try {
          const result = await db.pool.query<{ id: string; at: string }>(
            `UPDATE public.transactions SET updated_at = now() WHERE id = ANY($1::uuid[])
             RETURNING id, to_json(updated_at) #>> '{}' AS at`,
            [groups[tick % slices]],
          );
          const committed = performance.now();
          statementsRun += 1;
          for (const row of result.rows) tracker.committed(row.id, row.at, committed);
        } catch (error) {
          addError(
            `churn update failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      const churnMs = performance.now() - churnStarted;
      await sleep(3 * intervalMs);
      const engine5 = await engine.stats();
      const outcome = tracker.result();
      const cpu = cpuPercent(engine4, engine5, performance.now() - churnStarted);
      report.churn = {
        seconds: Math.round(churnMs / 100) / 10,
        updates_per_second: Math.round(tracker.updates / (churnMs / 1000)),
        row_updates: tracker.updates,
        update_statements: statementsRun,
        changes_received: tracker.latencies.length,
        superseded: outcome.superseded,
        missed_rows: outcome.missedRows,
        errored_events: erroredEvents,
        unknown_pushes: outcome.unknownPushes,
        latency_ms: summarize(tracker.latencies),
        engine_cpu_percent_of_one_core: cpu,
      };
      report.engine_cpu.churn_percent_of_one_core = cpu;
      report.engine_cpu.max_rss_mb = Math.round(engine5.maxRssBytes / 1024 / 1024);
      log(
        `  churn: ${report.churn.updates_per_second} row updates/s, ${report.churn.changes_received} changes received, ${report.churn.missed_rows} rows missed, p95 ${report.churn.latency_ms.p95} ms, engine CPU ${cpu ?? 'n/a'}% of one core`,
      );
    }
    return report;
  } catch (error) {
    report.available = false;
    report.reason = error instanceof Error ? error.message : String(error);
    return report;
  } finally {
    await Promise.all(clients.map((client) => Promise.resolve(client.dispose())));
  }
}

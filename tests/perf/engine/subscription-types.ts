import type { ChildServer } from './children.ts';
import type { BenchDatabase } from './database.ts';
import type { LatencySummary } from './stats.ts';
import type { TokenBook } from './workload.ts';

/* The subscription load's options and the report it gives (tests/perf/engine/subscriptions.ts). */

export interface SubscriptionOptions {
  url: string;
  engine: ChildServer;
  db: BenchDatabase;
  tokens: TokenBook;
  watchers: Array<{ userId: string; orderIds: string[] }>;
  subscriptions: number;
  connections: number;
  refetchIntervalMs: number;
  statementIntervals: number;
  baselineIntervals: number;
  updatesPerSecond: number;
  updateSeconds: number;
  /** Seconds of full churn (every watched row updated every second); 0 skips it. */
  churnSeconds: number;
  /** Progress lines. */
  log: (line: string) => void;
}

export interface SubscriptionReport {
  available: boolean;
  reason?: string;
  query: string;
  subscriptions: number;
  connections: number;
  refetch_interval_ms: number;
  subscribe_ms: number | null;
  first_results: number;
  statements: {
    method: string;
    note: string;
    window_intervals: number;
    idle_baseline_per_interval: number | null;
    /** Least-squares rate of the database counter over the window, minus the idle baseline. */
    database_per_interval: number | null;
    database_per_interval_stderr: number | null;
    /** The same from the first and last readings only. */
    database_per_interval_two_point: number | null;
    engine_per_interval: number | null;
    /** Every node-postgres query the engine process sent per refetch tick (not only live queries). */
    engine_all_queries_per_interval: number | null;
    per_100_subscribers_per_interval: number | null;
    engine_per_100_subscribers_per_interval: number | null;
    naive_polling_per_interval: number;
    engine_skipped_polls: number | null;
    engine_failed_statements: number | null;
    /** What the engine process sent in the window, by the start of the statement text. */
    engine_queries_by_kind: Record<string, number> | null;
  } | null;
  updates: {
    rows_updated: number;
    update_statements: number;
    received: number;
    missed: number;
    errored_events: number;
    unexpected_pushes: number;
    early: number;
    latency_ms: LatencySummary;
  } | null;
  /** Every watched row updated every second (Hasura's benchmark setup, goal G5). */
  churn: {
    seconds: number;
    updates_per_second: number;
    row_updates: number;
    update_statements: number;
    changes_received: number;
    /** Updates overwritten by the row's next update before a refetch saw them. */
    superseded: number;
    /** Rows whose last value never reached the client. */
    missed_rows: number;
    errored_events: number;
    unknown_pushes: number;
    latency_ms: LatencySummary;
    engine_cpu_percent_of_one_core: number | null;
  } | null;
  engine_cpu: {
    steady_percent_of_one_core: number | null;
    updates_percent_of_one_core: number | null;
    churn_percent_of_one_core: number | null;
    max_rss_mb: number | null;
  } | null;
  errors: string[];
}

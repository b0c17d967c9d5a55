import type { BenchLog } from '../harness.ts';

import type { BenchConfig } from './config.ts';
import { renderGoals, type Goal } from './report-goals.ts';
import { renderTable, type QueryResult, type Summary } from './report.ts';
import type { SubscriptionReport } from './subscriptions.ts';
import type { QueryName } from './workload.ts';

/* What `npm run bench:engine` prints at the end: the table, the subscriptions, the goals, the notes. */

export interface PrintInput {
  config: BenchConfig;
  queries: Record<QueryName, QueryResult>;
  subscriptions: SubscriptionReport | null;
  goals: Goal[];
  summary: Summary;
  notes: string[];
}

export function printReport(
  log: BenchLog['log'],
  { config, queries, subscriptions, goals, summary, notes }: PrintInput,
): void {
  log('');
  if (!config.skipHttp) {
    log(renderTable(queries));
    log('');
  }
  if (subscriptions?.available) {
    const s = subscriptions;
    const lines = [
      `subscriptions: ${s.subscriptions} live queries over ${s.connections} WebSocket connections, refetch ${s.refetch_interval_ms} ms`,
      `  SQL per interval: database ${s.statements?.database_per_interval ?? 'n/a'} ± ${s.statements?.database_per_interval_stderr ?? 'n/a'} (${s.statements?.method}, idle baseline ${s.statements?.idle_baseline_per_interval ?? 'n/a'} subtracted), engine's count ${s.statements?.engine_per_interval ?? 'n/a'}; per 100 subscribers per interval: ${s.statements?.per_100_subscribers_per_interval ?? 'n/a'} (naive polling: 100)`,
      `  updates (${s.updates?.rows_updated ?? 0} rows, ${config.updatesPerSecond}/s): latency p50 ${s.updates?.latency_ms.p50 ?? 'n/a'} ms, p99 ${s.updates?.latency_ms.p99 ?? 'n/a'} ms; ${s.updates?.received ?? 0} received, ${s.updates?.missed ?? 'n/a'} missed, ${s.updates?.errored_events ?? 'n/a'} errored`,
    ];
    if (s.churn) {
      lines.push(
        `  churn (every row every second, ${s.churn.updates_per_second} row updates/s): latency p50 ${s.churn.latency_ms.p50 ?? 'n/a'} ms, p95 ${s.churn.latency_ms.p95 ?? 'n/a'} ms, p99 ${s.churn.latency_ms.p99 ?? 'n/a'} ms; ${s.churn.changes_received} changes received, ${s.churn.superseded} superseded, ${s.churn.missed_rows} rows missed, ${s.churn.errored_events} errored`,
      );
    }
    lines.push(
      `  engine CPU (% of one core): steady ${s.engine_cpu?.steady_percent_of_one_core ?? 'n/a'}, updates ${s.engine_cpu?.updates_percent_of_one_core ?? 'n/a'}, churn ${s.engine_cpu?.churn_percent_of_one_core ?? 'n/a'}; max RSS ${s.engine_cpu?.max_rss_mb ?? 'n/a'} MB`,
    );
    log(lines.join('\n'));
  } else if (!config.skipSubscriptions) {
    log(`subscriptions: not available (${subscriptions?.reason ?? 'harness error'})`);
  }
  log('');
  log(renderGoals(goals));
  log('');
  log(`summary: ${JSON.stringify(summary)}`);
  for (const note of notes) log(`note: ${note}`);
}

import { median, ratio } from './stats.ts';
import type { SubscriptionReport } from './subscriptions.ts';
import { QUERY_NAMES, type QueryName } from './workload.ts';

/*
 * The printed table and bench-results/engine.json. Ratios are medians of three interleaved
 * rounds; absolute figures drift with the shared machine, ratios are what the goals judge.
 */

export type RowName = 'pg_http' | 'engine' | 'postgraphile' | 'pg_direct';

export const ROW_LABELS: Record<RowName, string> = {
  pg_http: 'pg+http, same SQL',
  engine: 'engine (HTTP)',
  postgraphile: 'PostGraphile 4',
  pg_direct: 'pg direct, same SQL (no HTTP)',
};

export interface RunRecord {
  round: number;
  rps: number;
  p50: number | null;
  p97_5?: number | null;
  p99: number | null;
  requests: number;
  errors: number;
  /** Statements the candidate's node-postgres clients sent per completed request. */
  statements_per_request?: number | null;
  /** Candidate process CPU (user + system) per request, ms. */
  cpu_ms_per_request?: number | null;
  sample_error?: string;
}

export interface CandidateResult {
  available: boolean;
  reason?: string;
  runs: RunRecord[];
  median: {
    rps: number | null;
    p50: number | null;
    p97_5: number | null;
    p99: number | null;
    statements_per_request: number | null;
    cpu_ms_per_request: number | null;
  };
  errors: number;
}

export function emptyCandidate(): CandidateResult {
  return {
    available: true,
    runs: [],
    median: {
      rps: null,
      p50: null,
      p97_5: null,
      p99: null,
      statements_per_request: null,
      cpu_ms_per_request: null,
    },
    errors: 0,
  };
}

export function finishCandidate(result: CandidateResult): void {
  const ok = result.runs;
  const round = (value: number | null, digits = 2) =>
    value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;
  result.median = {
    rps: round(median(ok.map((run) => run.rps)), 0),
    p50: round(median(ok.map((run) => run.p50))),
    p97_5: round(median(ok.map((run) => run.p97_5 ?? null))),
    p99: round(median(ok.map((run) => run.p99))),
    statements_per_request: round(median(ok.map((run) => run.statements_per_request ?? null)), 3),
    cpu_ms_per_request: round(median(ok.map((run) => run.cpu_ms_per_request ?? null)), 4),
  };
  result.errors = ok.reduce((sum, run) => sum + run.errors, 0);
  // A candidate whose answers fail under load has no throughput worth comparing.
  const failing = ok.filter((run) => run.errors > 0.01 * Math.max(1, run.requests));
  if (failing.length > 0 && result.available) {
    result.available = false;
    result.reason = `${failing.length} of ${ok.length} runs had more than 1% failed requests (e.g. ${(failing[0]!.sample_error ?? 'no sample').slice(0, 200)})`;
  }
}

export interface QueryResult {
  label: string;
  engine_graphql: string;
  postgraphile_graphql: string;
  compiled_sql: string | null;
  candidates: Record<RowName, CandidateResult>;
  ratios: {
    engine_vs_pg_http_rps: number | null;
    engine_vs_pg_http_p99: number | null;
    engine_vs_postgraphile_rps: number | null;
    engine_vs_postgraphile_p97_5: number | null;
    engine_vs_postgraphile_p99: number | null;
    /** Each round's own ratio (same round, adjacent runs), for how much the rounds agree. */
    per_round?: {
      engine_vs_pg_http_rps: Array<number | null>;
      engine_vs_postgraphile_rps: Array<number | null>;
    };
  };
}

/** A query's result before any run: every candidate empty, no ratios yet. */
export function emptyQuery(
  texts: Pick<QueryResult, 'label' | 'engine_graphql' | 'postgraphile_graphql' | 'compiled_sql'>,
): QueryResult {
  return {
    label: texts.label,
    engine_graphql: texts.engine_graphql,
    postgraphile_graphql: texts.postgraphile_graphql,
    compiled_sql: texts.compiled_sql,
    candidates: {
      pg_http: emptyCandidate(),
      engine: emptyCandidate(),
      postgraphile: emptyCandidate(),
      pg_direct: emptyCandidate(),
    },
    ratios: {
      engine_vs_pg_http_rps: null,
      engine_vs_pg_http_p99: null,
      engine_vs_postgraphile_rps: null,
      engine_vs_postgraphile_p97_5: null,
      engine_vs_postgraphile_p99: null,
    },
  };
}

export function computeRatios(query: QueryResult): void {
  const { engine, pg_http: pgHttp, postgraphile } = query.candidates;
  const usable = (candidate: CandidateResult) => candidate.available && candidate.runs.length > 0;
  const pick = (candidate: CandidateResult, key: 'rps' | 'p97_5' | 'p99') =>
    usable(candidate) ? candidate.median[key] : null;
  query.ratios = {
    engine_vs_pg_http_rps: ratio(pick(engine, 'rps'), pick(pgHttp, 'rps')),
    engine_vs_pg_http_p99: ratio(pick(engine, 'p99'), pick(pgHttp, 'p99')),
    engine_vs_postgraphile_rps: ratio(pick(engine, 'rps'), pick(postgraphile, 'rps')),
    engine_vs_postgraphile_p97_5: ratio(pick(engine, 'p97_5'), pick(postgraphile, 'p97_5')),
    engine_vs_postgraphile_p99: ratio(pick(engine, 'p99'), pick(postgraphile, 'p99')),
  };
  const rounds = [...new Set(engine.runs.map((run) => run.round))].sort((a, b) => a - b);
  const inRound = (candidate: CandidateResult, round: number) =>
    usable(candidate) ? (candidate.runs.find((run) => run.round === round)?.rps ?? null) : null;
  query.ratios.per_round = {
    engine_vs_pg_http_rps: rounds.map((round) =>
      ratio(inRound(engine, round), inRound(pgHttp, round)),
    ),
    engine_vs_postgraphile_rps: rounds.map((round) =>
      ratio(inRound(engine, round), inRound(postgraphile, round)),
    ),
  };
}

export interface Goal {
  id: string;
  description: string;
  value: string;
  met: boolean | null;
  note?: string;
}

export interface Summary {
  engine_vs_pg_throughput: number | null;
  engine_vs_postgraphile_throughput: number | null;
  sql_per_100_subscribers_per_interval: number | null;
  subscription_update_p99_ms: number | null;
}

const minOf = (values: Array<number | null>): number | null => {
  if (values.some((value) => value === null)) return null;
  return values.length ? Math.min(...(values as number[])) : null;
};
const maxOf = (values: Array<number | null>): number | null => {
  if (values.some((value) => value === null)) return null;
  return values.length ? Math.max(...(values as number[])) : null;
};

export function summarizeRun(
  queries: Partial<Record<QueryName, QueryResult>>,
  subscriptions: SubscriptionReport | null,
): Summary {
  const measured = QUERY_NAMES.map((name) => queries[name]).filter(
    (query): query is QueryResult => query !== undefined,
  );
  return {
    engine_vs_pg_throughput: measured.length
      ? minOf(measured.map((query) => query.ratios.engine_vs_pg_http_rps))
      : null,
    engine_vs_postgraphile_throughput: measured.length
      ? minOf(measured.map((query) => query.ratios.engine_vs_postgraphile_rps))
      : null,
    sql_per_100_subscribers_per_interval: subscriptions?.available
      ? (subscriptions.statements?.per_100_subscribers_per_interval ?? null)
      : null,
    subscription_update_p99_ms: subscriptions?.available
      ? (subscriptions.updates?.latency_ms.p99 ?? null)
      : null,
  };
}

const fmt = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? 'n/a' : value.toFixed(digits);
const verdict = (value: number | null, ok: (value: number) => boolean) =>
  value === null ? null : ok(value);

export function evaluateGoals(
  queries: Partial<Record<QueryName, QueryResult>>,
  subscriptions: SubscriptionReport | null,
  summary: Summary,
): Goal[] {
  const goals: Goal[] = [];
  const q = (name: QueryName) => queries[name];
  goals.push({
    id: 'issue.throughput_vs_pg',
    description:
      'engine >= 0.7x the throughput of raw pg (pg+http, same SQL), lowest over the queries',
    value: `${fmt(summary.engine_vs_pg_throughput, 3)}x`,
    met: verdict(summary.engine_vs_pg_throughput, (value) => value >= 0.7),
  });
  goals.push({
    id: 'issue.ahead_of_postgraphile',
    description: 'engine ahead of PostGraphile (throughput ratio > 1.0 on every query)',
    value: `${fmt(summary.engine_vs_postgraphile_throughput, 3)}x`,
    met: verdict(summary.engine_vs_postgraphile_throughput, (value) => value > 1.0),
  });
  // The database counter publishes coarsely: the rate carries a standard error, and a value
  // within two of them of the bound counts as meeting it.
  const statements = subscriptions?.available ? subscriptions.statements : null;
  const per100Error =
    statements?.database_per_interval_stderr != null && subscriptions
      ? statements.database_per_interval_stderr / (subscriptions.subscriptions / 100)
      : 0;
  goals.push({
    id: 'issue.subscription_sql',
    description:
      'subscriptions cost at most 1 SQL statement per 100 subscribers per refetch interval',
    value: `${fmt(summary.sql_per_100_subscribers_per_interval, 3)}${per100Error ? ` ± ${per100Error.toFixed(3)}` : ''} (engine's own count ${fmt(statements?.engine_per_100_subscribers_per_interval ?? null, 3)})`,
    met: verdict(
      summary.sql_per_100_subscribers_per_interval,
      (value) => value - 2 * per100Error <= 1.0,
    ),
    note: 'database side (pg_stat_statements, else xact_commit slope over the window minus the idle baseline); met when within two standard errors of the bound',
  });

  // G1 (shared/PERFORMANCE.md): PK >= 0.60x, nested >= 0.80x, p99 <= 1.5x, 1 statement per query.
  const pk = q('by_pk')?.ratios;
  const nested = q('history')?.ratios;
  const p99Worst = maxOf([
    pk?.engine_vs_pg_http_p99 ?? null,
    nested?.engine_vs_pg_http_p99 ?? null,
  ]);
  const statementsPerQuery = maxOf(
    (['history', 'by_pk'] as const).map(
      (name) => q(name)?.candidates.engine.median.statements_per_request ?? null,
    ),
  );
  const g1Parts = [
    verdict(pk?.engine_vs_pg_http_rps ?? null, (value) => value >= 0.6),
    verdict(nested?.engine_vs_pg_http_rps ?? null, (value) => value >= 0.8),
    verdict(p99Worst, (value) => value <= 1.5),
    verdict(statementsPerQuery, (value) => Math.abs(value - 1) <= 0.02),
  ];
  goals.push({
    id: 'G1',
    description:
      'vs the same SQL over node:http + pg: PK >= 0.60x, history (nested, the relationship query) >= 0.80x, p99 <= 1.5x, 1 SQL statement per query',
    value: `PK ${fmt(pk?.engine_vs_pg_http_rps ?? null, 3)}x, history ${fmt(nested?.engine_vs_pg_http_rps ?? null, 3)}x, worst p99 ${fmt(p99Worst, 2)}x, statements/query ${fmt(statementsPerQuery, 3)}`,
    met: g1Parts.includes(null) ? null : g1Parts.every(Boolean),
    note: 'statements/query is counted client side (every node-postgres query of the engine process); the database-side count here is xact_commit, which publishes too coarsely for per-run windows',
  });

  // G2: >= 1.0x PostGraphile on all queries, p95 <= 1.0x (autocannon has no p95: p97.5 is used).
  const g2Rps = minOf(
    QUERY_NAMES.filter((name) => q(name)).map((name) => q(name)!.ratios.engine_vs_postgraphile_rps),
  );
  const g2Tail = maxOf(
    QUERY_NAMES.filter((name) => q(name)).map(
      (name) => q(name)!.ratios.engine_vs_postgraphile_p97_5,
    ),
  );
  const g2Parts = [
    verdict(g2Rps, (value) => value >= 1.0),
    verdict(g2Tail, (value) => value <= 1.0),
  ];
  goals.push({
    id: 'G2',
    description:
      'vs PostGraphile (4 here: 5 needs Node >= 22) on the same DB, data and pool size: throughput >= 1.0x and p95 <= 1.0x on every query',
    value: `lowest throughput ${fmt(g2Rps, 3)}x, worst p97.5 ${fmt(g2Tail, 2)}x`,
    met: g2Parts.includes(null) ? null : g2Parts.every(Boolean),
    note: 'autocannon reports p97.5, not p95; p97.5 is the stricter stand-in',
  });

  const subs = subscriptions?.available ? subscriptions : null;
  const perThousandPerSecond =
    subs?.statements?.per_100_subscribers_per_interval !== null &&
    subs?.statements?.per_100_subscribers_per_interval !== undefined
      ? (subs.statements.per_100_subscribers_per_interval * 10 * 1000) / subs.refetch_interval_ms
      : null;
  const p95 = subs?.updates?.latency_ms.p95 ?? null;
  const dropped = subs?.updates ? subs.updates.missed + subs.updates.errored_events : null;
  const g4Parts = [
    verdict(
      perThousandPerSecond,
      (value) => value - (2 * per100Error * 10 * 1000) / (subs?.refetch_interval_ms ?? 1000) <= 10,
    ),
    verdict(p95, (value) => value <= 1250),
    verdict(dropped, (value) => value === 0),
  ];
  goals.push({
    id: 'G4',
    description:
      'subscription fan-out: <= 10 DB statements/s per 1,000 same-shape subscribers, event-to-client p95 <= 1.25 s, 0 dropped or errored events',
    value: subs
      ? `${fmt(perThousandPerSecond, 2)} statements/s per 1,000, p95 ${fmt(p95, 0)} ms, ${dropped ?? 'n/a'} dropped/errored`
      : `not available${subscriptions?.reason ? ` (${subscriptions.reason})` : ''}`,
    met: g4Parts.includes(null) ? null : g4Parts.every(Boolean),
  });
  // G5 under Hasura's setup: every watched row updated every second (the churn phase).
  const churn = subs?.churn ?? null;
  const churnCpu = churn?.engine_cpu_percent_of_one_core ?? null;
  const g5Parts = [
    verdict(subs ? subs.subscriptions : null, (value) => value >= 5000),
    verdict(churnCpu, (value) => value <= 75),
    verdict(churn?.latency_ms.p95 ?? null, (value) => value <= 1250),
    verdict(churn ? churn.missed_rows + churn.errored_events : null, (value) => value === 0),
    g4Parts[0] ?? null,
  ];
  goals.push({
    id: 'G5',
    description:
      '>= 5,000 active live queries on the shared 2-core box, each row updated every second, engine CPU <= 75% of one core, G4 criteria held',
    value: churn
      ? `${subs!.subscriptions} live queries, ${churn.updates_per_second} row updates/s: engine CPU ${fmt(churnCpu, 1)}% of one core, p95 ${fmt(churn.latency_ms.p95, 0)} ms, ${churn.missed_rows} rows missed, ${churn.errored_events} errored`
      : 'not available (no churn phase)',
    met: g5Parts.includes(null) ? null : g5Parts.every(Boolean),
    note: 'measured in the churn phase (subscriptions.churn); superseded updates (a row updated again before a refetch saw it) are not misses',
  });
  return goals;
}

function pad(text: string, width: number, right = false): string {
  if (text.length >= width) return text;
  return right ? text.padStart(width) : text.padEnd(width);
}

export function renderTable(queries: Partial<Record<QueryName, QueryResult>>): string {
  const header = [
    'query',
    'candidate',
    'req/s',
    'p50 ms',
    'p99 ms',
    'vs pg+http',
    'SQL/req',
    'errors',
  ];
  const widths = [10, 31, 8, 8, 8, 10, 8, 7];
  const lines = [header.map((cell, i) => pad(cell, widths[i]!, i >= 2)).join('  ')];
  lines.push(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const name of QUERY_NAMES) {
    const query = queries[name];
    if (!query) continue;
    const base = query.candidates.pg_http.available ? query.candidates.pg_http.median.rps : null;
    for (const row of ['pg_http', 'engine', 'postgraphile', 'pg_direct'] as RowName[]) {
      const candidate = query.candidates[row];
      if (!candidate.available) {
        lines.push(
          [
            pad(name, widths[0]!),
            pad(ROW_LABELS[row], widths[1]!),
            `not available: ${candidate.reason ?? ''}`,
          ].join('  '),
        );
        continue;
      }
      if (candidate.runs.length === 0) continue;
      const cells = [
        name,
        ROW_LABELS[row],
        fmt(candidate.median.rps, 0),
        fmt(candidate.median.p50, 1),
        fmt(candidate.median.p99, 1),
        `${fmt(ratio(candidate.median.rps, base), 2)}x`,
        fmt(candidate.median.statements_per_request, 2),
        String(candidate.errors),
      ];
      lines.push(cells.map((cell, i) => pad(cell, widths[i]!, i >= 2)).join('  '));
    }
  }
  return lines.join('\n');
}

export function renderGoals(goals: Goal[]): string {
  return goals
    .map(
      (goal) =>
        `${goal.met === null ? 'n/a   ' : goal.met ? 'MET   ' : 'MISSED'}  ${goal.id}: ${goal.value}  (${goal.description})`,
    )
    .join('\n');
}

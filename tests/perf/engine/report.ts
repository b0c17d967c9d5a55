import { median, ratio } from './stats.ts';
import type { SubscriptionReport } from './subscriptions.ts';
import { QUERY_NAMES, type QueryName } from './workload.ts';

/*
 * The printed table and bench-results/engine.json. Ratios are medians of three interleaved
 * rounds; absolute figures drift with the shared machine, ratios are what the goals judge
 * (report-goals.ts).
 */

export type RowName = 'pg_http' | 'engine' | 'postgraphile' | 'postgraphile5' | 'pg_direct';

export const ROW_LABELS: Record<RowName, string> = {
  pg_http: 'pg+http, same SQL',
  engine: 'engine (HTTP)',
  postgraphile: 'PostGraphile 4',
  postgraphile5: 'PostGraphile 5',
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
    engine_vs_postgraphile5_rps: number | null;
    engine_vs_postgraphile5_p97_5: number | null;
    engine_vs_postgraphile5_p99: number | null;
    /** Each round's own ratio (same round, adjacent runs), for how much the rounds agree. */
    per_round?: {
      engine_vs_pg_http_rps: Array<number | null>;
      engine_vs_postgraphile_rps: Array<number | null>;
      engine_vs_postgraphile5_rps: Array<number | null>;
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
      postgraphile5: emptyCandidate(),
      pg_direct: emptyCandidate(),
    },
    ratios: {
      engine_vs_pg_http_rps: null,
      engine_vs_pg_http_p99: null,
      engine_vs_postgraphile_rps: null,
      engine_vs_postgraphile_p97_5: null,
      engine_vs_postgraphile_p99: null,
      engine_vs_postgraphile5_rps: null,
      engine_vs_postgraphile5_p97_5: null,
      engine_vs_postgraphile5_p99: null,
    },
  };
}

export function computeRatios(query: QueryResult): void {
  const { engine, pg_http: pgHttp, postgraphile, postgraphile5 } = query.candidates;
  const usable = (candidate: CandidateResult) => candidate.available && candidate.runs.length > 0;
  const pick = (candidate: CandidateResult, key: 'rps' | 'p97_5' | 'p99') =>
    usable(candidate) ? candidate.median[key] : null;
  query.ratios = {
    engine_vs_pg_http_rps: ratio(pick(engine, 'rps'), pick(pgHttp, 'rps')),
    engine_vs_pg_http_p99: ratio(pick(engine, 'p99'), pick(pgHttp, 'p99')),
    engine_vs_postgraphile_rps: ratio(pick(engine, 'rps'), pick(postgraphile, 'rps')),
    engine_vs_postgraphile_p97_5: ratio(pick(engine, 'p97_5'), pick(postgraphile, 'p97_5')),
    engine_vs_postgraphile_p99: ratio(pick(engine, 'p99'), pick(postgraphile, 'p99')),
    engine_vs_postgraphile5_rps: ratio(pick(engine, 'rps'), pick(postgraphile5, 'rps')),
    engine_vs_postgraphile5_p97_5: ratio(pick(engine, 'p97_5'), pick(postgraphile5, 'p97_5')),
    engine_vs_postgraphile5_p99: ratio(pick(engine, 'p99'), pick(postgraphile5, 'p99')),
  };
  const rounds = [...new Set(engine.runs.map((run) => run.round))].sort((a, b) => a - b);
  const inRound = (candidate: CandidateResult, round: number) =>
    usable(candidate) ? (candidate.runs.find((run) => run.round === round)?.rps ?? null) : null;
  const perRound = (other: CandidateResult) =>
    rounds.map((round) => ratio(inRound(engine, round), inRound(other, round)));
  query.ratios.per_round = {
    engine_vs_pg_http_rps: perRound(pgHttp),
    engine_vs_postgraphile_rps: perRound(postgraphile),
    engine_vs_postgraphile5_rps: perRound(postgraphile5),
  };
}

export interface Summary {
  engine_vs_pg_throughput: number | null;
  engine_vs_postgraphile_throughput: number | null;
  engine_vs_postgraphile5_throughput: number | null;
  sql_per_100_subscribers_per_interval: number | null;
  subscription_update_p99_ms: number | null;
  /** G3: a plan-cache hit's binding over a miss's planning and compiling (worst query). */
  plan_cache_warm_vs_cold_compile?: number | null;
}

export const minOf = (values: Array<number | null>): number | null => {
  if (values.some((value) => value === null)) return null;
  return values.length ? Math.min(...(values as number[])) : null;
};
export const maxOf = (values: Array<number | null>): number | null => {
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
  const lowest = (
    key: 'engine_vs_pg_http_rps' | 'engine_vs_postgraphile_rps' | 'engine_vs_postgraphile5_rps',
  ) => (measured.length ? minOf(measured.map((query) => query.ratios[key])) : null);
  return {
    engine_vs_pg_throughput: lowest('engine_vs_pg_http_rps'),
    engine_vs_postgraphile_throughput: lowest('engine_vs_postgraphile_rps'),
    engine_vs_postgraphile5_throughput: lowest('engine_vs_postgraphile5_rps'),
    sql_per_100_subscribers_per_interval: subscriptions?.available
      ? (subscriptions.statements?.per_100_subscribers_per_interval ?? null)
      : null,
    subscription_update_p99_ms: subscriptions?.available
      ? (subscriptions.updates?.latency_ms.p99 ?? null)
      : null,
  };
}

export const fmt = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? 'n/a' : value.toFixed(digits);

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
    for (const row of Object.keys(ROW_LABELS) as RowName[]) {
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

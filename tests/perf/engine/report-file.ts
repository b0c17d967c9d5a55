import { readFileSync } from 'node:fs';
import path from 'node:path';

import { machineEnvironment, REPO_ROOT } from '../harness.ts';

import { POSTGRAPHILE5_DIR, POSTGRAPHILE_DIR } from './candidates.ts';
import type { Check } from './checks.ts';
import type { ChildStats } from './children.ts';
import type { BenchConfig } from './config.ts';
import type { BenchDatabase, DataSet } from './database.ts';
import type { PlanCacheTiming } from './plan-cache-timing.ts';
import type { Goal } from './report-goals.ts';
import { ROW_LABELS, type QueryResult, type Summary } from './report.ts';
import type { SubscriptionReport } from './subscriptions.ts';
import type { QueryName } from './workload.ts';

/*
 * bench-results/engine.json as `npm run bench:engine` writes it: the machine, database and
 * package versions, the settings and data set, the checks, every query's runs, the
 * subscriptions, the goals, the notes and the summary (in that order).
 */

/** The PostGraphile 5 packages (its own install) whose versions the report names. */
const POSTGRAPHILE5_PACKAGES = [
  'postgraphile',
  'grafast',
  'grafserv',
  '@dataplan/pg',
  'graphile-build',
  'graphile-build-pg',
  'graphile-config',
  'graphile-utils',
  'postgraphile-plugin-connection-filter',
  'graphql',
  'pg',
];

function packageVersion(file: string): string | null {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** How the candidates differ, for the report's notes (after any note the run itself added). */
export const CANDIDATE_NOTES = [
  'pg+http, same SQL: a hand-written node:http + node-postgres endpoint running the SQL the engine compiles (compiled in-process with the engine modules, values bound per request); it verifies the same HS256 JWT with node:crypto (no cache) and runs the same statements (mutations: BEGIN, set_config, the statement, COMMIT), as named prepared statements like the engine on PostgreSQL (HASURA_GRAPHQL_USE_PREPARED_STATEMENTS; both unnamed on PGlite) and like shared/perf-reference/pg-http-baseline.mjs.',
  'PostGraphile 4: no permission layer here, so the history query filters with condition {userId} and the insert sets userId; the by-pk lookup is by id alone (the engine also filters by the permission). JWT verified in front of it with node:crypto; no RLS/pgSettings for queries (pgSettings hasura.user for mutations, as the engine sets it). Relationships via smart-tag virtual foreign keys, status `in` via postgraphile-plugin-connection-filter 2. PostGraphile runs its SQL as named prepared statements (its default; not on PGlite), as the engine and pg+http do.',
  "PostGraphile 5 (Amber preset, Grafast, behind grafserv's node adaptor): the same GraphQL documents as PostGraphile 4, with version 4's names and collections kept by a small plugin (`id` not renamed to `rowId`, list fields beside connections, condition/orderBy on every column, no RBAC); the same JWT check in front, the same user scoping (condition {userId}, insert sets userId), pgSettings hasura.user for mutations only (from grafast.context), virtual foreign keys from makeJSONPgSmartTagsPlugin, status `in` via postgraphile-plugin-connection-filter 4. @dataplan/pg names its SELECTs as prepared statements (its default; off on PGlite with DATAPLAN_PG_PREPARED_STATEMENT_CACHE_SIZE=0) and sets jit off once per new connection.",
  'SQL/req is counted in each candidate process (every node-postgres query, BEGIN/COMMIT included).',
];

export interface ReportInput {
  config: BenchConfig;
  db: BenchDatabase;
  data: DataSet;
  loadAtStart: number[];
  checks: Check[];
  queries: Record<QueryName, QueryResult>;
  subscriptions: SubscriptionReport | null;
  engineStats: ChildStats | undefined;
  goals: Goal[];
  notes: string[];
  summary: Summary;
  /** G3: the plan cache's saving per request, in-process (plan-cache-timing.ts). */
  planCache: Record<'history' | 'by_pk', PlanCacheTiming> | null;
}

export function benchReport({
  config,
  db,
  data,
  loadAtStart,
  checks,
  queries,
  subscriptions,
  engineStats,
  goals,
  notes,
  summary,
  planCache,
}: ReportInput) {
  return {
    generated_at: new Date().toISOString(),
    environment: {
      ...machineEnvironment(loadAtStart, { memory: true }),
      database: {
        kind: db.kind,
        version: db.version,
        statement_count_method: db.statements.method,
        statement_count_note: db.statements.note,
      },
      packages: {
        autocannon: packageVersion(
          path.join(REPO_ROOT, 'node_modules', 'autocannon', 'package.json'),
        ),
        'graphql-ws': packageVersion(
          path.join(REPO_ROOT, 'node_modules', 'graphql-ws', 'package.json'),
        ),
        postgraphile: packageVersion(
          path.join(POSTGRAPHILE_DIR, 'node_modules', 'postgraphile', 'package.json'),
        ),
        'postgraphile-plugin-connection-filter': packageVersion(
          path.join(
            POSTGRAPHILE_DIR,
            'node_modules',
            'postgraphile-plugin-connection-filter',
            'package.json',
          ),
        ),
        postgraphile_5: Object.fromEntries(
          POSTGRAPHILE5_PACKAGES.map((name) => [
            name,
            packageVersion(path.join(POSTGRAPHILE5_DIR, 'node_modules', name, 'package.json')),
          ]),
        ),
      },
    },
    settings: {
      rounds: config.rounds,
      connections: config.connections,
      warmup_s: config.warmupS,
      duration_s: config.durationS,
      pool_size: config.poolSize,
      direct_concurrency: config.directConcurrency,
      direct_duration_s: config.directDurationS,
      schedule:
        'interleaved per query, rotating start: A,B,C,D / B,C,D,A / C,D,A,B; median of the rounds',
    },
    data: {
      users: data.users,
      transactions: data.transactions,
      status_history: data.statusHistory,
      bank_accounts: data.bankAccounts,
      directions: data.directions,
      generation_ms: data.generationMs,
    },
    candidates: {
      pg_http: ROW_LABELS.pg_http,
      engine: ROW_LABELS.engine,
      postgraphile: ROW_LABELS.postgraphile,
      postgraphile5: ROW_LABELS.postgraphile5,
      pg_direct: ROW_LABELS.pg_direct,
    },
    checks,
    queries: config.skipHttp ? null : queries,
    subscriptions: subscriptions ?? {
      available: false,
      reason: config.skipSubscriptions ? 'skipped (--skip-subscriptions)' : 'harness error',
    },
    engine_process: engineStats
      ? { max_rss_mb: Math.round(engineStats.maxRssBytes / 1024 / 1024) }
      : null,
    plan_cache: planCache,
    goals,
    notes,
    summary,
  };
}

import { CANDIDATES, startServers, type Servers } from './engine/candidates.ts';
import { checkCandidates, type Check } from './engine/checks.ts';
import type { ChildServer } from './engine/children.ts';
import { parseConfig } from './engine/config.ts';
import { generateData, migrate, openDatabase } from './engine/database.ts';
import { runHttp } from './engine/http-runs.ts';
import { measurePlanCache } from './engine/plan-cache-timing.ts';
import { benchReport, CANDIDATE_NOTES } from './engine/report-file.ts';
import { printReport } from './engine/report-print.ts';
import { evaluateGoals } from './engine/report-goals.ts';
import {
  computeRatios,
  emptyQuery,
  finishCandidate,
  summarizeRun,
  type QueryResult,
  type RowName,
} from './engine/report.ts';
import { runSubscriptionLoad, type SubscriptionReport } from './engine/subscriptions.ts';
import {
  ENGINE_QUERIES,
  POSTGRAPHILE_QUERIES,
  QUERY_LABELS,
  QUERY_NAMES,
  readPool,
  TokenBook,
  type QueryName,
} from './engine/workload.ts';
import { busyAtStart, loadAverage, runBench, stepLogger, writeReport } from './harness.ts';

/*
 * `npm run bench:engine`: the engine against (a) the same SQL from a hand-written node:http +
 * node-postgres endpoint, (b) itself over HTTP, (c) PostGraphile 4 and (d) PostGraphile 5, on
 * one database and data set, for a user's history, a by-pk lookup and an insert; then 5,000
 * subscriptions on the engine. Candidates run interleaved (A,B,C,D / B,C,D,A / C,D,A,B), each
 * run after a warm-up, and the report takes the median of the three rounds. See
 * tests/perf/README.md.
 *
 * Exit status: 0 when the benchmark ran (goals missed included: the report says which);
 * 1 when the harness itself failed.
 *
 * This file is the order of the run; the candidates' processes are in engine/candidates.ts,
 * the correctness checks in engine/checks.ts, the measured runs in engine/http-runs.ts, the
 * written JSON in engine/report-file.ts and the printout in engine/report-print.ts.
 */

const { log, step } = stepLogger();

async function main(): Promise<number> {
  const config = parseConfig(process.argv.slice(2));
  step(
    `bench:engine: ${config.rounds} interleaved rounds, ${config.connections} connections, ${config.warmupS} s warm-up + ${config.durationS} s per run, pool ${config.poolSize}`,
  );
  const notes: string[] = [];
  const loadAtStart = loadAverage();
  const db = await openDatabase(config);
  step(
    `database: ${db.version} (${db.kind}${db.kind === 'postgres' ? `, database ${db.name}, dropped afterwards` : ''})`,
  );
  if (db.kind === 'pglite') {
    notes.push(
      'Database: embedded PGlite (no PostgreSQL server answered). PGlite is one single-threaded backend behind a socket multiplexer: every candidate queues on it, so throughput and latency figures say little about a real server.',
    );
    log(
      'NOTE: running on embedded PGlite: the figures are much less meaningful than on a PostgreSQL server.',
    );
  }
  let servers: Servers | undefined;
  try {
    await migrate(db);
    const data = await generateData(db, config);
    step(
      `data: ${data.users} users, ${data.transactions} transactions, ${data.statusHistory} status-history rows, ${data.bankAccounts} bank accounts, ${data.directions} directions (${data.generationMs} ms)`,
    );
    servers = await startServers(db, config, step);
    for (const [candidate, reason] of Object.entries(servers.failures))
      step(`${candidate} unavailable: ${reason}`);
    if (!servers.engine)
      throw new Error(`the engine did not start: ${servers.failures.engine ?? 'unknown'}`);
    step(`servers up: ${CANDIDATES.filter((candidate) => servers![candidate]).join(', ')}`);

    const tokens = new TokenBook();
    const templates = servers.pg_http
      ? await servers.pg_http.request<Record<QueryName, { sql: string }>>('templates')
      : undefined;
    const queries = Object.fromEntries(
      QUERY_NAMES.map((name): [QueryName, QueryResult] => [
        name,
        emptyQuery({
          label: QUERY_LABELS[name],
          engine_graphql: ENGINE_QUERIES[name],
          postgraphile_graphql: POSTGRAPHILE_QUERIES[name],
          compiled_sql: templates?.[name]?.sql ?? null,
        }),
      ]),
    ) as Record<QueryName, QueryResult>;
    for (const query of QUERY_NAMES) {
      for (const candidate of CANDIDATES) {
        if (!servers[candidate]) {
          queries[query].candidates[candidate].available = false;
          queries[query].candidates[candidate].reason =
            servers.failures[candidate] ?? 'not started';
        }
      }
      if (!servers.pg_http) {
        queries[query].candidates.pg_direct.available = false;
        queries[query].candidates.pg_direct.reason = 'the pg+http process did not start';
      }
    }

    let checks: Check[] = [];
    if (!config.skipHttp) {
      checks = await checkCandidates(servers, data, tokens, db);
      for (const check of checks) {
        if (!check.ok) {
          step(`check failed: ${check.query} ${check.candidate}: ${check.detail}`);
          const entry = queries[check.query].candidates[check.candidate];
          entry.available = false;
          entry.reason = `failed the correctness check: ${check.detail.slice(0, 200)}`;
        }
      }
      step(`checks: ${checks.filter((check) => check.ok).length}/${checks.length} passed`);
      await runHttp(servers, config, data, tokens, queries, step);
      for (const query of QUERY_NAMES) {
        for (const row of Object.keys(queries[query].candidates) as RowName[])
          finishCandidate(queries[query].candidates[row]);
        computeRatios(queries[query]);
      }
      // Inserts left new rows (orders and their history): vacuum and analyze everything now,
      // so autovacuum has no reason to run (and commit transactions) in the measured windows.
      await db.pool.query('VACUUM ANALYZE');
    } else {
      for (const query of QUERY_NAMES) {
        for (const row of Object.keys(queries[query].candidates) as RowName[]) {
          queries[query].candidates[row].available = false;
          queries[query].candidates[row].reason = 'skipped (--skip-http)';
        }
      }
    }

    let subscriptions: SubscriptionReport | null = null;
    if (!config.skipSubscriptions) {
      step(
        `subscriptions: ${config.subscriptions} over ${config.wsConnections} connections, refetch ${config.refetchIntervalMs} ms`,
      );
      try {
        subscriptions = await runSubscriptionLoad({
          url: servers.engine.url,
          engine: servers.engine,
          db,
          tokens,
          watchers: data.watchers,
          subscriptions: config.subscriptions,
          connections: config.wsConnections,
          refetchIntervalMs: config.refetchIntervalMs,
          statementIntervals: config.statementIntervals,
          baselineIntervals: config.baselineIntervals,
          updatesPerSecond: config.updatesPerSecond,
          updateSeconds: config.updateSeconds,
          churnSeconds: config.churnSeconds,
          log: step,
        });
      } catch (error) {
        subscriptions = null;
        notes.push(
          `subscriptions: harness error: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (subscriptions && !subscriptions.available)
        step(`subscriptions: not available (${subscriptions.reason ?? 'unknown'})`);
    }

    const planCache = await measurePlanCache(db.pool, {
      history: readPool('engine', 'history', data, tokens),
      by_pk: readPool('engine', 'by_pk', data, tokens),
    });
    step(
      `plan cache (G3): history ${planCache.history.warm_compile_us} µs warm vs ${planCache.history.cold_compile_us} µs cold, by-pk ${planCache.by_pk.warm_compile_us} vs ${planCache.by_pk.cold_compile_us}`,
    );
    const engineStats = await servers.engine.stats().catch(() => undefined);
    const measured = config.skipHttp ? {} : queries;
    const summary = summarizeRun(measured, subscriptions);
    summary.plan_cache_warm_vs_cold_compile = Math.max(
      planCache.history.warm_vs_cold_compile,
      planCache.by_pk.warm_vs_cold_compile,
    );
    const goals = evaluateGoals(measured, subscriptions, summary, planCache);
    notes.push(...CANDIDATE_NOTES);
    const report = benchReport({
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
    });

    printReport(log, { config, queries, subscriptions, goals, summary, notes });
    const busy = busyAtStart(loadAtStart);
    if (busy !== undefined) log(`WARNING: ${busy}`);
    await writeReport(step, config.output, report);
    return 0;
  } finally {
    await Promise.all(
      [servers?.pg_http, servers?.engine, servers?.postgraphile, servers?.postgraphile5]
        .filter((server): server is ChildServer => server !== undefined)
        .map((server) => server.stop()),
    );
    await db.dispose();
  }
}

runBench('bench:engine', main);

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ChildServer, type ChildStats } from './engine/children.ts';
import { parseConfig, type BenchConfig } from './engine/config.ts';
import {
  generateData,
  migrate,
  openDatabase,
  type BenchDatabase,
  type DataSet,
} from './engine/database.ts';
import { cycle, runLoad, type LoadResult } from './engine/load.ts';
import { JWT_SECRET } from './engine/metadata.ts';
import {
  computeRatios,
  emptyQuery,
  evaluateGoals,
  finishCandidate,
  renderGoals,
  renderTable,
  ROW_LABELS,
  summarizeRun,
  type QueryResult,
  type RowName,
  type RunRecord,
} from './engine/report.ts';
import { runSubscriptionLoad, type SubscriptionReport } from './engine/subscriptions.ts';
import {
  ENGINE_QUERIES,
  insertRequestFactory,
  POSTGRAPHILE_QUERIES,
  QUERY_LABELS,
  QUERY_NAMES,
  readPool,
  TokenBook,
  type BenchRequest,
  type Candidate,
  type QueryName,
} from './engine/workload.ts';
import {
  loadAverage,
  machineEnvironment,
  REPO_ROOT,
  runBench,
  stepLogger,
  writeReport,
} from './harness.ts';

/*
 * `npm run bench:engine`: the engine against (a) the same SQL from a hand-written node:http +
 * node-postgres endpoint, (b) itself over HTTP and (c) PostGraphile 4, on one database and
 * data set, for a user's history, a by-pk lookup and an insert; then 5,000 subscriptions on
 * the engine. Candidates run interleaved (A,B,C / B,C,A / C,A,B), each run after a warm-up,
 * and the report takes the median of the three rounds. See tests/perf/README.md.
 *
 * Exit status: 0 when the benchmark ran (goals missed included: the report says which);
 * 1 when the harness itself failed.
 */

const POSTGRAPHILE_DIR = fileURLToPath(new URL('./postgraphile/', import.meta.url));
const CANDIDATES: Candidate[] = ['pg_http', 'engine', 'postgraphile'];

const { log, step } = stepLogger();

function packageVersion(file: string): string | null {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** PostGraphile 4 lives in its own install (graphql 15); installs it from its lockfile when absent. */
async function ensurePostgraphile(): Promise<string | undefined> {
  if (existsSync(path.join(POSTGRAPHILE_DIR, 'node_modules', 'postgraphile', 'package.json')))
    return undefined;
  step('installing PostGraphile 4 into tests/perf/postgraphile (npm ci, its own lockfile)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      npm,
      ['ci', '--prefix', POSTGRAPHILE_DIR, '--no-audit', '--no-fund', '--loglevel=error'],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(-1);
    });
  });
  return code === 0 ? undefined : `npm ci --prefix tests/perf/postgraphile failed (${code})`;
}

interface Servers {
  pg_http?: ChildServer;
  engine?: ChildServer;
  postgraphile?: ChildServer;
  failures: Partial<Record<Candidate, string>>;
}

async function startServers(db: BenchDatabase, config: BenchConfig): Promise<Servers> {
  const env = {
    BENCH_DATABASE_URL: db.url,
    BENCH_POOL_SIZE: String(config.poolSize),
    BENCH_REFETCH_MS: String(config.refetchIntervalMs),
    BENCH_JWT_SECRET: JWT_SECRET,
  };
  const servers: Servers = { failures: {} };
  const firstLine = (error: unknown) =>
    (error instanceof Error ? error.message : String(error)).split('\n').slice(0, 6).join(' | ');
  const start = async (
    candidate: Candidate,
    name: string,
    script: URL,
    options: Parameters<typeof ChildServer.start>[2],
  ) => {
    try {
      servers[candidate] = await ChildServer.start(name, script, options);
    } catch (error) {
      servers.failures[candidate] = firstLine(error);
    }
  };
  await start('engine', 'engine', new URL('./servers/engine-server.ts', import.meta.url), {
    env,
    typescript: true,
  });
  await start('pg_http', 'pg+http', new URL('./servers/pg-http-server.ts', import.meta.url), {
    env,
    typescript: true,
  });
  const installFailure = await ensurePostgraphile();
  if (installFailure) servers.failures.postgraphile = installFailure;
  else {
    await start(
      'postgraphile',
      'postgraphile',
      new URL('./postgraphile/server.js', import.meta.url),
      {
        // PGlite is one session shared by every connection: PostGraphile's named prepared
        // statements would collide there, so it runs unprepared on PGlite.
        env:
          db.kind === 'pglite' ? { ...env, POSTGRAPHILE_PREPARED_STATEMENT_CACHE_SIZE: '0' } : env,
        typescript: false,
        cwd: POSTGRAPHILE_DIR,
      },
    );
  }
  return servers;
}

function targetUrl(servers: Servers, candidate: Candidate, query: QueryName): string {
  const server = servers[candidate]!;
  return candidate === 'pg_http' ? `${server.url}/${query}` : server.url;
}

async function post(url: string, request: BenchRequest): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, text: await response.text() };
}

type Json = Record<string, unknown>;

/** Ids in a response, in order (history: the list; by-pk: the one row; insert: the new row). */
function idsOf(candidate: Candidate, query: QueryName, text: string): string[] {
  const data = (JSON.parse(text) as { data?: Json }).data ?? {};
  if (candidate === 'postgraphile') {
    if (query === 'history')
      return ((data['allTransactionsList'] as Json[] | null) ?? []).map((row) => String(row['id']));
    if (query === 'by_pk')
      return data['transactionById'] ? [String((data['transactionById'] as Json)['id'])] : [];
    const created = (data['createTransaction'] as Json | null)?.['transaction'] as Json | undefined;
    return created ? [String(created['id'])] : [];
  }
  if (query === 'history')
    return ((data['transactions'] as Json[] | null) ?? []).map((row) => String(row['id']));
  if (query === 'by_pk')
    return data['transactions_by_pk'] ? [String((data['transactions_by_pk'] as Json)['id'])] : [];
  return data['insert_transactions_one']
    ? [String((data['insert_transactions_one'] as Json)['id'])]
    : [];
}

interface Check {
  query: QueryName;
  candidate: Candidate;
  ok: boolean;
  detail: string;
}

/**
 * Before any load: every candidate answers sample requests without errors; the engine and
 * pg+http answer byte-identical bodies for reads (same SQL, same values); PostGraphile
 * returns the same rows (ids, in order) as the engine.
 */
async function checkCandidates(
  servers: Servers,
  data: DataSet,
  tokens: TokenBook,
  db: BenchDatabase,
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const query of QUERY_NAMES) {
    const samples = 12;
    const pools: Partial<Record<Candidate, BenchRequest[]>> = {};
    for (const candidate of CANDIDATES) {
      if (!servers[candidate]) continue;
      if (query === 'insert') {
        const next = insertRequestFactory(candidate, data, tokens, `check-${candidate}`);
        pools[candidate] = Array.from({ length: samples }, () => next());
      } else pools[candidate] = readPool(candidate, query, data, tokens).slice(0, samples);
    }
    const answers: Partial<Record<Candidate, string[]>> = {};
    for (const candidate of CANDIDATES) {
      const pool = pools[candidate];
      if (!pool) continue;
      const texts: string[] = [];
      let failure: string | undefined;
      for (const request of pool) {
        try {
          const { status, text } = await post(targetUrl(servers, candidate, query), request);
          if (status !== 200 || text.includes('"errors"'))
            failure ??= `${status} ${text.slice(0, 400)}`;
          texts.push(text);
        } catch (error) {
          const stderr = servers[candidate]?.stderrTail().split('\n').slice(-8).join(' | ');
          failure ??= `${error instanceof Error ? error.message : String(error)}${stderr ? ` (process stderr: ${stderr})` : ''}`;
        }
      }
      answers[candidate] = texts;
      const empty = texts.filter(
        (text) => !failure && idsOf(candidate, query, text).length === 0,
      ).length;
      checks.push({
        query,
        candidate,
        ok: failure === undefined && empty < samples,
        detail: failure ?? `${samples} answers without errors${empty ? ` (${empty} empty)` : ''}`,
      });
    }
    if (query === 'insert') {
      // The trigger-written status history names who acted (hasura.user), for every candidate.
      for (const candidate of CANDIDATES) {
        if (!answers[candidate]) continue;
        const { rows } = await db.pool.query<{ orders: number; attributed: number }>(
          `SELECT count(*)::int AS orders, count(*) FILTER (WHERE h.changed_by = t.user_id)::int AS attributed
             FROM public.transactions t JOIN public.transaction_status_history h ON h.transaction_id = t.id
            WHERE t.idempotency_key LIKE $1`,
          [`bench-check-${candidate}-%`],
        );
        const { orders, attributed } = rows[0]!;
        checks.push({
          query,
          candidate,
          ok: orders === samples && attributed === samples,
          detail: `${orders} orders created, ${attributed} status-history rows attributed to the inserting user`,
        });
      }
    }
    const engine = answers.engine;
    const pgHttp = answers.pg_http;
    if (query !== 'insert' && engine && pgHttp && engine.length === pgHttp.length) {
      const same = engine.every((text, i) => text === pgHttp[i]);
      checks.push({
        query,
        candidate: 'pg_http',
        ok: same,
        detail: same ? 'bodies byte-identical to the engine' : 'bodies differ from the engine',
      });
    }
    const postgraphile = answers.postgraphile;
    if (query !== 'insert' && engine && postgraphile && engine.length === postgraphile.length) {
      const same = engine.every(
        (text, i) =>
          JSON.stringify(idsOf('engine', query, text)) ===
          JSON.stringify(idsOf('postgraphile', query, postgraphile[i]!)),
      );
      checks.push({
        query,
        candidate: 'postgraphile',
        ok: same,
        detail: same ? 'same rows (ids, in order) as the engine' : 'rows differ from the engine',
      });
    }
  }
  return checks;
}

function requestSource(
  candidate: Candidate,
  query: QueryName,
  data: DataSet,
  tokens: TokenBook,
  runTag: string,
) {
  if (query === 'insert') return insertRequestFactory(candidate, data, tokens, runTag);
  return cycle(readPool(candidate, query, data, tokens));
}

const SETTLE_MS = 300;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Per request sent (requests in flight at the end were still executed by the candidate). */
function perRequest(before: ChildStats, after: ChildStats, load: LoadResult) {
  if (load.sent === 0) return { statements: null, cpuMs: null };
  return {
    statements: (after.statements - before.statements) / load.sent,
    cpuMs:
      (after.cpuUserUs + after.cpuSystemUs - before.cpuUserUs - before.cpuSystemUs) /
      1000 /
      load.sent,
  };
}

/** The user id in a (trusted, self-minted) bearer token's Hasura claims. */
function userOfToken(authorization: string): string {
  const payload = authorization.split('.')[1] ?? '';
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  return claims['https://hasura.io/jwt/claims']?.['x-hasura-user-id'] ?? '';
}

interface DirectResult {
  perSecond: number;
  operations: number;
  errors: number;
  p50: number | null;
  p99: number | null;
}

async function runHttp(
  servers: Servers,
  config: BenchConfig,
  data: DataSet,
  tokens: TokenBook,
  queries: Record<QueryName, QueryResult>,
): Promise<void> {
  let runCounter = 0;
  for (let round = 1; round <= config.rounds; round++) {
    for (const query of QUERY_NAMES) {
      // Interleaved, rotating the start: A,B,C then B,C,A then C,A,B.
      const order = CANDIDATES.map((_, i) => CANDIDATES[(i + round - 1) % CANDIDATES.length]!);
      for (const candidate of order) {
        const result = queries[query].candidates[candidate];
        const server = servers[candidate];
        if (!server || !result.available) continue;
        const url = targetUrl(servers, candidate, query);
        runCounter += 1;
        const tag = `r${round}-${runCounter}`;
        try {
          if (config.warmupS > 0) {
            await runLoad({
              url,
              connections: config.connections,
              durationS: config.warmupS,
              next: requestSource(candidate, query, data, tokens, `${tag}w`),
            });
          }
          // Requests still in flight when a load stops are answered after it: let them finish
          // so each window's statement and CPU counts hold only its own requests.
          await sleep(SETTLE_MS);
          const before = await server.stats();
          const load = await runLoad({
            url,
            connections: config.connections,
            durationS: config.durationS,
            next: requestSource(candidate, query, data, tokens, tag),
          });
          await sleep(SETTLE_MS);
          const after = await server.stats();
          const per = perRequest(before, after, load);
          const run: RunRecord = {
            round,
            rps: Math.round(load.rps),
            p50: load.latencyMs.p50,
            p97_5: load.latencyMs.p97_5,
            p99: load.latencyMs.p99,
            requests: load.requests,
            errors: load.errors,
            statements_per_request:
              per.statements === null ? null : Math.round(per.statements * 1000) / 1000,
            cpu_ms_per_request: per.cpuMs === null ? null : Math.round(per.cpuMs * 10000) / 10000,
          };
          if (load.sampleError) run.sample_error = load.sampleError;
          result.runs.push(run);
          step(
            `round ${round} ${query.padEnd(7)} ${ROW_LABELS[candidate].padEnd(18)} ${String(run.rps).padStart(6)} req/s  p50 ${load.latencyMs.p50} ms  p99 ${load.latencyMs.p99} ms  SQL/req ${run.statements_per_request ?? 'n/a'}${load.errors ? `  errors ${load.errors} (${load.sampleError ?? ''})` : ''}`,
          );
        } catch (error) {
          result.available = false;
          result.reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
          step(`round ${round} ${query} ${candidate}: failed: ${result.reason}`);
        }
      }
      // The extra row: the same statements from a pool inside the pg+http process, no HTTP.
      const direct = queries[query].candidates.pg_direct;
      if (servers.pg_http && direct.available) {
        const source = query === 'insert' ? null : readPool('pg_http', query, data, tokens);
        const requests = (
          source ?? [insertRequestFactory('pg_http', data, tokens, `direct-${round}`)()]
        ).map((request) => ({
          user: userOfToken(request.headers['authorization']!),
          variables: (JSON.parse(request.body) as { variables: unknown }).variables,
        }));
        try {
          const result = await servers.pg_http.request<DirectResult>(
            'direct',
            {
              query,
              requests,
              concurrency: config.directConcurrency,
              durationMs: config.directDurationS * 1000,
              runTag: `${round}-${Date.now()}`,
            },
            config.directDurationS * 1000 + 60_000,
          );
          direct.runs.push({
            round,
            rps: Math.round(result.perSecond),
            p50: result.p50,
            p99: result.p99,
            requests: result.operations,
            errors: result.errors,
          });
          step(
            `round ${round} ${query.padEnd(7)} ${'pg direct'.padEnd(18)} ${String(Math.round(result.perSecond)).padStart(6)} q/s    p50 ${result.p50} ms  p99 ${result.p99} ms`,
          );
        } catch (error) {
          direct.available = false;
          direct.reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        }
      }
    }
  }
}

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
    servers = await startServers(db, config);
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
      await runHttp(servers, config, data, tokens, queries);
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

    const engineStats = await servers.engine.stats().catch(() => undefined);
    const measured = config.skipHttp ? {} : queries;
    const summary = summarizeRun(measured, subscriptions);
    const goals = evaluateGoals(measured, subscriptions, summary);
    notes.push(
      'pg+http, same SQL: a hand-written node:http + node-postgres endpoint running the SQL the engine compiles (compiled in-process with the engine modules, values bound per request); it verifies the same HS256 JWT with node:crypto (no cache) and runs the same statements (mutations: BEGIN, set_config, the statement, COMMIT), unnamed like the engine (no prepared statements).',
      'PostGraphile 4 (PostGraphile 5 needs Node >= 22): no permission layer here, so the history query filters with condition {userId} and the insert sets userId; the by-pk lookup is by id alone (the engine also filters by the permission). JWT verified in front of it with node:crypto; no RLS/pgSettings for queries (pgSettings hasura.user for mutations, as the engine sets it). Relationships via smart-tag virtual foreign keys, status `in` via postgraphile-plugin-connection-filter 2. PostGraphile runs its SQL as named prepared statements (its default; not on PGlite), the engine and pg+http as unnamed statements.',
      'SQL/req is counted in each candidate process (every node-postgres query, BEGIN/COMMIT included).',
    );
    const report = {
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
          'interleaved per query, rotating start: A,B,C / B,C,A / C,A,B; median of the rounds',
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
      goals,
      notes,
      summary,
    };

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
    await writeReport(step, config.output, report);
    return 0;
  } finally {
    await Promise.all(
      [servers?.pg_http, servers?.engine, servers?.postgraphile]
        .filter((server): server is ChildServer => server !== undefined)
        .map((server) => server.stop()),
    );
    await db.dispose();
  }
}

runBench('bench:engine', main);

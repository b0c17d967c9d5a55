import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import type pg from 'pg';

import { createPool } from '@app/engine/database';

import { ACTIONS_SECRET } from '../integration/actions/harness.ts';

import { ChildServer, type ChildStats } from './engine/children.ts';
import { parseConfig } from './engine/config.ts';
import { migrate, openDatabase, type BenchDatabase } from './engine/database.ts';
import { summarize } from './engine/stats.ts';
import { TokenBook } from './engine/workload.ts';
import {
  finishReport,
  loadAverage,
  machineEnvironment,
  REPO_ROOT,
  runBench,
  stepLogger,
} from './harness.ts';
import { backendCpuMs, readBackends } from './orders/backends.ts';
import { parseOrdersConfig, type OrdersBenchConfig } from './orders/config.ts';
import { drainEvents, eventLogCounts, EventSink } from './orders/events.ts';
import { HttpClient, runClosedLoop, type OrderTask } from './orders/load.ts';
import {
  cpuMs,
  machineCpu,
  PATH_LABELS,
  poolPath,
  renderBreakdown,
  renderTable,
  summarizeOrders,
  type PathName,
  type RunRecord,
} from './orders/report.ts';
import {
  apiTask,
  checkPaths,
  createUsers,
  PAIR,
  sqlStatement,
  sqlTask,
  type BenchUser,
} from './orders/workload.ts';

/*
 * `npm run bench:orders`: order creation throughput through the product's path (the
 * `createExchange` mutation: client -> engine -> actions service -> PostgreSQL) against the
 * same inserts done straight in SQL from a pg pool (the ceiling), in one run, on one database.
 * Both paths run under the same closed loop (32 clients by default), alternating rounds
 * (API, SQL / SQL, API), each measured run after a warm-up; each path's figures are pooled
 * over its rounds. See tests/perf/README.md.
 *
 * Exit status: 0 when every order was created; 1 when any order failed (the report says
 * which and why) or the harness itself failed.
 */

const { log, step } = stepLogger();

interface Stack {
  actions: ChildServer;
  engine: ChildServer;
  sink: EventSink;
}

/** How long a run waits for the earlier runs' events to be tried before it starts. */
const EVENT_DRAIN_TIMEOUT_MS = 30_000;

/** With --profile: where a process's CPU profile goes (beside the report). */
function profileEnv(config: OrdersBenchConfig, name: string): Record<string, string> {
  if (!config.profile) return {};
  const output = path.resolve(REPO_ROOT, config.output);
  return {
    BENCH_CPU_PROFILE: path.join(
      path.dirname(output),
      `${path.basename(output, '.json')}-${name}.cpuprofile`,
    ),
  };
}

async function startStack(
  db: BenchDatabase,
  config: OrdersBenchConfig,
  sink: EventSink,
): Promise<Stack> {
  const env = {
    BENCH_DATABASE_URL: db.url,
    BENCH_POOL_SIZE: String(config.poolSize),
    BENCH_ACTIONS_SECRET: ACTIONS_SECRET,
  };
  await mkdir(path.dirname(path.resolve(REPO_ROOT, config.output)), { recursive: true });
  const actions = await ChildServer.start(
    'actions',
    new URL('./orders/actions-server.ts', import.meta.url),
    { env: { ...env, ...profileEnv(config, 'actions') }, typescript: true },
  );
  try {
    const engine = await ChildServer.start(
      'engine',
      new URL('./orders/engine-server.ts', import.meta.url),
      {
        env: {
          ...env,
          ...profileEnv(config, 'engine'),
          BENCH_ACTIONS_URL: actions.url,
          BENCH_BOT_EVENTS_URL: sink.url,
          ...(config.withoutEventTriggers ? { BENCH_WITHOUT_EVENT_TRIGGERS: '1' } : {}),
        },
        typescript: true,
      },
    );
    return { actions, engine, sink };
  } catch (error) {
    await actions.stop();
    throw error;
  }
}

/** One warm-up and one measured run of a path, with the CPU and statements of the window. */
async function measure(
  db: BenchDatabase,
  stack: Stack,
  config: OrdersBenchConfig,
  pathName: PathName,
  round: number,
  task: OrderTask,
  sequence: { next: number },
): Promise<{ record: RunRecord; samples: number[]; handlerSamples: number[] }> {
  const durationS = config.durationS / config.rounds;
  const drainWaitMs = await drainEvents(db.pool, EVENT_DRAIN_TIMEOUT_MS);
  const warmup = await runClosedLoop({
    connections: config.connections,
    durationS: config.warmupS,
    firstSequence: sequence.next,
    task,
  });
  sequence.next = warmup.nextSequence;

  await stack.actions.request('mark');
  const before = {
    events: await eventLogCounts(db.pool),
    sink: stack.sink.received,
    actions: await stack.actions.stats(),
    engine: await stack.engine.stats(),
    postgres: await readBackends(db.pool, db.name),
    self: process.cpuUsage(),
    machine: machineCpu(),
  };
  const run = await runClosedLoop({
    connections: config.connections,
    durationS,
    firstSequence: sequence.next,
    task,
  });
  sequence.next = run.nextSequence;
  const after = {
    actions: await stack.actions.stats(),
    engine: await stack.engine.stats(),
    self: process.cpuUsage(before.self),
    machine: machineCpu(),
    postgres: await readBackends(db.pool, db.name),
    events: await eventLogCounts(db.pool),
    sink: stack.sink.received,
  };
  const handlerSamples =
    pathName === 'api' ? await stack.actions.request<number[]>('handlerTimes') : [];
  const delta = (key: 'actions' | 'engine', pick: (stats: ChildStats) => number) =>
    pick(after[key]) - pick(before[key]);
  const record: RunRecord = {
    path: pathName,
    round,
    warmup: warmup.result,
    measured: run.result,
    cpu: {
      engine_ms: Math.round(delta('engine', cpuMs)),
      actions_ms: Math.round(delta('actions', cpuMs)),
      load_generator_ms: Math.round((after.self.user + after.self.system) / 1000),
      postgres_ms: backendCpuMs(before.postgres, after.postgres),
      machine_busy_ms: after.machine.busy - before.machine.busy,
      machine_total_ms: after.machine.total - before.machine.total,
    },
    statements: {
      actions: delta('actions', (stats) => stats.statements),
      engine: delta('engine', (stats) => stats.statements),
    },
    actionsHandlerMs: pathName === 'api' ? summarize(handlerSamples) : null,
    events:
      before.events && after.events
        ? {
            drain_wait_ms: drainWaitMs,
            created: after.events.events - before.events.events,
            delivered: after.events.delivered - before.events.delivered,
            bot_sink_received: after.sink - before.sink,
            untried_at_end: after.events.untried,
            retrying_at_end: after.events.retrying,
          }
        : null,
  };
  return { record, samples: run.samples, handlerSamples };
}

async function main(): Promise<number> {
  const config = parseOrdersConfig(process.argv.slice(2));
  const loadAtStart = loadAverage();
  step(`database: ${config.database} (server ${config.serverUrl.replace(/:[^:@/]*@/, ':***@')})`);
  const db = await openDatabase({
    ...parseConfig([]),
    database: config.database,
    serverUrl: config.serverUrl,
  });
  let stack: Stack | undefined;
  let sink: EventSink | undefined;
  let client: HttpClient | undefined;
  let sqlPool: pg.Pool | undefined;
  try {
    step(`${db.version}: migrations, seeds and ${config.users} users`);
    await migrate(db);
    const users: BenchUser[] = await createUsers(db.pool, config.users);
    await db.pool.query('VACUUM ANALYZE');

    step('starting the actions service and the engine (a process each)');
    sink = await EventSink.start();
    stack = await startStack(db, config, sink);
    client = new HttpClient(stack.engine.url, config.connections);
    sqlPool = createPool(db.url, config.poolSize);
    const tokens = new TokenBook();

    step('check: one order through the API, the same in SQL, compared column by column');
    const check = await checkPaths(db.pool, client, users[0]!, tokens);
    step(
      `check passed (${check.columns.length} columns and the status history agree): ${PAIR.amount} ${PAIR.from} -> ${check.figures.receiveAmount} ${PAIR.to} at ${check.figures.rate}`,
    );

    const tasks: Record<PathName, OrderTask> = {
      api: apiTask(client, users, tokens),
      sql: sqlTask(sqlPool, users, check.figures),
    };
    // Sequence 0 went to the check; keys stay unique across warm-ups and rounds.
    const sequences: Record<PathName, { next: number }> = { api: { next: 1 }, sql: { next: 1 } };
    const runs: RunRecord[] = [];
    const samples: Record<PathName, number[]> = { api: [], sql: [] };
    const handlerSamples: number[] = [];
    for (let round = 1; round <= config.rounds; round++) {
      const order: PathName[] = round % 2 === 1 ? ['api', 'sql'] : ['sql', 'api'];
      for (const pathName of order) {
        const result = await measure(
          db,
          stack,
          config,
          pathName,
          round,
          tasks[pathName],
          sequences[pathName],
        );
        runs.push(result.record);
        samples[pathName].push(...result.samples);
        handlerSamples.push(...result.handlerSamples);
        const m = result.record.measured;
        const events = result.record.events;
        step(
          `round ${round} ${pathName}: ${m.ordersPerS.toFixed(1)} orders/s (${m.orders} in ${m.elapsedS.toFixed(1)} s), p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, errors ${m.errors} (+${result.record.warmup.errors} in warm-up)${events ? `; events: ${events.created} written, ${events.delivered} delivered, ${events.untried_at_end} untried at the end (waited ${events.drain_wait_ms} ms for the backlog before)` : ''}`,
        );
      }
    }

    const api = poolPath(
      runs.filter((run) => run.path === 'api'),
      samples.api,
      handlerSamples,
    );
    const sql = poolPath(
      runs.filter((run) => run.path === 'sql'),
      samples.sql,
      [],
    );
    const summary = summarizeOrders(api, sql);
    const { count } = (
      await db.pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM public.transactions WHERE idempotency_key LIKE 'orders-bench-%'`,
      )
    ).rows[0]!;
    const created = runs.reduce((sum, run) => sum + run.measured.orders + run.warmup.orders, 2);

    const errorReasons: Record<string, number> = {};
    for (const run of runs)
      for (const result of [run.warmup, run.measured])
        for (const [reason, n] of Object.entries(result.errorReasons))
          errorReasons[`${run.path}: ${reason}`] =
            (errorReasons[`${run.path}: ${reason}`] ?? 0) + n;

    const report = {
      summary,
      generated_at: new Date().toISOString(),
      environment: {
        ...machineEnvironment(loadAtStart, { memory: true }),
        database: { kind: db.kind, version: db.version },
      },
      settings: {
        users: users.length,
        connections: config.connections,
        rounds: config.rounds,
        warmup_s: config.warmupS,
        duration_s_per_path: config.durationS,
        pool_size: config.poolSize,
        event_triggers: config.withoutEventTriggers
          ? 'removed (--without-event-triggers): a diagnostic, not the product'
          : 'as the metadata defines them (the bot ones to a sink)',
        schedule:
          'alternating rounds (API, SQL / SQL, API / ...), each run after a warm-up; figures pooled over the rounds',
        order: {
          ...PAIR,
          receive_amount: check.figures.receiveAmount,
          rate: check.figures.rate,
          amount_usdt: check.figures.amountUsdt,
        },
      },
      paths: { api: PATH_LABELS.api, sql: PATH_LABELS.sql },
      sql_statement: sqlStatement(check.figures.amountUsdt !== null).replace(/\s+/g, ' '),
      check: { ok: true, columns_compared: check.columns },
      results: { api, sql },
      error_reasons: errorReasons,
      orders_in_database: { expected: created, found: count },
      runs,
      notes: [
        'Every order is for user n mod users with a key of its own; only created orders count, and a run with any failed order exits 1.',
        'The engine and the actions service each run in a process of their own, configured as tests/integration/actions/harness.ts configures them; the load generator and the SQL path run in the orchestrator process.',
        'The SQL path runs BEGIN; set_config(hasura.user); the INSERT of hasura/actions/src/orders/create.ts; COMMIT, with the figures the server computed for the check order (no quote, no idempotency lookup): the ceiling of the write.',
        'actions_handler_ms is measured inside the actions process, from the request arriving to its answer ending; the engine keeps its connections to the actions service alive and reuses them (webhook.ts: a keep-alive agent, idle sockets closed after 4 s), so a call pays no TCP handshake once the connections are open.',
        'cpu_ms_postgres is the user + system time of the PostgreSQL backends connected to the benchmark database, from /proc (null when the server is not on this machine); cpu_ms_rest is the machine busy time minus the three Node processes and those backends: whatever else the machine ran meanwhile (other work skews absolute figures).',
      ],
    };

    log('');
    log(renderTable(api, sql));
    log('');
    log(renderBreakdown(api));
    log(
      `SQL order, CPU per order (ms): load generator and pool ${sql.per_order.cpu_ms_load_generator}, PostgreSQL ${sql.per_order.cpu_ms_postgres ?? 'n/a'}, other work on the machine ${sql.per_order.cpu_ms_rest}.`,
    );
    await finishReport({ log, step }, config.output, report);

    if (count !== created) {
      log(`FAILED: ${created} orders were reported created but ${count} are in the database`);
      return 1;
    }
    if (summary.failed_orders > 0) {
      log(`FAILED: ${summary.failed_orders} orders were not created:`);
      for (const [reason, n] of Object.entries(errorReasons)) log(`  ${n} x ${reason}`);
      return 1;
    }
    return 0;
  } finally {
    client?.close();
    await sqlPool?.end().catch(() => {});
    await Promise.all([stack?.engine.stop(), stack?.actions.stop()]);
    await sink?.close();
    await db.dispose();
  }
}

runBench('bench:orders', main);

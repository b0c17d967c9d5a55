import os from 'node:os';

import type { ChildStats } from '../engine/children.ts';
import { ratio, summarize, type LatencySummary } from '../engine/stats.ts';

import type { RunResult } from './load.ts';

/*
 * What `npm run bench:orders` reports: the runs, each path's figures pooled over its rounds,
 * where an API order's time and CPU go, and the top-level `summary`.
 */

export type PathName = 'api' | 'sql';

export const PATH_LABELS: Record<PathName, string> = {
  api: 'API: createExchange through the engine and the action (HTTP, JWT)',
  sql: 'SQL: the same INSERT in its transaction, straight from a pg pool',
};

/** CPU time spent during a measured run, in ms, by process (the machine's busy time too). */
export interface CpuWindow {
  engine_ms: number;
  actions_ms: number;
  load_generator_ms: number;
  /** The PostgreSQL backends of the benchmark database (null where /proc cannot show them). */
  postgres_ms: number | null;
  /** The machine's busy time: all cores, every process (PostgreSQL included). */
  machine_busy_ms: number;
  machine_total_ms: number;
}

export interface RunRecord {
  path: PathName;
  round: number;
  warmup: RunResult;
  measured: RunResult;
  cpu: CpuWindow;
  /** Statements the actions service and the engine sent while measuring. */
  statements: { actions: number; engine: number };
  /** How long the action requests took inside the actions process (API runs). */
  actionsHandlerMs: LatencySummary | null;
  /** Event-trigger activity while measuring (null when the engine keeps no event log). */
  events: {
    /** Waited before the warm-up for earlier events to be tried. */
    drain_wait_ms: number;
    created: number;
    delivered: number;
    bot_sink_received: number;
    untried_at_end: number;
    retrying_at_end: number;
  } | null;
}

export interface PathFigures {
  orders: number;
  errors: number;
  warmup_errors: number;
  elapsed_s: number;
  orders_per_s: number;
  latency_ms: LatencySummary;
  /** Per created order: CPU ms by process, and statements sent. */
  per_order: {
    cpu_ms_engine: number;
    cpu_ms_actions: number;
    cpu_ms_load_generator: number;
    /** The PostgreSQL backends serving the benchmark database. */
    cpu_ms_postgres: number | null;
    /** The machine's busy time minus all of the above: whatever else the machine ran. */
    cpu_ms_rest: number;
    statements_actions: number;
    statements_engine: number;
  };
  machine_cpu_busy_percent: number;
  actions_handler_ms: LatencySummary | null;
  /** Event-trigger events written per created order, and delivered while measuring. */
  events: { written_per_order: number; delivered_while_measuring: number } | null;
}

/** Sum of every core's busy and total time (ms) since boot. */
export function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + irq + idle;
  }
  return { busy, total };
}

export const cpuMs = (stats: Pick<ChildStats, 'cpuUserUs' | 'cpuSystemUs'>) =>
  (stats.cpuUserUs + stats.cpuSystemUs) / 1000;

const round2 = (value: number) => Math.round(value * 100) / 100;

export function poolPath(
  runs: RunRecord[],
  samples: number[],
  handlerSamples: number[],
): PathFigures {
  const orders = runs.reduce((sum, run) => sum + run.measured.orders, 0);
  const elapsed = runs.reduce((sum, run) => sum + run.measured.elapsedS, 0);
  const total = (pick: (run: RunRecord) => number) => runs.reduce((sum, run) => sum + pick(run), 0);
  const perOrder = (value: number) => (orders > 0 ? round2(value / orders) : 0);
  const engineMs = total((run) => run.cpu.engine_ms);
  const actionsMs = total((run) => run.cpu.actions_ms);
  const loadMs = total((run) => run.cpu.load_generator_ms);
  const postgresMs = runs.every((run) => run.cpu.postgres_ms !== null)
    ? total((run) => run.cpu.postgres_ms ?? 0)
    : null;
  const busyMs = total((run) => run.cpu.machine_busy_ms);
  const machineMs = total((run) => run.cpu.machine_total_ms);
  return {
    orders,
    errors: total((run) => run.measured.errors),
    warmup_errors: total((run) => run.warmup.errors),
    elapsed_s: round2(elapsed),
    orders_per_s: elapsed > 0 ? round2(orders / elapsed) : 0,
    latency_ms: summarize(samples),
    per_order: {
      cpu_ms_engine: perOrder(engineMs),
      cpu_ms_actions: perOrder(actionsMs),
      cpu_ms_load_generator: perOrder(loadMs),
      cpu_ms_postgres: postgresMs === null ? null : perOrder(postgresMs),
      cpu_ms_rest: perOrder(
        Math.max(0, busyMs - engineMs - actionsMs - loadMs - (postgresMs ?? 0)),
      ),
      statements_actions: perOrder(total((run) => run.statements.actions)),
      statements_engine: perOrder(total((run) => run.statements.engine)),
    },
    machine_cpu_busy_percent: machineMs > 0 ? Math.round((busyMs / machineMs) * 1000) / 10 : 0,
    actions_handler_ms: handlerSamples.length === 0 ? null : summarize(handlerSamples),
    events: runs.every((run) => run.events !== null)
      ? {
          written_per_order: perOrder(total((run) => run.events?.created ?? 0)),
          delivered_while_measuring: total((run) => run.events?.delivered ?? 0),
        }
      : null,
  };
}

export function summarizeOrders(api: PathFigures, sql: PathFigures) {
  return {
    orders_via_api_vs_sql_throughput: ratio(api.orders_per_s, sql.orders_per_s),
    orders_per_s: Math.round(api.orders_per_s * 10) / 10,
    sql_orders_per_s: Math.round(sql.orders_per_s * 10) / 10,
    api_p50_ms: api.latency_ms.p50,
    api_p99_ms: api.latency_ms.p99,
    sql_p50_ms: sql.latency_ms.p50,
    sql_p99_ms: sql.latency_ms.p99,
    failed_orders: api.errors + api.warmup_errors + sql.errors + sql.warmup_errors,
  };
}

const cell = (value: number | string | null, width: number) =>
  String(value ?? 'n/a').padStart(width);

export function renderTable(api: PathFigures, sql: PathFigures): string {
  const rows: Array<[string, number | string | null, number | string | null, string]> = [
    [
      'orders/s',
      api.orders_per_s,
      sql.orders_per_s,
      String(ratio(api.orders_per_s, sql.orders_per_s)),
    ],
    ['latency p50 (ms)', api.latency_ms.p50, sql.latency_ms.p50, ''],
    ['latency p99 (ms)', api.latency_ms.p99, sql.latency_ms.p99, ''],
    ['orders created', api.orders, sql.orders, ''],
    [
      'errors (measured + warm-up)',
      api.errors + api.warmup_errors,
      sql.errors + sql.warmup_errors,
      '',
    ],
    ['statements per order', api.per_order.statements_actions, 4, ''],
    [
      'events written per order',
      api.events?.written_per_order ?? null,
      sql.events?.written_per_order ?? null,
      '',
    ],
    ['machine CPU busy (%)', api.machine_cpu_busy_percent, sql.machine_cpu_busy_percent, ''],
  ];
  const lines = [
    `${''.padEnd(28)}${cell('API', 12)}${cell('SQL', 12)}${cell('API / SQL', 12)}`,
    ...rows.map(
      ([label, a, s, r]) => `${label.padEnd(28)}${cell(a, 12)}${cell(s, 12)}${cell(r, 12)}`,
    ),
  ];
  return lines.join('\n');
}

/** Where an API order's time and CPU go. */
export function renderBreakdown(api: PathFigures): string {
  const handler = api.actions_handler_ms;
  const p = api.per_order;
  return [
    `API order, where the time goes: end to end p50 ${api.latency_ms.p50} ms, of which the action request inside the actions service p50 ${handler?.p50 ?? 'n/a'} ms (p99 ${handler?.p99 ?? 'n/a'} ms); the rest is the engine, the two HTTP hops and queueing.`,
    `API order, CPU per order (ms): engine ${p.cpu_ms_engine}, actions ${p.cpu_ms_actions}, load generator ${p.cpu_ms_load_generator}, PostgreSQL ${p.cpu_ms_postgres ?? 'n/a'}, other work on the machine ${p.cpu_ms_rest}; statements per order: actions ${p.statements_actions}, engine ${p.statements_engine}.`,
  ].join('\n');
}

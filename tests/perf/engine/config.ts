import { databaseOption, num, parseOptions } from '../harness.ts';

/*
 * Settings of `npm run bench:engine`. Defaults keep the whole run under ~6 minutes on the
 * project's 2-core machine; every loop below is bounded by these numbers.
 */

export interface BenchConfig {
  /** Transactions rows generated (the issue asks for at least 100k). */
  transactions: number;
  /** portal_users rows generated. */
  users: number;
  /** Users that get many more orders (the subscription load uses them). */
  heavyUsers: number;
  /** Extra orders per heavy user. */
  heavyUserOrders: number;
  /** Users that only the insert load writes for (keeps the read data set unchanged). */
  insertUsers: number;
  /** autocannon connections (closed loop). */
  connections: number;
  /** Measured seconds per run. */
  durationS: number;
  /** Warm-up seconds before every measured run. */
  warmupS: number;
  /** Rounds of the interleaved A,B,C schedule; the report takes the median. */
  rounds: number;
  /** Database connections of every candidate's pool. */
  poolSize: number;
  /** In-flight queries of the extra "pg direct" row (no HTTP). */
  directConcurrency: number;
  /** Measured seconds of one "pg direct" run. */
  directDurationS: number;
  /** Concurrent subscriptions and the WebSocket connections they share. */
  subscriptions: number;
  wsConnections: number;
  /** Engine refetch interval (liveQueryRefetchIntervalMs). */
  refetchIntervalMs: number;
  /** Refetch intervals the statement count is measured over (subscribed), and the idle baseline's. */
  statementIntervals: number;
  baselineIntervals: number;
  /** Rows updated per second, and for how long, in the update-latency phase. */
  updatesPerSecond: number;
  updateSeconds: number;
  /** Seconds of full churn: every watched row updated every second (G5). */
  churnSeconds: number;
  /** Where the JSON report goes (relative to the repository root). */
  output: string;
  /** auto: the PostgreSQL server when reachable, else PGlite. */
  database: 'auto' | 'postgres' | 'pglite';
  serverUrl: string;
  /** Skip parts (for quick checks of the harness). */
  skipHttp: boolean;
  skipSubscriptions: boolean;
}

const HELP = `Usage: npm run bench:engine -- [options]

  --db auto|postgres|pglite   database (default auto: TEST_POSTGRES_URL or
                              postgres://postgres@127.0.0.1:5432/postgres when reachable)
  --duration S                measured seconds per run (default 5)
  --warmup S                  warm-up seconds before each run (default 1.5)
  --rounds N                  interleaved rounds, median reported (default 3, minimum 3)
  --connections N             autocannon connections (default 50)
  --transactions N            transactions rows generated (default 120000)
  --subscriptions N           concurrent subscriptions (default 5000)
  --ws-connections N          WebSocket connections carrying them (default 50)
  --skip-http                 only the subscription load
  --skip-subscriptions        only the HTTP loads
  --output FILE               JSON report (default bench-results/engine.json)
`;

export function parseConfig(argv: string[]): BenchConfig {
  const values = parseOptions(argv, HELP, {
    db: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string' },
    transactions: { type: 'string' },
    subscriptions: { type: 'string' },
    'ws-connections': { type: 'string' },
    'skip-http': { type: 'boolean' },
    'skip-subscriptions': { type: 'boolean' },
    output: { type: 'string' },
  });
  const database = databaseOption(values.db);
  const subscriptions = Math.floor(num(values.subscriptions, 5000, 'subscriptions', 1));
  const wsConnections = Math.floor(num(values['ws-connections'], 50, 'ws-connections', 1));
  return {
    transactions: Math.floor(num(values.transactions, 120_000, 'transactions', 1000)),
    users: 2000,
    heavyUsers: Math.max(wsConnections, 50),
    heavyUserOrders: Math.max(120, Math.ceil(subscriptions / wsConnections) + 20),
    insertUsers: 200,
    connections: Math.floor(num(values.connections, 50, 'connections', 1)),
    durationS: num(values.duration, 5, 'duration', 1),
    warmupS: num(values.warmup, 1.5, 'warmup', 0),
    rounds: Math.max(3, Math.floor(num(values.rounds, 3, 'rounds', 3))),
    poolSize: 8,
    directConcurrency: 32,
    directDurationS: 3,
    subscriptions,
    wsConnections,
    refetchIntervalMs: 1000,
    statementIntervals: 16,
    baselineIntervals: 8,
    updatesPerSecond: 200,
    updateSeconds: 10,
    churnSeconds: 8,
    output: values.output ?? 'bench-results/engine.json',
    database,
    serverUrl: process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    skipHttp: values['skip-http'] ?? false,
    skipSubscriptions: values['skip-subscriptions'] ?? false,
  };
}

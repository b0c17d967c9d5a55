import { databaseOption, num, parseOptions } from '../harness.ts';

/*
 * Settings of `npm run bench:orders`. The defaults keep the whole run to about a minute on the
 * project's 2-core machine: setup, then per path `rounds` x (warm-up + duration / rounds).
 */

export interface OrdersBenchConfig {
  /** portal_users rows created; request n is made for user n mod users. */
  users: number;
  /** Closed-loop clients of each path (requests in flight). */
  connections: number;
  /** Measured seconds per path, split evenly over the rounds. */
  durationS: number;
  /** Warm-up seconds before every measured run. */
  warmupS: number;
  /** Rounds of the alternating schedule (API, SQL / SQL, API / ...); figures are pooled. */
  rounds: number;
  /** Database connections of the actions service's pool, and of the SQL path's pool. */
  poolSize: number;
  /** auto: the PostgreSQL server when reachable, else PGlite. */
  database: 'auto' | 'postgres' | 'pglite';
  serverUrl: string;
  /** Where the JSON report goes (relative to the repository root). */
  output: string;
  /** Also write CPU profiles of the engine and the actions service beside the report. */
  profile: boolean;
  /** Diagnostic: the engine without the metadata's event and cron triggers. */
  withoutEventTriggers: boolean;
}

const HELP = `Usage: npm run bench:orders -- [options]

  --db auto|postgres|pglite   database (default auto: a scratch database on TEST_POSTGRES_URL,
                              DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres when
                              reachable, else embedded PGlite)
  --duration S                measured seconds per path, over all rounds (default 10)
  --warmup S                  warm-up seconds before each measured run (default 2)
  --rounds N                  alternating rounds (default 2)
  --connections N             concurrent clients per path (default 32)
  --users N                   users the orders are spread over (default 200)
  --pool N                    database connections of the actions service and of the SQL path
                              (default 10, the service's ACTIONS_DB_POOL_SIZE default)
  --output FILE               JSON report (default bench-results/orders.json)
  --profile                   also write V8 CPU profiles of the engine and the actions
                              service beside it (orders-engine.cpuprofile, orders-actions...)
  --without-event-triggers    diagnostic: the engine without the metadata's event and cron
                              triggers (orders then write no events and none are delivered)
`;

export function parseOrdersConfig(argv: string[]): OrdersBenchConfig {
  const values = parseOptions(argv, HELP, {
    db: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string' },
    users: { type: 'string' },
    pool: { type: 'string' },
    output: { type: 'string' },
    profile: { type: 'boolean' },
    'without-event-triggers': { type: 'boolean' },
  });
  const database = databaseOption(values.db);
  return {
    users: Math.floor(num(values.users, 200, 'users', 1)),
    connections: Math.floor(num(values.connections, 32, 'connections', 1)),
    durationS: num(values.duration, 10, 'duration', 1),
    warmupS: num(values.warmup, 2, 'warmup', 0),
    rounds: Math.floor(num(values.rounds, 2, 'rounds', 1)),
    poolSize: Math.floor(num(values.pool, 10, 'pool', 1)),
    database,
    serverUrl:
      process.env['TEST_POSTGRES_URL'] ??
      process.env['DATABASE_URL'] ??
      'postgres://postgres@127.0.0.1:5432/postgres',
    output: values.output ?? 'bench-results/orders.json',
    profile: values.profile ?? false,
    withoutEventTriggers: values['without-event-triggers'] ?? false,
  };
}

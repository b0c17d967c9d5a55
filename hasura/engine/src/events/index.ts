import pg from 'pg';

import type { Logger } from '@app/shared/log';

import type { Metadata } from '../metadata/model.ts';
import type { SchemaModel } from '../schema/model.ts';

import { CATALOG_DDL, NOTIFY_CHANNEL, SETUP_LOCK_KEY } from './catalog.ts';
import {
  cronRetryPolicy,
  cronTriggers,
  cronTriggerTarget,
  eventRetryPolicy,
  eventTriggerTarget,
  tableEventTriggers,
} from './config.ts';
import {
  CronEventQueue,
  cronRuntime,
  generateCronEvents,
  resetCronEvents,
  validateSchedule,
  type CronTriggerRuntime,
} from './cron.ts';
import { Dispatcher } from './dispatcher.ts';
import { EventLogQueue, type EventTriggerRuntime } from './event-log.ts';
import { run } from './sql.ts';
import { planSqlTriggers, syncSqlTriggers } from './sql-triggers.ts';

/*
 * Event triggers and cron triggers, delivered at least once from a durable log:
 *
 * 1. start-up (one transaction, under an advisory lock): the event log catalog, one
 *    Postgres trigger per event trigger and operation (dropping ours that metadata no longer
 *    has), and a reset of not yet due cron events;
 * 2. a dispatcher that claims due events and cron events with FOR UPDATE SKIP LOCKED and a
 *    lease, posts them, and records the outcome; woken by NOTIFY from the table triggers,
 *    by retries falling due, and by a poll every `pollIntervalMs`;
 * 3. a cron generator that keeps each cron trigger's next occurrences in the table.
 *
 * Several engines may share a database: each event is delivered by one engine at a time, and
 * an event whose engine stopped or died mid-delivery is delivered again by another (or by
 * the same after a restart). Receivers tell a repeat by the event's `id`.
 */

export interface EventDeps {
  pool: pg.Pool;
  metadata: Metadata;
  model: SchemaModel;
  /** For webhook_from_env, value_from_env headers and {{VAR}} templates. */
  environment: Record<string, string | undefined>;
  logger: Logger | undefined;
  /**
   * Whether bigint, numeric, float8 and money appear as strings in `data.old` / `data.new`
   * (HASURA_GRAPHQL_STRINGIFY_NUMERIC_TYPES, as for query results). Default true.
   */
  stringifyNumericTypes?: boolean | undefined;
  /** How often the log is polled for due events, in ms (default 1000). */
  pollIntervalMs?: number | undefined;
  /** How often cron triggers' upcoming events are topped up, in ms (default 60 000). */
  cronGenerateIntervalMs?: number | undefined;
  /** Webhook calls in flight at once (HASURA_GRAPHQL_EVENTS_HTTP_POOL_SIZE; default 100). */
  concurrency?: number | undefined;
  /** On close, how long deliveries in flight may finish before they are aborted (default 5000 ms). */
  shutdownGraceMs?: number | undefined;
  /** The clock cron occurrences are generated from (default Date.now); for tests. */
  now?: (() => number) | undefined;
}

export interface EventTriggers {
  close(): Promise<void>;
}

async function installInDatabase(
  deps: EventDeps,
  plans: ReturnType<typeof planSqlTriggers>,
  cronNames: string[],
): Promise<void> {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    await run(client, 'SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK_KEY]);
    await client.query(CATALOG_DDL);
    const result = await syncSqlTriggers(client, plans);
    await resetCronEvents(client, cronNames);
    await client.query('COMMIT');
    if (result.created.length > 0)
      deps.logger?.info({ triggers: result.created }, 'event triggers: created SQL triggers');
    if (result.dropped.length > 0)
      deps.logger?.info(
        { triggers: result.dropped },
        'event triggers: dropped SQL triggers no longer in metadata',
      );
    if (result.removedTriggers.length > 0) {
      deps.logger?.info(
        { triggers: result.removedTriggers },
        'event triggers: archived the events of removed triggers',
      );
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A dedicated LISTEN connection: a hint that events arrived (real PostgreSQL delivers it here). */
class NotifyListener {
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onNotify: () => void,
    private readonly logger: Logger | undefined,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.pool.options);
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      if (this.closed) return;
      this.logger?.debug({ err: error }, 'event triggers: LISTEN connection lost; reconnecting');
      this.reconnectTimer = setTimeout(() => void this.start(), 5_000);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === NOTIFY_CHANNEL) this.onNotify();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      if (this.closed) return;
      this.logger?.debug({ err: error }, 'event triggers: cannot LISTEN; polling only for now');
      this.reconnectTimer = setTimeout(() => void this.start(), 5_000);
      return;
    }
    if (this.closed) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}

/**
 * Embedded PGlite runs every connection in one session, so a NOTIFY reaches the connection
 * that committed (one of the pool's) rather than the LISTEN connection: watch those too.
 */
function watchPoolNotifications(pool: pg.Pool, onNotify: () => void): () => void {
  const watched = new Set<pg.PoolClient>();
  const listener = (message: pg.Notification) => {
    if (message.channel === NOTIFY_CHANNEL) onNotify();
  };
  const onAcquire = (client: pg.PoolClient) => {
    if (watched.has(client)) return;
    watched.add(client);
    client.on('notification', listener);
  };
  const onRemove = (client: pg.PoolClient) => {
    watched.delete(client);
    client.off('notification', listener);
  };
  pool.on('acquire', onAcquire);
  pool.on('remove', onRemove);
  return () => {
    pool.off('acquire', onAcquire);
    pool.off('remove', onRemove);
    for (const client of watched) client.off('notification', listener);
    watched.clear();
  };
}

/** Installs the event log and table triggers, and starts delivering events and cron triggers. */
export async function startEventTriggers(deps: EventDeps): Promise<EventTriggers> {
  const { logger } = deps;
  const tableTriggers = tableEventTriggers(deps.metadata);
  const crons = cronTriggers(deps.metadata);
  for (const cron of crons) validateSchedule(cron.name, cron.schedule);
  const plans = planSqlTriggers(tableTriggers, deps.model, deps.stringifyNumericTypes ?? true);

  await installInDatabase(
    deps,
    plans,
    crons.map((cron) => cron.name),
  );

  const eventRuntimes = new Map<string, EventTriggerRuntime>();
  for (const { trigger } of tableTriggers) {
    const target = eventTriggerTarget(trigger, deps.environment);
    if (!target.ok) {
      logger?.error(
        { trigger: trigger.name, reason: target.error },
        'event trigger cannot be delivered; its events are kept in the log until its configuration is fixed',
      );
      continue;
    }
    eventRuntimes.set(trigger.name, {
      name: trigger.name,
      target: target.value,
      retry: eventRetryPolicy(trigger),
    });
  }
  const cronRuntimes = new Map<string, CronTriggerRuntime>();
  for (const cron of crons) {
    const target = cronTriggerTarget(cron, deps.environment);
    if (!target.ok) {
      logger?.error(
        { cronTrigger: cron.name, reason: target.error },
        'cron trigger cannot be delivered; its events are kept until its configuration is fixed',
      );
      continue;
    }
    cronRuntimes.set(cron.name, cronRuntime(cron, target.value, cronRetryPolicy(cron)));
  }
  if (eventRuntimes.size === 0 && cronRuntimes.size === 0) return { close: async () => {} };

  const dispatcher = new Dispatcher(
    [
      new EventLogQueue(deps.pool, eventRuntimes, logger),
      new CronEventQueue(deps.pool, cronRuntimes, logger),
    ],
    { pollIntervalMs: deps.pollIntervalMs ?? 1000, concurrency: deps.concurrency ?? 100, logger },
  );
  const wake = () => dispatcher.wake();

  let listener: NotifyListener | undefined;
  let unwatch = () => {};
  if (eventRuntimes.size > 0) {
    listener = new NotifyListener(deps.pool, wake, logger);
    await listener.start();
    unwatch = watchPoolNotifications(deps.pool, wake);
  }

  let cronTimer: NodeJS.Timeout | undefined;
  let generating: Promise<void> | undefined;
  const cronList = [...cronRuntimes.values()];
  const generate = () => {
    generating ??= generateCronEvents(deps.pool, cronList, deps.now ?? Date.now, logger)
      .then(wake, (error: unknown) =>
        logger?.warn({ err: error }, 'cron triggers: generating events failed'),
      )
      .finally(() => (generating = undefined));
    return generating;
  };
  if (cronList.length > 0) {
    await generate();
    cronTimer = setInterval(() => void generate(), deps.cronGenerateIntervalMs ?? 60_000);
  }

  dispatcher.start();

  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        if (cronTimer !== undefined) clearInterval(cronTimer);
        unwatch();
        await listener?.close();
        await generating;
        await dispatcher.close(deps.shutdownGraceMs ?? 5_000);
      })();
      return closing;
    },
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type pg from 'pg';

/*
 * Event triggers: every order insert (either path) also writes the insert events the
 * metadata defines to hdb_catalog.event_log in the same transaction, and the engine delivers
 * them afterwards. The bot's events go to a sink here that answers 200 (the bot service's
 * part); the e-mail ones to the actions service. Before each run the benchmark waits until
 * every event so far has been tried once, so one run's deliveries do not fall into the next.
 */

/** Answers every POST with 200, counting them. */
export class EventSink {
  received = 0;
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.received += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  url = '';

  static async start(): Promise<EventSink> {
    const sink = new EventSink();
    sink.server.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => sink.server.once('listening', resolve));
    sink.url = `http://127.0.0.1:${(sink.server.address() as AddressInfo).port}/`;
    return sink;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

export interface EventLogCounts {
  /** Events in the log. */
  events: number;
  delivered: number;
  /** Not delivered and not yet tried. */
  untried: number;
  /** Tried and failed, waiting for a retry. */
  retrying: number;
}

/** The event log's counts; null when the engine keeps none (no event triggers). */
export async function eventLogCounts(pool: pg.Pool): Promise<EventLogCounts | null> {
  const exists = await pool.query<{ ok: boolean }>(
    "SELECT to_regclass('hdb_catalog.event_log') IS NOT NULL AS ok",
  );
  if (!exists.rows[0]?.ok) return null;
  const { rows } = await pool.query<EventLogCounts>(
    `SELECT count(*)::int AS events,
            count(*) FILTER (WHERE delivered)::int AS delivered,
            count(*) FILTER (WHERE NOT delivered AND NOT error AND tries = 0)::int AS untried,
            count(*) FILTER (WHERE NOT delivered AND NOT error AND tries > 0)::int AS retrying
       FROM hdb_catalog.event_log`,
  );
  return rows[0]!;
}

/** Waits (up to `timeoutMs`) until every event has been tried once; returns the wait in ms. */
export async function drainEvents(pool: pg.Pool, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const counts = await eventLogCounts(pool);
    if (!counts || counts.untried === 0) break;
    if (performance.now() - started > timeoutMs) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return Math.round(performance.now() - started);
}

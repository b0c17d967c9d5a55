import http from 'node:http';

import {
  answerMetrics,
  createServiceMetrics,
  METRICS_PATH,
  scrapeGauge,
} from '@app/shared/observability';

import type { Db } from './store.ts';

/*
 * The watcher service's own HTTP: GET /healthz for the launcher and orchestrators, GET
 * /metrics with each network's health from public.chain_watch_state (the last block processed,
 * the head seen, the lag between, seconds since the last good read, and whether the last read
 * failed), read at scrape time, so every instance reports the same figures.
 */
export function createWatchersServer(options: { db: Db; metricsToken: string | undefined }) {
  const metrics = createServiceMetrics('watchers');
  const state = async () =>
    (
      await options.db.query<{
        network: string;
        last: string | null;
        head: string | null;
        age: number | null;
        failing: boolean;
      }>(
        `SELECT network, last_block_number::text AS last, head_number::text AS head,
                extract(epoch FROM now() - checked_at)::float8 AS age,
                coalesce(last_error_at > checked_at OR checked_at IS NULL, false) AS failing
           FROM public.chain_watch_state`,
      )
    ).rows;
  const gauge = (
    name: string,
    help: string,
    value: (row: Awaited<ReturnType<typeof state>>[number]) => number | null,
  ) =>
    scrapeGauge(metrics.registry, { name, help, labelNames: ['network'] as const }, async (g) => {
      for (const row of await state()) {
        const v = value(row);
        if (v !== null) g.set({ network: row.network }, v);
      }
    });
  gauge('chain_last_block', 'The last block a watcher processed, per network.', (row) =>
    row.last === null ? null : Number(row.last),
  );
  gauge('chain_head_block', 'The chain head a watcher last saw, per network.', (row) =>
    row.head === null ? null : Number(row.head),
  );
  gauge(
    'chain_lag_blocks',
    'Blocks between the head and the last processed, per network.',
    (row) => (row.head === null || row.last === null ? null : Number(row.head) - Number(row.last)),
  );
  gauge(
    'chain_last_read_age_seconds',
    'Seconds since a watcher last read its chain.',
    (row) => row.age,
  );
  gauge('chain_read_failing', '1 when the last read of the chain failed.', (row) =>
    row.failing ? 1 : 0,
  );

  return http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'GET' && path === '/healthz') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else if (request.method === 'GET' && path === METRICS_PATH) {
      void answerMetrics(metrics, options.metricsToken, request, response);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
    }
  });
}

import type pg from 'pg';

import { scrapeGauge, type Registry } from '@app/shared/observability';

/*
 * The business gauges an operator watches (issue 20), read at scrape time by one query on the
 * queue's partial index (transactions_requisites_due_idx covers the late ones): orders waiting
 * for an operator's payment details, how long the oldest has waited, and how many of them are
 * past `requisites_due_at`, the operator's promise (migration 1763740800900_order_trust).
 */

const OPERATOR_QUEUE = `
SELECT count(*)::int AS waiting,
       coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_seconds,
       (count(*) FILTER (WHERE requisites_due_at < now()))::int AS late
  FROM public.transactions
 WHERE status = 'waiting_for_operator'`;

interface QueueRow {
  waiting: number;
  oldest_seconds: number;
  late: number;
}

export function observeOperatorQueue(registry: Registry, pool: pg.Pool): void {
  // One query per scrape feeds all three gauges: the first collects, the others read it.
  let latest: Promise<QueueRow | undefined> | undefined;
  const read = () => {
    latest ??= pool
      .query<QueueRow>(OPERATOR_QUEUE)
      .then((result) => result.rows[0])
      .finally(() => setTimeout(() => (latest = undefined), 0));
    return latest;
  };
  const gauge = (name: string, help: string, pick: (row: QueueRow) => number) =>
    scrapeGauge(registry, { name, help }, async (metric) => {
      const row = await read();
      if (row) metric.set(pick(row));
    });
  gauge(
    'orders_waiting_for_operator',
    'Orders waiting for an operator to give payment details.',
    (row) => row.waiting,
  );
  gauge(
    'orders_waiting_for_operator_oldest_age_seconds',
    'Seconds the oldest order waiting for an operator has waited (0 when none waits).',
    (row) => row.oldest_seconds,
  );
  gauge(
    'orders_requisites_late',
    'Orders waiting for an operator past their payment-details deadline (requisites_due_at).',
    (row) => row.late,
  );
}

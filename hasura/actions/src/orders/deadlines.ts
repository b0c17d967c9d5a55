import express, { type Request, type Response, type Router } from 'express';
import type pg from 'pg';

import type { Logger } from '@app/shared/log';

import { SECRET_HEADER, sameSecret } from '../http/shared-secret.ts';
import { ActionFailure } from '../http/errors.ts';

/*
 * The `order_deadlines` cron trigger (hasura/metadata/cron_triggers.yaml, every minute;
 * decision 015): orders unpaid past `pay_by` expire, and orders whose requisites are past
 * `requisites_due_at` are flagged once (`requisites_late_at`), which the
 * `order_requisites_late_bot` event trigger reports to staff. Each order is updated in a
 * statement of its own under the same conditions, so a payment confirmed or requisites given
 * meanwhile win, and a run repeated (or two instances at once) changes nothing twice.
 */

/** At most this many orders per kind per run; the next minute takes the rest. */
const BATCH = 500;

export interface DeadlinesReport {
  at: string;
  expired: string[];
  flaggedLate: string[];
}

export async function runOrderDeadlines(pool: pg.Pool, now: Date): Promise<DeadlinesReport> {
  const at = now.toISOString();
  // The status history records these as the service's doing (no session user).
  const expired = await pool.query<{ number: string }>(
    `UPDATE public.transactions t SET status = 'expired'
      WHERE t.id IN (SELECT id FROM public.transactions
                      WHERE status = 'waiting_for_payment' AND pay_by < $1
                      ORDER BY pay_by LIMIT ${BATCH}
                      FOR UPDATE SKIP LOCKED)
        AND t.status = 'waiting_for_payment' AND t.pay_by < $1
      RETURNING t.number::text AS number`,
    [at],
  );
  const late = await pool.query<{ number: string }>(
    `UPDATE public.transactions t SET requisites_late_at = $1
      WHERE t.id IN (SELECT id FROM public.transactions
                      WHERE status = 'waiting_for_operator' AND requisites_late_at IS NULL
                        AND requisites_due_at < $1
                      ORDER BY requisites_due_at LIMIT ${BATCH}
                      FOR UPDATE SKIP LOCKED)
        AND t.status = 'waiting_for_operator' AND t.requisites_late_at IS NULL
      RETURNING t.number::text AS number`,
    [at],
  );
  return {
    at,
    expired: expired.rows.map((row) => row.number),
    flaggedLate: late.rows.map((row) => row.number),
  };
}

export interface DeadlinesRouterOptions {
  pool: pg.Pool;
  /** Read on every request, so a test may change it. */
  secret: () => string;
  now: () => Date;
  logger: Pick<Logger, 'info'>;
}

/** `POST /cron/order-deadlines`, for the engine's cron trigger only. */
export function createDeadlinesRouter(options: DeadlinesRouterOptions): Router {
  const router = express.Router();
  router.post('/cron/order-deadlines', async (req: Request, res: Response) => {
    if (!sameSecret(req.get(SECRET_HEADER), options.secret()))
      throw new ActionFailure('unauthorized', 'This endpoint is for the GraphQL engine.', 401);
    const report = await runOrderDeadlines(options.pool, options.now());
    if (report.expired.length > 0 || report.flaggedLate.length > 0)
      options.logger.info(
        { expired: report.expired, flaggedLate: report.flaggedLate },
        'order deadlines applied',
      );
    res.json(report);
  });
  return router;
}

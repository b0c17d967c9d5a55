import type pg from 'pg';

import { ActionFailure } from '../http/errors.ts';

/*
 * Orders of an unproven account: an e-mail account whose address nobody has proven yet
 * (quick-auth or /register made it for whoever typed the address). Anyone can make one, so
 * until the address is proven it may have only a few orders, which keeps one person with
 * many such accounts from filling the operators' queue; and no order mail goes to it
 * (notifications/recipient.ts). docs/decisions/016-unproven-accounts-and-revocation.md.
 */

/** Orders not yet finished (any status but completed, canceled, refunded, expired). */
export const UNPROVEN_MAX_OPEN_ORDERS = 2;
/** Orders created within the last hour, finished or not. */
export const UNPROVEN_MAX_ORDERS_PER_HOUR = 3;

const FINISHED = ['completed', 'canceled', 'refunded', 'expired'];

/**
 * Refuses a new order of an unproven account over the limits. Runs in the order's own
 * transaction and locks the account row first, so concurrent requests are counted one after
 * another. A repeated idempotency key is not a new order and passes.
 */
export async function checkUnprovenOrderLimits(
  client: pg.PoolClient,
  userId: string,
  idempotencyKey: string,
): Promise<void> {
  const account = await client.query<{ unproven: boolean }>(
    `SELECT email IS NOT NULL AND NOT is_verified_email AS unproven
       FROM public.portal_users WHERE id = $1`,
    [userId],
  );
  if (!account.rows[0]?.unproven) return;
  await client.query('SELECT 1 FROM public.portal_users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
  const { rows } = await client.query<{ repeat: boolean; open: number; last_hour: number }>(
    `SELECT bool_or(idempotency_key = $2) IS TRUE AS repeat,
            (count(*) FILTER (WHERE status <> ALL ($3::text[])))::int AS open,
            (count(*) FILTER (WHERE created_at > now() - interval '1 hour'))::int AS last_hour
       FROM public.transactions WHERE user_id = $1`,
    [userId, idempotencyKey, FINISHED],
  );
  const counts = rows[0]!;
  if (counts.repeat) return;
  if (counts.open >= UNPROVEN_MAX_OPEN_ORDERS || counts.last_hour >= UNPROVEN_MAX_ORDERS_PER_HOUR)
    throw new ActionFailure(
      'unconfirmed-order-limit',
      `Confirm your e-mail to place more orders: until then at most ${UNPROVEN_MAX_OPEN_ORDERS} open orders and ${UNPROVEN_MAX_ORDERS_PER_HOUR} orders an hour.`,
      429,
      { maxOpen: UNPROVEN_MAX_OPEN_ORDERS, maxPerHour: UNPROVEN_MAX_ORDERS_PER_HOUR },
    );
}

import { expect } from 'vitest';

import type { TestDatabase } from '../../support/databases.ts';

/**
 * The ledger after a batch (issue 11): no negative balance; each referrer's bonuses are exactly
 * the accruals of their referrals' completed orders and no bonus is for an order not completed;
 * every order's history is a path of allowed transitions ending in its status, with the payout
 * or refund it needs, never both.
 */
export async function checkInvariants(
  db: TestDatabase,
  referrers: string[],
  users: string[],
): Promise<void> {
  const balances = await db.pool.query<{ user_id: string; available: string }>(
    `SELECT user_id, available_usdt::text AS available FROM affiliate_statistics
    WHERE user_id = ANY($1::uuid[]) AND available_usdt < 0`,
    [referrers],
  );
  expect(balances.rows, 'a negative affiliate balance').toEqual([]);

  const ledger = await db.pool.query<{ referrer: string; bonuses: string; accruals: string }>(
    `SELECT r.id AS referrer,
          (SELECT COALESCE(sum(amount_usdt), 0)::text FROM referral_bonuses WHERE referrer_id = r.id) AS bonuses,
          (SELECT COALESCE(sum(trunc(t.amount_usdt * s.accrual_rate, 6)), 0)::text
             FROM transactions t JOIN portal_users u ON u.id = t.user_id, affiliate_settings s
            WHERE u.referrer_id = r.id AND t.status = 'completed') AS accruals
     FROM portal_users r WHERE r.id = ANY($1::uuid[])`,
    [referrers],
  );
  for (const row of ledger.rows)
    expect(row.bonuses, `bonuses of ${row.referrer}`).toBe(row.accruals);
  const strayBonuses = await db.pool.query(
    `SELECT b.id FROM referral_bonuses b JOIN transactions t ON t.id = b.transaction_id
    WHERE b.referrer_id = ANY($1::uuid[]) AND t.status <> 'completed'`,
    [referrers],
  );
  expect(strayBonuses.rows, 'a bonus for an order that is not completed').toEqual([]);

  const orders = await db.pool.query<{
    id: string;
    status: string;
    payout_tx_id: string | null;
    refund_tx_id: string | null;
    path: string[];
  }>(
    `SELECT t.id, t.status, t.payout_tx_id, t.refund_tx_id,
          array_agg(h.from_status || '>' || h.to_status ORDER BY h.id)
            FILTER (WHERE h.from_status IS NOT NULL) AS path
     FROM transactions t JOIN transaction_status_history h ON h.transaction_id = t.id
    WHERE t.user_id = ANY($1::uuid[])
    GROUP BY t.id`,
    [users],
  );
  const allowed = await db.pool.query<{ ok: boolean; step: string }>(
    `SELECT DISTINCT s AS step,
          transaction_transition_allowed(split_part(s, '>', 1), split_part(s, '>', 2)) AS ok
     FROM transactions t JOIN LATERAL (
       SELECT h.from_status || '>' || h.to_status AS s FROM transaction_status_history h
        WHERE h.transaction_id = t.id AND h.from_status IS NOT NULL) x ON true
    WHERE t.user_id = ANY($1::uuid[])`,
    [users],
  );
  expect(allowed.rows.filter((row) => !row.ok)).toEqual([]);
  for (const order of orders.rows) {
    const path = order.path ?? [];
    const last = path.at(-1)?.split('>')[1] ?? 'waiting_for_operator';
    expect(last, `history of ${order.id}`).toBe(order.status);
    if (order.status === 'completed') expect(order.payout_tx_id).not.toBeNull();
    if (order.status === 'refunded') expect(order.refund_tx_id).not.toBeNull();
    expect(
      order.payout_tx_id !== null && order.refund_tx_id !== null,
      'paid out and refunded',
    ).toBe(false);
  }
}

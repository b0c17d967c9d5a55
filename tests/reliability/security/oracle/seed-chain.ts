import type pg from 'pg';

/**
 * The oracle's rows of the on-chain watchers (issue 25): payments seen to the user's order, to
 * the stranger's, and to an address no order has, and a watcher's health, which only staff read.
 */
export async function seedChainPayments(
  client: pg.PoolClient,
  orders: { user: string; stranger: string },
): Promise<void> {
  // Payments the watchers saw: to the user's order, the stranger's, and an address no
  // order has; and a watcher's health, for staff only.
  await client.query(
    `INSERT INTO public.chain_payments
       (network, tx_hash, output_index, currency_code, to_address, amount, block_number, block_hash,
        confirmations, confirmations_required, state, transaction_id, first_seen_at)
     VALUES
       ('BTC', 'aaaa000000000000000000000000000000000000000000000000000000000001', 0, 'BTC',
        'bc1quserdeposit000000001', 0.5, 100, 'bbbb000000000000000000000000000000000000000000000000000000000001',
        1, 2, 'seen', $1, '2026-02-19T10:00:00Z'),
       ('BTC', 'aaaa000000000000000000000000000000000000000000000000000000000002', 1, 'BTC',
        'bc1qstrangersecretdeposit1', 0.7, 101, 'bbbb000000000000000000000000000000000000000000000000000000000002',
        0, 2, 'seen', $2, '2026-02-19T11:00:00Z'),
       ('ERC20', 'aaaa000000000000000000000000000000000000000000000000000000000003', 0, 'ETH',
        '0xstrangerSecretNoOrder0000000000000000001', 1.25, 102, 'bbbb000000000000000000000000000000000000000000000000000000000003',
        3, 12, 'seen', NULL, '2026-02-19T12:00:00Z')`,
    [orders.user, orders.stranger],
  );
  await client.query(
    `INSERT INTO public.chain_watch_state (network, last_block_number, last_block_hash, head_number, checked_at, last_error, last_error_at)
     VALUES ('BTC', 101, 'bbbb000000000000000000000000000000000000000000000000000000000002', 102,
             '2026-02-19T12:00:00Z', 'watcher secret error', '2026-02-19T11:30:00Z')
     ON CONFLICT (network) DO NOTHING`,
  );
}

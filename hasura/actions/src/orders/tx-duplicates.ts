import type pg from 'pg';

import { ActionFailure } from '../http/errors.ts';

/*
 * A payout's transaction id recorded twice (issue 23, decision 044). One on-chain transaction
 * may legitimately pay several orders or withdrawals (a batch), so a repeated id is not refused
 * outright; but it is more often a paste of the previous order's id, so the first attempt is
 * refused with `duplicate-tx-id` naming the other records, and the operator repeats it with
 * `allowDuplicateTxId: true` once they have looked. The check is here, in the action, so that no
 * client can record a duplicate without being told.
 *
 * Two ids are the same when they are the same after trimming, on the same network (the payout
 * currency's network; the currency itself where it has none, e.g. a bank reference in EUR),
 * compared without case when the id is hexadecimal (explorers print ETH and TRON ids in either
 * case) and exactly otherwise (base58 ids such as Solana's are case-sensitive).
 */

/** Withdrawals are paid in USDT on TRC20 (spec section 9). */
export const WITHDRAWAL_NETWORK = 'TRC20';

/** At most this many other records are named; the operator needs a few, not a list. */
const MAX_NAMED = 20;

const HEX = /^(0x)?[0-9a-f]+$/i;

/** A tx id as it is compared: trimmed, lower-cased when hexadecimal. */
export function normalizeTxId(txId: string): string {
  const trimmed = txId.trim();
  return HEX.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/** Another record that already holds the id. */
export type TxDuplicate =
  | { kind: 'order'; id: string; number: string; field: 'payout' | 'refund' }
  | { kind: 'withdrawal'; id: string };

/** Whether the caller said to record the id even if it is already recorded elsewhere. */
export function allowsDuplicate(input: Record<string, unknown>): boolean {
  return input['allowDuplicateTxId'] === true;
}

/** The network of a currency's payouts: its chain, or its own code when it has none. */
export async function networkOf(client: pg.PoolClient, currency: string): Promise<string> {
  const { rows } = await client.query<{ network: string }>(
    'SELECT coalesce(network, code) AS network FROM public.currencies WHERE code = $1',
    [currency],
  );
  return rows[0]?.network ?? currency;
}

/**
 * The other orders (payouts and refunds) and withdrawals whose tx id on `network` is `txId`.
 * The query narrows by the lower-cased id (one rule for both cases); the exact rule for
 * non-hex ids is applied to the rows it finds.
 */
export async function findTxDuplicates(
  client: pg.PoolClient,
  network: string,
  txId: string,
  exclude: { orderId?: string; withdrawalId?: string },
): Promise<TxDuplicate[]> {
  const wanted = normalizeTxId(txId);
  const { rows } = await client.query<{
    kind: 'order' | 'withdrawal';
    id: string;
    number: string | null;
    field: 'payout' | 'refund';
    tx: string;
  }>(
    `(SELECT 'order' AS kind, t.id, t.number::text AS number, 'payout' AS field,
             t.payout_tx_id AS tx, t.created_at
        FROM public.transactions t
        JOIN public.currencies c ON c.code = t.receive_currency
       WHERE lower(btrim(t.payout_tx_id)) = lower($2)
         AND coalesce(c.network, c.code) = $1
         AND t.id IS DISTINCT FROM $3::uuid)
     UNION ALL
     (SELECT 'order', t.id, t.number::text, 'refund', t.refund_tx_id, t.created_at
        FROM public.transactions t
        JOIN public.currencies c ON c.code = t.send_currency
       WHERE lower(btrim(t.refund_tx_id)) = lower($2)
         AND coalesce(c.network, c.code) = $1
         AND t.id IS DISTINCT FROM $3::uuid)
     UNION ALL
     (SELECT 'withdrawal', w.id, NULL, 'payout', w.payout_tx_id, w.created_at
        FROM public.bonus_withdrawals w
       WHERE $1 = $5
         AND lower(btrim(w.payout_tx_id)) = lower($2)
         AND w.id IS DISTINCT FROM $4::uuid)
     ORDER BY created_at DESC
     LIMIT $6`,
    [
      network,
      wanted,
      exclude.orderId ?? null,
      exclude.withdrawalId ?? null,
      WITHDRAWAL_NETWORK,
      MAX_NAMED * 4,
    ],
  );
  return rows
    .filter((row) => normalizeTxId(row.tx) === wanted)
    .slice(0, MAX_NAMED)
    .map((row) =>
      row.kind === 'order'
        ? { kind: 'order', id: row.id, number: row.number ?? '', field: row.field }
        : { kind: 'withdrawal', id: row.id },
    );
}

/**
 * Refuses `txId` when other records on `network` hold it, unless the caller allowed it. The
 * refusal carries the records (`duplicates`) for the console to name and link.
 */
export async function guardTxId(
  client: pg.PoolClient,
  input: Record<string, unknown>,
  network: string,
  txId: string,
  exclude: { orderId?: string; withdrawalId?: string },
): Promise<void> {
  if (allowsDuplicate(input)) return;
  // Two operators recording the same id at once would each miss the other's: the second waits
  // for the first's transaction and then sees its row.
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
    `tx-id:${network}:${normalizeTxId(txId)}`,
  ]);
  const duplicates = await findTxDuplicates(client, network, txId, exclude);
  if (duplicates.length === 0) return;
  const named = duplicates
    .map((each) => (each.kind === 'order' ? `order ${each.number}` : `withdrawal ${each.id}`))
    .join(', ');
  throw new ActionFailure(
    'duplicate-tx-id',
    `The transaction id is already recorded on ${named}; send allowDuplicateTxId: true to record it anyway.`,
    409,
    { field: 'txId', network, duplicates },
  );
}

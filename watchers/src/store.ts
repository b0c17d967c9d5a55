import type pg from 'pg';

import { Dec } from '@app/shared/quote';

import type { PaymentEvent } from './confirmations.ts';
import type { ChainTransfer, WatchedAssets } from './family.ts';

/*
 * What a watcher reads and writes in the product's database (decision 052). It writes only what
 * it saw: public.chain_payments and its network's public.chain_watch_state. Orders move in the
 * actions service, when a payment's state becomes `confirmed` (the chain_payment_confirmed
 * event trigger). Amounts stay decimal strings from the chain to the numeric column.
 */

export type Db = Pick<pg.Pool, 'query' | 'connect'>;

/** A network as staff configured it. */
export interface NetworkConfig {
  network: string;
  family: 'evm' | 'tron' | 'esplora';
  /** The confirmations each watched currency needs. */
  required: ReadonlyMap<string, number>;
  assets: WatchedAssets;
}

/** The network's row and its watched currencies; undefined when the network is not known. */
export async function loadNetwork(
  db: Db,
  network: string,
  compareAs: (contract: string) => string,
): Promise<NetworkConfig | undefined> {
  const { rows: networks } = await db.query<{
    family: NetworkConfig['family'];
    native: string | null;
  }>('SELECT family, native_currency AS native FROM public.chain_networks WHERE network = $1', [
    network,
  ]);
  const row = networks[0];
  if (!row) return undefined;
  const { rows } = await db.query<{
    code: string;
    required: number;
    contract: string | null;
    decimals: number | null;
  }>(
    `SELECT code, confirmations_required AS required, token_contract AS contract,
            token_decimals AS decimals
       FROM public.currencies
      WHERE network = $1 AND kind = 'crypto' AND confirmations_required IS NOT NULL`,
    [network],
  );
  const required = new Map<string, number>();
  const tokens = new Map<string, { currency: string; decimals: number }>();
  let native: WatchedAssets['native'];
  for (const currency of rows) {
    if (currency.code === row.native) {
      native = { currency: currency.code, decimals: NATIVE_DECIMALS[row.family] };
    } else if (currency.contract !== null && currency.decimals !== null) {
      tokens.set(compareAs(currency.contract), {
        currency: currency.code,
        decimals: currency.decimals,
      });
    } else continue;
    required.set(currency.code, currency.required);
  }
  return { network, family: row.family, required, assets: { native, tokens } };
}

/** A chain's own coin's decimals: wei, sun, satoshi. */
const NATIVE_DECIMALS: Record<NetworkConfig['family'], number> = { evm: 18, tron: 6, esplora: 8 };

/** An order a payment to its deposit address may be for. */
export interface CandidateOrder {
  id: string;
  address: string;
  status: string;
  currency: string;
  sendAmount: string;
}

/** Orders that pay or paid on this network: those waiting, and those finished lately. */
const FINISHED_WATCH_DAYS = 30;

export async function loadCandidateOrders(db: Db, network: string): Promise<CandidateOrder[]> {
  const { rows } = await db.query<CandidateOrder>(
    `SELECT t.id, t.deposit_address AS address, t.status, t.send_currency AS currency,
            t.send_amount::text AS "sendAmount"
       FROM public.transactions t JOIN public.currencies c ON c.code = t.send_currency
      WHERE c.network = $1 AND t.deposit_address IS NOT NULL
        AND (t.status IN ('waiting_for_payment', 'expired')
             OR t.updated_at > now() - make_interval(days => $2))
      ORDER BY t.created_at DESC`,
    [network, FINISHED_WATCH_DAYS],
  );
  return rows;
}

const PAYABLE = new Set(['waiting_for_payment', 'expired']);

/**
 * The order a transfer pays. An operator may give one address to several orders: then the one
 * waiting in that currency for exactly that amount, else the only one waiting in that currency,
 * else the only one waiting; failing that the newest order of the address (the payment is then
 * flagged as paying an order that does not wait), or none when several wait and none fits.
 */
export function orderFor(
  transfer: ChainTransfer,
  candidates: readonly CandidateOrder[],
): CandidateOrder | undefined {
  if (candidates.length === 0) return undefined;
  const waiting = candidates.filter((order) => PAYABLE.has(order.status));
  const sameCurrency = waiting.filter((order) => order.currency === transfer.currency);
  const exact = sameCurrency.filter((order) => new Dec(order.sendAmount).eq(transfer.amount));
  for (const choice of [exact, sameCurrency, waiting]) if (choice.length === 1) return choice[0];
  return waiting.length > 1 ? undefined : candidates[0];
}

/** Writes a sync's events in one transaction, with the network's progress. */
export async function recordSync(
  db: Db,
  network: string,
  events: readonly PaymentEvent<ChainTransfer>[],
  progress: { height: number; hash: string | undefined; head: number },
  context: { required: ReadonlyMap<string, number>; orderOf: (t: ChainTransfer) => string | null },
): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    for (const event of events) await recordEvent(client, network, event, context);
    await client.query(
      `INSERT INTO public.chain_watch_state (network, last_block_number, last_block_hash, head_number, checked_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (network) DO UPDATE
         SET last_block_number = EXCLUDED.last_block_number,
             last_block_hash = EXCLUDED.last_block_hash,
             head_number = EXCLUDED.head_number, checked_at = EXCLUDED.checked_at`,
      [network, progress.height, progress.hash ?? null, progress.head],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function recordEvent(
  client: pg.PoolClient,
  network: string,
  event: PaymentEvent<ChainTransfer>,
  context: { required: ReadonlyMap<string, number>; orderOf: (t: ChainTransfer) => string | null },
): Promise<void> {
  const { transfer } = event;
  const key = [network, transfer.txHash, transfer.outputIndex, transfer.currency];
  const where = 'network = $1 AND tx_hash = $2 AND output_index = $3 AND currency_code = $4';
  switch (event.kind) {
    case 'seen':
      // Seen again after a restart, or at a new block after a re-org; a confirmed one stays.
      await client.query(
        `INSERT INTO public.chain_payments AS p
           (network, tx_hash, output_index, currency_code, to_address, amount, block_number,
            block_hash, confirmations, confirmations_required, transaction_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (network, tx_hash, output_index, currency_code) DO UPDATE
           SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash,
               confirmations = EXCLUDED.confirmations, state = 'seen'
         WHERE p.state <> 'confirmed'`,
        [
          ...key,
          transfer.to,
          transfer.amount,
          event.height,
          event.blockHash,
          event.confirmations,
          context.required.get(transfer.currency) ?? 1,
          context.orderOf(transfer),
        ],
      );
      return;
    case 'confirmations':
      await client.query(
        `UPDATE public.chain_payments SET confirmations = $5 WHERE ${where} AND state = 'seen'`,
        [...key, event.confirmations],
      );
      return;
    case 'confirmed':
      // The order moves from here: the event trigger on state calls the actions service.
      await client.query(
        `UPDATE public.chain_payments
            SET state = 'confirmed', confirmations = GREATEST($5, confirmations_required),
                block_number = $6, block_hash = $7, confirmed_at = now()
          WHERE ${where} AND state <> 'confirmed'`,
        [...key, event.confirmations, event.height, event.blockHash],
      );
      return;
    case 'dropped':
      await client.query(
        `UPDATE public.chain_payments
            SET state = 'dropped', block_number = NULL, block_hash = NULL, confirmations = 0
          WHERE ${where} AND state <> 'confirmed'`,
        key,
      );
      return;
  }
}

/** The network's progress as last recorded (where a restarted watcher goes on from). */
export async function lastProgress(
  db: Db,
  network: string,
): Promise<{ height: number } | undefined> {
  const { rows } = await db.query<{ height: string | null }>(
    'SELECT last_block_number::text AS height FROM public.chain_watch_state WHERE network = $1',
    [network],
  );
  const height = rows[0]?.height;
  return height == null ? undefined : { height: Number(height) };
}

/** Records a failed sync on the network's health row (the console shows it). */
export async function recordError(db: Db, network: string, message: string): Promise<void> {
  await db.query(
    `INSERT INTO public.chain_watch_state (network, last_error, last_error_at)
     VALUES ($1, $2, now())
     ON CONFLICT (network) DO UPDATE SET last_error = EXCLUDED.last_error, last_error_at = now()`,
    [network, message.slice(0, 2000)],
  );
}

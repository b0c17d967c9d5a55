import type { ChainSource, Transfer } from './confirmations.ts';

/*
 * What every network family shares (decision 052): the transfers it reports, the assets and
 * addresses it is told to watch, and the source the confirmation tracker reads.
 */

/** One transfer to a watched address, as the chain has it. */
export interface ChainTransfer extends Transfer {
  /** `<tx hash>:<output index>:<currency>`: unique on its network. */
  id: string;
  txHash: string;
  /** A token Transfer log's index, a Bitcoin output's index; 0 for a transaction's own value. */
  outputIndex: number;
  /** The product's currency code (ETH, USDTERC20, ...). */
  currency: string;
  /** The address paid, as the chain spells it. */
  to: string;
  /** A decimal string from the integer base units: never through a float. */
  amount: string;
}

export const transferId = (txHash: string, outputIndex: number, currency: string) =>
  `${txHash}:${outputIndex}:${currency}`;

/** The currencies a network's watcher follows: its own coin and its tokens. */
export interface WatchedAssets {
  /** The chain's own coin, when it is a watched currency. */
  native: { currency: string; decimals: number } | undefined;
  /** Tokens by contract (as the family compares them: lower case for EVM). */
  tokens: ReadonlyMap<string, { currency: string; decimals: number }>;
}

/** What a family is told before each sync: the addresses and assets to watch. */
export interface WatchList {
  /** Deposit addresses, as the family compares them (lower case for EVM). */
  addresses: ReadonlySet<string>;
  assets: WatchedAssets;
}

/** A family's source, reading through the current watch list. */
export type FamilySource = ChainSource<ChainTransfer> & {
  /** How many requests it has made to the chain's API (the benchmark's measure). */
  readonly requests: number;
};

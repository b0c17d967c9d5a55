import {
  createPublicClient,
  formatUnits,
  http,
  parseAbiItem,
  type Hash,
  type PublicClient,
} from 'viem';

import type { ChainBlock } from '../confirmations.ts';
import { transferId, type ChainTransfer, type FamilySource, type WatchList } from '../family.ts';

/*
 * The EVM family (Ethereum, BNB Smart Chain, ...) over JSON-RPC, with viem. Per block, two
 * requests whatever the number of watched addresses: the block with its transactions (the
 * chain's own coin: a transaction's value to a watched address) and the token contracts'
 * Transfer logs of that block by its hash (EIP-234, so both answers are of one block even if
 * the height was re-organised in between), matched on the indexed `to`. The cost is per block, not per
 * address; addresses are matched in memory against a Set.
 *
 * A plain value transfer to an address that has no code cannot fail (it costs a fixed 21,000
 * gas), and deposit addresses are plain accounts, so a transaction's value to one is paid when
 * the transaction is in a block. Token transfers count from their logs, which only successful
 * transactions leave.
 */

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

export class EvmSource implements FamilySource {
  private readonly client: PublicClient;
  private count = 0;

  constructor(
    url: string,
    private readonly watchList: () => WatchList,
    options: { timeoutMs?: number } = {},
  ) {
    this.client = createPublicClient({
      // Every answer fresh: viem caches the block number for 4 s by default.
      cacheTime: 0,
      transport: http(url, {
        timeout: options.timeoutMs ?? 10_000,
        retryCount: 0,
        onFetchRequest: () => {
          this.count += 1;
        },
      }),
    });
  }

  get requests(): number {
    return this.count;
  }

  async head(): Promise<number> {
    return Number(await this.client.getBlockNumber({ cacheTime: 0 }));
  }

  async blockHash(height: number): Promise<string> {
    const block = await this.client.getBlock({ blockNumber: BigInt(height) });
    return block.hash;
  }

  async block(height: number): Promise<ChainBlock<ChainTransfer>> {
    const { addresses, assets } = this.watchList();
    const contracts = [...assets.tokens.keys()] as Hash[];
    const block = await this.client.getBlock({
      blockNumber: BigInt(height),
      includeTransactions: true,
    });
    // The logs of that very block (EIP-234), not of whatever is at the height by now.
    const logs =
      contracts.length === 0
        ? []
        : await this.client.getLogs({ address: contracts, event: TRANSFER, blockHash: block.hash });
    const transfers: ChainTransfer[] = [];
    if (assets.native) {
      const { currency, decimals } = assets.native;
      for (const tx of block.transactions) {
        if (!tx.to || tx.value === 0n || !addresses.has(tx.to.toLowerCase())) continue;
        transfers.push({
          id: transferId(tx.hash, 0, currency),
          txHash: tx.hash,
          outputIndex: 0,
          currency,
          to: tx.to,
          amount: formatUnits(tx.value, decimals),
        });
      }
    }
    for (const log of logs) {
      const token = assets.tokens.get(log.address.toLowerCase());
      const { to, value } = log.args;
      if (!token || !to || value === undefined || value === 0n) continue;
      if (!addresses.has(to.toLowerCase())) continue;
      transfers.push({
        id: transferId(log.transactionHash, log.logIndex, token.currency),
        txHash: log.transactionHash,
        outputIndex: log.logIndex,
        currency: token.currency,
        to,
        amount: formatUnits(value, token.decimals),
      });
    }
    return { height, hash: block.hash, parentHash: block.parentHash, transfers };
  }
}

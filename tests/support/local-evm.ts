import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { createHardhatRuntimeEnvironment } from 'hardhat/hre';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/*
 * A real local EVM chain for the watcher suites (issue 25, decision 052): Hardhat's node
 * (Nomic Foundation's EDR) served over HTTP JSON-RPC on a free loopback port, with blocks
 * mined only when a test says so, ETH sent from its funded accounts, an ERC-20 deployed from
 * OpenZeppelin's compiled preset, and re-organisations made with snapshot and revert.
 */

export interface LocalEvm {
  url: string;
  /** Sends `wei` from the funded account; the transaction waits in the pool until mined. */
  sendEth(to: Address, wei: bigint): Promise<Hash>;
  /** Deploys an ERC-20 with `decimals` 18 (OpenZeppelin's preset), minted to the funded account. */
  deployToken(name: string, symbol: string): Promise<Address>;
  /** Sends `units` of `token` (base units) to `to`; waits in the pool until mined. */
  sendToken(token: Address, to: Address, units: bigint): Promise<Hash>;
  /** Mines `count` blocks (the first takes what waits in the pool). */
  mine(count?: number): Promise<void>;
  head(): Promise<bigint>;
  /** The block of a transaction in the chain as it is now; undefined when it is not in it. */
  receiptBlock(hash: Hash): Promise<bigint | undefined>;
  /** Marks the chain as it is; `reorg` goes back to it. */
  snapshot(): Promise<Hex>;
  /**
   * Replaces every block since `snapshot` by `blocks` others (different: a later timestamp),
   * dropping the transactions they held; what was waiting in the pool is gone too.
   */
  reorg(snapshot: Hex, blocks: number): Promise<void>;
  /** Stops the node when this started it. */
  close(): Promise<void>;
}

/** A fresh address nobody holds a key of (a deposit address, as far as the chain can tell). */
export const randomAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** Starts Hardhat's node on 127.0.0.1 (`port` 0: a free one) and connects to it. */
export async function startLocalEvm(port = 0): Promise<LocalEvm> {
  const server = await serveLocalEvm(port);
  const evm = await connectLocalEvm(server.url);
  return { ...evm, close: () => server.close() };
}

/** Hardhat's node over HTTP JSON-RPC, with automatic mining off (blocks come when asked). */
export async function serveLocalEvm(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const hre = await createHardhatRuntimeEnvironment({});
  const server = await hre.network.createServer({ network: 'default' }, '127.0.0.1', port);
  const address = await server.listen();
  const url = `http://127.0.0.1:${address.port}`;
  await createPublicClient({ transport: http(url) }).request<{
    Method: string;
    Parameters: unknown[];
    ReturnType: unknown;
  }>({ method: 'evm_setAutomine', params: [false] });
  return { url, close: () => server.close() };
}

/** Drives a local node started elsewhere (serveLocalEvm, e.g. by the e2e stack). */
export async function connectLocalEvm(url: string): Promise<LocalEvm> {
  const client = createPublicClient({ transport: http(url), cacheTime: 0 });
  // The node's own methods (evm_*, hardhat_*), which viem's typed schema does not list.
  const rpc = (method: string, params: unknown[] = []) =>
    client.request<{ Method: string; Parameters: unknown[]; ReturnType: unknown }>({
      method,
      params,
    });
  const [funded] = await client.request<{
    Method: 'eth_accounts';
    Parameters?: undefined;
    ReturnType: Address[];
  }>({ method: 'eth_accounts' });
  const wallet = createWalletClient({ transport: http(url), account: funded! });
  let timestamp = Number((await client.getBlock()).timestamp);

  const mineOne = async () => {
    // A distinct, increasing timestamp: a replacement block never equals the one it replaces.
    timestamp += 13;
    await rpc('evm_mine', [timestamp]);
  };

  return {
    url,
    sendEth: (to, wei) => wallet.sendTransaction({ chain: null, to, value: wei }),
    async deployToken(name, symbol) {
      const artifact = JSON.parse(
        readFileSync(
          createRequire(import.meta.url).resolve(
            '@openzeppelin/contracts/build/contracts/ERC20PresetFixedSupply.json',
          ),
          'utf8',
        ),
      ) as { abi: unknown[]; bytecode: Hex };
      const hash = await wallet.deployContract({
        chain: null,
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args: [name, symbol, 10n ** 30n, funded],
      });
      await mineOne();
      const receipt = await client.getTransactionReceipt({ hash });
      return receipt.contractAddress!;
    },
    sendToken: (token, to, units) =>
      wallet.writeContract({
        chain: null,
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, units],
      }),
    async mine(count = 1) {
      for (let i = 0; i < count; i++) await mineOne();
    },
    head: () => client.getBlockNumber({ cacheTime: 0 }),
    async receiptBlock(hash) {
      const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as {
        blockNumber: Hex;
      } | null;
      return receipt ? BigInt(receipt.blockNumber) : undefined;
    },
    snapshot: () => rpc('evm_snapshot') as Promise<Hex>,
    async reorg(snapshot, blocks) {
      await rpc('evm_revert', [snapshot]);
      // Whatever waited in the pool at the snapshot would be mined again: drop it.
      const pending = (await rpc('eth_getBlockByNumber', ['pending', false])) as {
        transactions: Hash[];
      };
      for (const hash of pending.transactions) await rpc('hardhat_dropTransaction', [hash]);
      for (let i = 0; i < blocks; i++) await mineOne();
    },
    close: async () => {},
  };
}

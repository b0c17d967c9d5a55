import { describe, expect, it } from 'vitest';

import { ASSETS, NETWORKS } from './chains.ts';
import { explorerAddressUrl, explorerTxUrl } from './explorer-links.ts';

const HASH = 'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d';

describe('explorer links', () => {
  it('links a tx id and an address on each well-known network', () => {
    expect(explorerTxUrl('BTC', HASH)).toBe(`https://mempool.space/tx/${HASH}`);
    expect(explorerAddressUrl('BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(
      'https://mempool.space/address/bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    );
    expect(explorerTxUrl('ERC20', `0x${HASH}`)).toBe(`https://etherscan.io/tx/0x${HASH}`);
    expect(explorerAddressUrl('BEP20', '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359')).toBe(
      'https://bscscan.com/address/0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359',
    );
    expect(explorerTxUrl('TRC20', HASH)).toBe(`https://tronscan.org/#/transaction/${HASH}`);
    expect(explorerAddressUrl('trc20', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC')).toBe(
      'https://tronscan.org/#/address/TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
    );
    expect(explorerAddressUrl('TON', 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG')).toBe(
      'https://tonviewer.com/UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG',
    );
    const solanaSignature =
      '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
    expect(explorerTxUrl('SOL', solanaSignature)).toBe(`https://solscan.io/tx/${solanaSignature}`);
    expect(explorerTxUrl('LTC', HASH)).toBe(`https://litecoinspace.org/tx/${HASH}`);
  });

  it('URL-encodes what goes into the template', () => {
    // A TON hash in standard base64 carries '/' and '+', which must not become path parts.
    const tonHash = 'Q1w+Fp8nJ/0vWbLq2bQK3vF1hZ0XQm8yE9mZr1pQm0s=';
    expect(explorerTxUrl('TON', tonHash)).toBe(
      'https://tonviewer.com/transaction/Q1w%2BFp8nJ%2F0vWbLq2bQK3vF1hZ0XQm8yE9mZr1pQm0s%3D',
    );
    expect(explorerAddressUrl('KAS', `kaspa:${'q'.repeat(61)}`)).toBe(
      `https://explorer.kaspa.org/addresses/kaspa%3A${'q'.repeat(61)}`,
    );
  });

  it('gives no link for an id with characters the chain never uses', () => {
    expect(explorerTxUrl('BTC', `${HASH.slice(0, 63)}g`)).toBeUndefined();
    expect(explorerTxUrl('BTC', `${HASH}/../../evil`)).toBeUndefined();
    expect(explorerTxUrl('ERC20', `0x${HASH}?x=1`)).toBeUndefined();
    expect(explorerTxUrl('TRC20', 'javascript:alert(1)')).toBeUndefined();
    expect(explorerAddressUrl('ERC20', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC')).toBeUndefined();
    expect(explorerAddressUrl('TRC20', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDe0')).toBeUndefined();
    expect(explorerTxUrl('SOL', 'not a signature')).toBeUndefined();
    expect(explorerTxUrl('BTC', '')).toBeUndefined();
    expect(explorerTxUrl('BTC', null)).toBeUndefined();
  });

  it('adds the 0x an EVM hash was pasted without', () => {
    expect(explorerTxUrl('ARBITRUM', HASH)).toBe(`https://arbiscan.io/tx/0x${HASH}`);
  });

  it('gives no link for fiat, cash, unknown networks or an address Monero hides', () => {
    expect(explorerTxUrl(null, HASH)).toBeUndefined();
    expect(explorerAddressUrl(undefined, 'DE89370400440532013000')).toBeUndefined();
    expect(explorerTxUrl('NEWCHAIN', HASH)).toBeUndefined();
    expect(explorerTxUrl('constructor', HASH)).toBeUndefined();
    expect(explorerAddressUrl('XMR', `4${'A'.repeat(94)}`)).toBeUndefined();
    expect(explorerTxUrl('XMR', HASH)).toBe(`https://xmrchain.net/tx/${HASH}`);
  });

  it('has an https explorer with one placeholder for every network', () => {
    for (const [name, network] of Object.entries(NETWORKS)) {
      for (const [kind, template] of Object.entries(network.explorer)) {
        expect(template, `${name} ${kind}`).toMatch(/^https:\/\/[a-z0-9.-]+\//);
        expect(template.split(kind === 'tx' ? '{tx}' : '{address}'), name).toHaveLength(2);
      }
    }
  });

  it("keeps each token's contract in its network's address shape", () => {
    for (const [code, asset] of Object.entries(ASSETS)) {
      const network = NETWORKS[asset.network];
      expect(network, code).toBeDefined();
      if (asset.contract !== undefined) expect(asset.contract, code).toMatch(network!.address);
    }
  });
});

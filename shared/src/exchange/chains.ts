/*
 * What the product knows about each network and the tokens on it, beyond the catalog's row
 * (docs/decisions/042-explorer-links-and-payment-uris.md): the block explorer's address and
 * transaction pages, what an address and a transaction id on the chain look like, which payment
 * URI scheme its wallets read, and for the catalog's currencies the token contract and the
 * decimals an amount is counted in on chain. Networks are the catalog's `network` codes
 * (hasura/seeds, currencies.network); a network not listed here gets no link and a QR code of
 * the bare address, so a network staff add later degrades to what the pages did before.
 */

/** How a wallet is told the amount (and the memo) in a QR code on this network. */
export type PaymentScheme =
  /** BIP-21: `<scheme>:<address>?amount=<coins, decimal>`. */
  | { kind: 'bip21'; scheme: 'bitcoin' | 'litecoin' | 'dogecoin' }
  /** EIP-681 on an EVM chain: the coin in wei (`value=`), a token as a `transfer` call. */
  | { kind: 'eip681'; chainId: number }
  /** Tonkeeper's `ton://transfer/<address>?amount=<nano>&text=<memo>` (jettons: `jetton=`). */
  | { kind: 'ton' }
  /** Solana Pay: `solana:<address>?amount=<decimal>&spl-token=<mint>&memo=<memo>`. */
  | { kind: 'solana' }
  /** `tron:<address>?amount=<TRX, decimal>`, for TRX only (decision 042: no TRC20 parameter). */
  | { kind: 'tron' };

export interface Network {
  /** Explorer page templates; `{address}` and `{tx}` take the URL-encoded value. */
  explorer: { address?: string; tx?: string };
  /** What an address on the chain may look like (no link, no payment URI otherwise). */
  address: RegExp;
  /** What a transaction id on the chain may look like (no link otherwise). */
  tx: RegExp;
  payment?: PaymentScheme;
}

/** A currency's place on its chain: the chain's own coin, or a token contract (mint, jetton). */
export interface Asset {
  /** The catalog network code the currency is on. */
  network: string;
  decimals: number;
  /** The token's contract (ERC-20, TRC-20), mint (SPL) or jetton master; none for the coin. */
  contract?: string;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;
const HEX64_0X = /^0x[0-9a-fA-F]{64}$/;
const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Addresses of chains without a closer rule: letters, digits and the separators some use. */
const PLAIN_ADDRESS = /^[A-Za-z0-9][A-Za-z0-9:._-]{1,127}$/;

const evm = (host: string, chainId: number | undefined): Network => ({
  explorer: { address: `https://${host}/address/{address}`, tx: `https://${host}/tx/{tx}` },
  address: EVM_ADDRESS,
  tx: HEX64_0X,
  ...(chainId === undefined ? {} : { payment: { kind: 'eip681', chainId } }),
});

const blockchair = (chain: string, address: RegExp): Network => ({
  explorer: {
    address: `https://blockchair.com/${chain}/address/{address}`,
    tx: `https://blockchair.com/${chain}/transaction/{tx}`,
  },
  address,
  tx: HEX64,
});

const BASE58_ADDRESS = new RegExp(`^${BASE58}{25,40}$`);

export const NETWORKS: Readonly<Record<string, Network>> = {
  BTC: {
    explorer: {
      address: 'https://mempool.space/address/{address}',
      tx: 'https://mempool.space/tx/{tx}',
    },
    address: new RegExp(
      `^(?:[13]${BASE58}{25,34}|bc1[02-9ac-hj-np-z]{11,87}|BC1[02-9AC-HJ-NP-Z]{11,87})$`,
    ),
    tx: HEX64,
    payment: { kind: 'bip21', scheme: 'bitcoin' },
  },
  LTC: {
    explorer: {
      address: 'https://litecoinspace.org/address/{address}',
      tx: 'https://litecoinspace.org/tx/{tx}',
    },
    address: new RegExp(`^(?:[LM3]${BASE58}{26,33}|ltc1[02-9ac-hj-np-z]{11,87})$`),
    tx: HEX64,
    payment: { kind: 'bip21', scheme: 'litecoin' },
  },
  DOGE: {
    ...blockchair('dogecoin', new RegExp(`^[DA9]${BASE58}{25,34}$`)),
    payment: { kind: 'bip21', scheme: 'dogecoin' },
  },
  BCH: blockchair(
    'bitcoin-cash',
    /^(?:bitcoincash:)?[qp][02-9ac-hj-np-z]{41}$|^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/,
  ),
  DASH: blockchair('dash', BASE58_ADDRESS),
  ZEC: blockchair('zcash', /^(?:t[13]|zs1|u1)[A-Za-z0-9]{20,250}$/),
  // Monero hides addresses on chain: only a transaction can be looked up.
  XMR: { explorer: { tx: 'https://xmrchain.net/tx/{tx}' }, address: PLAIN_ADDRESS, tx: HEX64 },
  ERC20: evm('etherscan.io', 1),
  BEP20: evm('bscscan.com', 56),
  POLYGON: evm('polygonscan.com', 137),
  ARBITRUM: evm('arbiscan.io', 42161),
  OPTIMISM: evm('optimistic.etherscan.io', 10),
  AVAXC: evm('snowtrace.io', 43114),
  ETC: evm('etc.blockscout.com', 61),
  TRC20: {
    // Tronscan routes in the fragment; the id still goes through the same encoding.
    explorer: {
      address: 'https://tronscan.org/#/address/{address}',
      tx: 'https://tronscan.org/#/transaction/{tx}',
    },
    address: new RegExp(`^T${BASE58}{33}$`),
    tx: HEX64,
    payment: { kind: 'tron' },
  },
  TON: {
    explorer: {
      address: 'https://tonviewer.com/{address}',
      tx: 'https://tonviewer.com/transaction/{tx}',
    },
    // The user-friendly form (base64url, 48 characters) or the raw `0:<hex>` one.
    address: /^(?:[A-Za-z0-9_-]{48}|-?\d:[0-9a-fA-F]{64})$/,
    // A transaction hash in hex, or in base64 / base64url as wallets show it.
    tx: /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/,
    payment: { kind: 'ton' },
  },
  SOL: {
    explorer: {
      address: 'https://solscan.io/account/{address}',
      tx: 'https://solscan.io/tx/{tx}',
    },
    address: new RegExp(`^${BASE58}{32,44}$`),
    tx: new RegExp(`^${BASE58}{64,88}$`),
    payment: { kind: 'solana' },
  },
  XRP: {
    explorer: {
      address: 'https://xrpscan.com/account/{address}',
      tx: 'https://xrpscan.com/tx/{tx}',
    },
    address: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
    tx: HEX64,
  },
  XLM: {
    explorer: {
      address: 'https://stellar.expert/explorer/public/account/{address}',
      tx: 'https://stellar.expert/explorer/public/tx/{tx}',
    },
    address: /^[GM][A-Z2-7]{55}(?:[A-Z2-7]{13})?$/,
    tx: HEX64,
  },
  ADA: {
    explorer: {
      address: 'https://cardanoscan.io/address/{address}',
      tx: 'https://cardanoscan.io/transaction/{tx}',
    },
    address: /^(?:addr1[02-9ac-hj-np-z]{50,120}|[1-9A-HJ-NP-Za-km-z]{50,120})$/,
    tx: HEX64,
  },
  DOT: {
    explorer: {
      address: 'https://polkadot.subscan.io/account/{address}',
      tx: 'https://polkadot.subscan.io/extrinsic/{tx}',
    },
    address: new RegExp(`^1${BASE58}{45,47}$`),
    tx: HEX64_0X,
  },
  ATOM: {
    explorer: {
      address: 'https://www.mintscan.io/cosmos/address/{address}',
      tx: 'https://www.mintscan.io/cosmos/tx/{tx}',
    },
    address: /^cosmos1[02-9ac-hj-np-z]{38,58}$/,
    tx: HEX64,
  },
  NEAR: {
    explorer: {
      address: 'https://nearblocks.io/address/{address}',
      tx: 'https://nearblocks.io/txns/{tx}',
    },
    // A named account (alice.near) or an implicit one (64 hex).
    address: /^(?:[0-9a-f]{64}|(?:[a-z0-9]+[-_])*[a-z0-9]+(?:\.(?:[a-z0-9]+[-_])*[a-z0-9]+)*)$/,
    tx: new RegExp(`^${BASE58}{43,44}$`),
  },
  ALGO: {
    explorer: {
      address: 'https://allo.info/account/{address}',
      tx: 'https://allo.info/tx/{tx}',
    },
    address: /^[A-Z2-7]{58}$/,
    tx: /^[A-Z2-7]{52}$/,
  },
  XTZ: {
    explorer: { address: 'https://tzkt.io/{address}', tx: 'https://tzkt.io/{tx}' },
    address: new RegExp(`^(?:tz[1-4]|KT1)${BASE58}{33}$`),
    tx: new RegExp(`^o${BASE58}{50}$`),
  },
  EOS: {
    explorer: {
      address: 'https://bloks.io/account/{address}',
      tx: 'https://bloks.io/transaction/{tx}',
    },
    address: /^[a-z1-5.]{1,12}$/,
    tx: HEX64,
  },
  KAS: {
    explorer: {
      address: 'https://explorer.kaspa.org/addresses/{address}',
      tx: 'https://explorer.kaspa.org/txs/{tx}',
    },
    address: /^kaspa:[02-9ac-hj-np-z]{61,63}$/,
    tx: HEX64,
  },
  APT: {
    explorer: {
      address: 'https://explorer.aptoslabs.com/account/{address}?network=mainnet',
      tx: 'https://explorer.aptoslabs.com/txn/{tx}?network=mainnet',
    },
    address: /^0x[0-9a-fA-F]{1,64}$/,
    tx: HEX64_0X,
  },
  SUI: {
    explorer: {
      address: 'https://suiscan.xyz/mainnet/account/{address}',
      tx: 'https://suiscan.xyz/mainnet/tx/{tx}',
    },
    address: HEX64_0X,
    tx: new RegExp(`^${BASE58}{43,44}$`),
  },
  HBAR: {
    explorer: {
      address: 'https://hashscan.io/mainnet/account/{address}',
      tx: 'https://hashscan.io/mainnet/transaction/{tx}',
    },
    address: /^0\.0\.\d{1,12}$/,
    // Hedera's transaction id: payer account @ seconds.nanoseconds (or its dashed URL form).
    tx: /^0\.0\.\d{1,12}[@-]\d{1,12}[.-]\d{1,9}$/,
  },
};

/*
 * The catalog's currencies on their chains (hasura/seeds/default/1763740900100_currencies.sql).
 * Decimals are the chain's, not the catalog's display precision: USDT has 6 on Ethereum and 18
 * on BNB Smart Chain. Contracts are the issuers' published ones; a currency not listed here
 * (one staff add later) gets a QR code of the bare address, never a guessed token.
 */
export const ASSETS: Readonly<Record<string, Asset>> = {
  BTC: { network: 'BTC', decimals: 8 },
  LTC: { network: 'LTC', decimals: 8 },
  DOGE: { network: 'DOGE', decimals: 8 },
  ETH: { network: 'ERC20', decimals: 18 },
  ETHARBITRUM: { network: 'ARBITRUM', decimals: 18 },
  BNB: { network: 'BEP20', decimals: 18 },
  POL: { network: 'POLYGON', decimals: 18 },
  AVAX: { network: 'AVAXC', decimals: 18 },
  ETC: { network: 'ETC', decimals: 18 },
  TRX: { network: 'TRC20', decimals: 6 },
  TON: { network: 'TON', decimals: 9 },
  SOL: { network: 'SOL', decimals: 9 },
  USDTERC20: {
    network: 'ERC20',
    decimals: 6,
    contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  },
  USDCERC20: {
    network: 'ERC20',
    decimals: 6,
    contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  },
  DAI: { network: 'ERC20', decimals: 18, contract: '0x6B175474E89094C44Da98b954EedeAC495271d0F' },
  LINK: { network: 'ERC20', decimals: 18, contract: '0x514910771AF9Ca656af840dff83E8264EcF986CA' },
  UNI: { network: 'ERC20', decimals: 18, contract: '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984' },
  SHIB: { network: 'ERC20', decimals: 18, contract: '0x95aD61b0a150d79219dCF64E1E6Cc01f0B64C4cE' },
  TUSD: { network: 'ERC20', decimals: 18, contract: '0x0000000000085d4780B73119b644AE5ecd22b376' },
  USDTBEP20: {
    network: 'BEP20',
    decimals: 18,
    contract: '0x55d398326f99059fF775485246999027B3197955',
  },
  USDCBEP20: {
    network: 'BEP20',
    decimals: 18,
    contract: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
  },
  USDTARBITRUM: {
    network: 'ARBITRUM',
    decimals: 6,
    contract: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
  },
  ARB: {
    network: 'ARBITRUM',
    decimals: 18,
    contract: '0x912CE59144191C1204E64559FE8253a0e49E6548',
  },
  OP: { network: 'OPTIMISM', decimals: 18, contract: '0x4200000000000000000000000000000000000042' },
  USDCPOLYGON: {
    network: 'POLYGON',
    decimals: 6,
    contract: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  },
  USDTTRC20: { network: 'TRC20', decimals: 6, contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  USDCTRC20: { network: 'TRC20', decimals: 6, contract: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8' },
  USDTSOL: {
    network: 'SOL',
    decimals: 6,
    contract: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
  },
  USDCSOL: {
    network: 'SOL',
    decimals: 6,
    contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  },
  USDTTON: {
    network: 'TON',
    decimals: 6,
    contract: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
  },
};

/** The network's entry, for a catalog `network` code (any case), or undefined. */
export function networkOf(network: string | null | undefined): Network | undefined {
  if (!network) return undefined;
  const key = network.toUpperCase();
  return Object.hasOwn(NETWORKS, key) ? NETWORKS[key] : undefined;
}

/** The currency's place on its chain, for a catalog `code`, or undefined. */
export function assetOf(code: string | null | undefined): Asset | undefined {
  if (!code) return undefined;
  const key = code.toUpperCase();
  return Object.hasOwn(ASSETS, key) ? ASSETS[key] : undefined;
}

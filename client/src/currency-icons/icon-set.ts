/*
 * Which icons of the set (@web3icons/core, decision 038) the apps ship. The build copies exactly
 * these SVGs into its assets (client/vite/currency-icons.ts), so a symbol here always has a file;
 * a symbol not here gets the neutral fallback. A new currency with a logo in the set: add its
 * ticker below (icon-set.test.ts checks that the set has the file).
 */

/** Tickers whose logo is the set's token icon of the same name (tokens/branded/<TICKER>.svg). */
export const TOKEN_ICONS: readonly string[] = [
  'ADA',
  'ALGO',
  'APT',
  'ARB',
  'ATOM',
  'AVAX',
  'BCH',
  'BNB',
  'BTC',
  'DAI',
  'DASH',
  'DOGE',
  'DOT',
  'EOS',
  'ETC',
  'ETH',
  'HBAR',
  'KAS',
  'LINK',
  'LTC',
  'NEAR',
  'OP',
  'POL',
  'SHIB',
  'SOL',
  'SUI',
  'TRX',
  'TUSD',
  'UNI',
  'USDC',
  'USDT',
  'XLM',
  'XMR',
  'XRP',
  'XTZ',
  'ZEC',
];

/**
 * Networks that carry other currencies' tokens: the set's network icon (the badge on a token,
 * networks/branded/<icon>.svg) and the network's own coin, which needs no badge.
 */
export const NETWORKS: Readonly<Record<string, { icon: string; coin: string }>> = {
  ERC20: { icon: 'ethereum', coin: 'ETH' },
  TRC20: { icon: 'tron', coin: 'TRX' },
  BEP20: { icon: 'binance-smart-chain', coin: 'BNB' },
  SOL: { icon: 'solana', coin: 'SOL' },
  TON: { icon: 'ton', coin: 'TON' },
  ARBITRUM: { icon: 'arbitrum-one', coin: 'ARB' },
  POLYGON: { icon: 'polygon', coin: 'POL' },
  AVAXC: { icon: 'avalanche', coin: 'AVAX' },
  OPTIMISM: { icon: 'optimism', coin: 'OP' },
};

/** Coins the set draws only as a network (Toncoin has no token icon): ticker -> network icon. */
export const COIN_AS_NETWORK: Readonly<Record<string, string>> = { TON: 'ton' };

/** Fiat and cash currencies: a neutral sign instead of a flag or a logo. */
export const FIAT_SIGNS: Readonly<Record<string, string>> = {
  USD: '$',
  EUR: '€',
  UAH: '₴',
  GBP: '£',
  PLN: 'zł',
  CZK: 'Kč',
  CHF: 'Fr',
  JPY: '¥',
  CNY: '¥',
  KZT: '₸',
  TRY: '₺',
  GEL: '₾',
  RUB: '₽',
};

/** Every file the build copies, as paths under the icons folder (tokens/BTC.svg, ...). */
export function iconFiles(): string[] {
  const networks = new Set([
    ...Object.values(NETWORKS).map((network) => network.icon),
    ...Object.values(COIN_AS_NETWORK),
  ]);
  return [
    ...TOKEN_ICONS.map((ticker) => `tokens/${ticker}.svg`),
    ...[...networks].map((name) => `networks/${name}.svg`),
  ];
}

import type { CurrencyQuoteRef } from './types.ts';

/** A cross-section of the seeded currencies (hasura/seeds 1763740900100). */
export const REFS: CurrencyQuoteRef[] = [
  { code: 'BTC', symbol: 'BTC', kind: 'crypto', network: 'BTC' },
  { code: 'USDTTRC20', symbol: 'USDT', kind: 'crypto', network: 'TRC20' },
  { code: 'USDTERC20', symbol: 'USDT', kind: 'crypto', network: 'ERC20' },
  { code: 'ETH', symbol: 'ETH', kind: 'crypto', network: 'ERC20' },
  { code: 'ETHARBITRUM', symbol: 'ETH', kind: 'crypto', network: 'ARBITRUM' },
  { code: 'XMR', symbol: 'XMR', kind: 'crypto', network: 'XMR' },
  { code: 'DOGE', symbol: 'DOGE', kind: 'crypto', network: 'DOGE' },
  { code: 'USDCERC20', symbol: 'USDC', kind: 'crypto', network: 'ERC20' },
  { code: 'SHIB', symbol: 'SHIB', kind: 'crypto', network: 'ERC20' },
  { code: 'KAS', symbol: 'KAS', kind: 'crypto', network: 'KAS' },
  { code: 'EUR', symbol: 'EUR', kind: 'fiat', network: null },
  { code: 'UAH', symbol: 'UAH', kind: 'fiat', network: null },
  { code: 'USD', symbol: 'USD', kind: 'fiat', network: null },
  { code: 'CHF', symbol: 'CHF', kind: 'fiat', network: null },
  { code: 'CASHEUR', symbol: 'EUR', kind: 'cash', network: null },
  { code: 'CASHPLN', symbol: 'PLN', kind: 'cash', network: null },
];

/**
 * Rates: market price providers behind one interface and the refresh that stores their prices.
 * Imported as `@app/actions/rates`.
 */
export { BINANCE_BASE_URL, createBinanceProvider } from './binance.ts';
export { DEFAULT_TIMEOUT_MS, type HttpOptions } from './http.ts';
export { createKrakenProvider, KRAKEN_BASE_URL } from './kraken.ts';
export {
  latestRates,
  latestRatesSelect,
  ratesByCode,
  type LatestRateRow,
  type StoredRate,
} from './latest.ts';
export { createOfflineProvider, OFFLINE_PROVIDER } from './offline.ts';
export {
  DEFAULT_MAX_MOVE_FACTOR,
  refreshRates,
  type RefreshedRate,
  type RefreshOptions,
  type RefreshReport,
  type RejectedRate,
} from './refresh.ts';
export {
  RateProviderError,
  type CurrencyQuoteRef,
  type RateProvider,
  type RateProviderErrorCode,
} from './types.ts';

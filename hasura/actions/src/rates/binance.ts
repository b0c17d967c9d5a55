import * as z from 'zod';

import { DEFAULT_TIMEOUT_MS, getJson, type HttpOptions } from './http.ts';
import { canonicalPrice, invertPrice, isUsdt } from './price.ts';
import { RateProviderError, type CurrencyQuoteRef, type RateProvider } from './types.ts';

/** Binance's public spot API. */
export const BINANCE_BASE_URL = 'https://api.binance.com';

// GET /api/v3/ticker/price without `symbol` answers every symbol: [{ symbol, price }], price a
// decimal string. Asking for the whole list (weight 4) instead of `symbols=[...]` keeps one
// delisted symbol from failing the request with -1121 "Invalid symbol".
const TickerPrices = z.array(z.object({ symbol: z.string(), price: z.string() }));

/**
 * The USDT price of one of our currencies from Binance's symbol table:
 * - USDT (any network) is 1;
 * - crypto: the `<SYMBOL>USDT` pair (USDC → `USDCUSDT`, ETH on Arbitrum → `ETHUSDT`);
 * - fiat and cash: `<FIAT>USDT` (e.g. `EURUSDT`), else the inverse of `USDT<FIAT>` (e.g.
 *   `USDTUAH` is UAH per USDT, so 1/price).
 */
function binancePrice(ref: CurrencyQuoteRef, table: Map<string, string>): string | undefined {
  if (isUsdt(ref)) return '1';
  const direct = table.get(`${ref.symbol}USDT`);
  if (direct !== undefined || ref.kind === 'crypto') return direct;
  const inverse = table.get(`USDT${ref.symbol}`);
  return inverse === undefined ? undefined : invertPrice(inverse);
}

/**
 * Market prices from Binance spot (`GET /api/v3/ticker/price`), last traded prices.
 * A symbol with an unparsable price is skipped, not trusted.
 */
export function createBinanceProvider(options: HttpOptions = {}): RateProvider {
  const name = 'binance';
  const baseUrl = options.baseUrl ?? BINANCE_BASE_URL;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    name,
    async fetchPrices(codes) {
      const body = await getJson(name, new URL('/api/v3/ticker/price', baseUrl), timeoutMs);
      const parsed = TickerPrices.safeParse(body);
      if (!parsed.success) {
        throw new RateProviderError(name, 'malformed-response', 'not a list of {symbol, price}');
      }
      const table = new Map<string, string>();
      for (const { symbol, price } of parsed.data) {
        const canonical = canonicalPrice(price);
        if (canonical !== null) table.set(symbol, canonical);
      }
      const prices = new Map<string, string>();
      for (const ref of codes) {
        const price = binancePrice(ref, table);
        if (price !== undefined) prices.set(ref.code, price);
      }
      return prices;
    },
  };
}

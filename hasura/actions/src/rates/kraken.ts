import * as z from 'zod';

import { DEFAULT_TIMEOUT_MS, getJson, type HttpOptions } from './http.ts';
import { canonicalPrice, dividePrices, isUsdt } from './price.ts';
import { RateProviderError, type CurrencyQuoteRef, type RateProvider } from './types.ts';

/** Kraken's public spot API. */
export const KRAKEN_BASE_URL = 'https://api.kraken.com';

// GET /0/public/Ticker without `pair` answers every tradeable pair. Asking for named pairs would
// fail the whole request with "EQuery:Unknown asset pair" as soon as one is delisted.
// Kraken answers HTTP 200 with a non-empty `error` array for API errors; entries starting with
// "E" are errors, "W" warnings.
const TickerResponse = z.object({
  error: z.array(z.string()),
  result: z.record(z.string(), z.looseObject({ c: z.tuple([z.string(), z.string()]) })).optional(),
});

/** Kraken's own name of the `<asset>/USD` pair where it is not simply `<SYMBOL>USD`. */
const LEGACY_USD_PAIRS: Record<string, string> = {
  BTC: 'XXBTZUSD',
  ETH: 'XETHZUSD',
  LTC: 'XLTCZUSD',
  XRP: 'XXRPZUSD',
  XMR: 'XXMRZUSD',
  XLM: 'XXLMZUSD',
  ETC: 'XETCZUSD',
  ZEC: 'XZECZUSD',
  DOGE: 'XDGUSD',
  // Fiat: USD per unit.
  EUR: 'ZEURZUSD',
  GBP: 'ZGBPZUSD',
};

/** USD per USDT: turns every USD price into a USDT price. */
const USDT_USD_PAIR = 'USDTZUSD';

function usdPair(ref: CurrencyQuoteRef): string {
  return LEGACY_USD_PAIRS[ref.symbol] ?? `${ref.symbol}USD`;
}

/**
 * Market prices from Kraken (`GET /0/public/Ticker`), the last trade (`c[0]`) of each asset's
 * USD pair divided by the last trade of USDT/USD, so `price_usdt = price_usd / usdt_usd`
 * (12 significant digits). USDT itself is 1; USD is `1 / usdt_usd`. Without a USDT/USD price
 * nothing but USDT is answered.
 */
export function createKrakenProvider(options: HttpOptions = {}): RateProvider {
  const name = 'kraken';
  const baseUrl = options.baseUrl ?? KRAKEN_BASE_URL;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    name,
    async fetchPrices(codes) {
      const body = await getJson(name, new URL('/0/public/Ticker', baseUrl), timeoutMs);
      const parsed = TickerResponse.safeParse(body);
      if (!parsed.success) {
        throw new RateProviderError(name, 'malformed-response', 'not a Ticker response');
      }
      const errors = parsed.data.error.filter((message) => message.startsWith('E'));
      if (errors.length > 0 || parsed.data.result === undefined) {
        throw new RateProviderError(name, 'provider-error', errors.join('; ') || 'no result');
      }
      const result = parsed.data.result;
      const last = (pair: string) => {
        const ticker = result[pair];
        return ticker === undefined ? null : canonicalPrice(ticker.c[0]);
      };
      const usdtUsd = last(USDT_USD_PAIR);
      const prices = new Map<string, string>();
      for (const ref of codes) {
        if (isUsdt(ref)) {
          prices.set(ref.code, '1');
          continue;
        }
        if (usdtUsd === null) continue;
        const usd = ref.kind !== 'crypto' && ref.symbol === 'USD' ? '1' : last(usdPair(ref));
        if (usd !== null) prices.set(ref.code, dividePrices(usd, usdtUsd));
      }
      return prices;
    },
  };
}

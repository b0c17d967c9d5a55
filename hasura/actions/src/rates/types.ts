/** What a provider needs to know about one of our currencies to find its market price. */
export interface CurrencyQuoteRef {
  /** Our code, e.g. `BTC`, `USDTTRC20`, `CASHEUR`. */
  code: string;
  /** The ticker people and exchanges use, e.g. `USDT` for every USDT network. */
  symbol: string;
  kind: 'crypto' | 'fiat' | 'cash';
  /** Crypto only: the payout network. Prices do not depend on it. */
  network: string | null;
}

/**
 * A source of market prices. `fetchPrices` answers USDT per unit as exact decimal strings,
 * keyed by our currency code; a currency the provider does not list is simply absent.
 * It rejects (with {@link RateProviderError}) only when the source as a whole failed.
 */
export interface RateProvider {
  /** Stored in `public.rates.provider` (`^[a-z0-9_-]{2,32}$`). */
  readonly name: string;
  fetchPrices(codes: readonly CurrencyQuoteRef[]): Promise<Map<string, string>>;
}

/** Why a provider failed as a whole. */
export type RateProviderErrorCode =
  | 'timeout'
  | 'network-error'
  | 'rate-limited'
  | 'http-error'
  | 'malformed-response'
  | 'provider-error';

/** A provider's request failed; `code` says how, `status` is the HTTP status if there was one. */
export class RateProviderError extends Error {
  override readonly name = 'RateProviderError';

  constructor(
    readonly provider: string,
    readonly code: RateProviderErrorCode,
    message: string,
    readonly details: { status?: number; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(`${provider}: ${message}`, { cause: details.cause });
  }

  static is(error: unknown): error is RateProviderError {
    return error instanceof RateProviderError;
  }
}

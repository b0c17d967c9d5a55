/** Kind of a currency, as in `public.currencies.kind`. */
export type CurrencyKind = 'crypto' | 'fiat' | 'cash';

/** The columns of `public.currencies` the quote needs. Amounts are decimal strings. */
export interface CurrencyInfo {
  /** Stable id, e.g. `BTC`, `USDTTRC20`, `EUR`. */
  code: string;
  kind?: CurrencyKind;
  /** Decimal places amounts in this currency are rounded to (0..18). */
  precision: number;
  /** Smallest amount accepted, in this currency's units. */
  min_amount: string;
  /** Largest amount accepted, in this currency's units. */
  max_amount: string;
  /** A disabled currency makes every direction through it unavailable. Default `true`. */
  enabled?: boolean;
}

/** Which amount the user typed: what they send (`send`) or what they want to receive. */
export type QuoteSide = 'send' | 'receive';

/** The margins of a user level (`public.user_levels`), fractions such as `"0.025"`. */
export interface MarginLevel {
  /** Applied when the user buys a currency from the service (the `to` leg). */
  buy_margin: string;
  /** Applied when the user sells a currency to the service (the `from` leg). */
  sell_margin: string;
}

/**
 * A per-user rate (`public.user_custom_carrency`): USDT per unit, replacing the market price and
 * the level margin for that currency.
 */
export interface CustomRate {
  /** Used when the user sells this currency to the service. */
  sell_rate?: string | null;
  /** Used when the user buys this currency from the service. */
  buy_rate?: string | null;
}

/**
 * A daily processing window (spec section 9), times of day `HH:MM` or `HH:MM:SS` local to the
 * offset: orders from `start` until `cutoff` (or `end` without one) are processed at once,
 * later ones at the next `start`.
 */
export interface DailyWindow {
  start: string;
  end: string;
  cutoff?: string | null;
  /** Minutes east of UTC, e.g. `180` for UTC+3. */
  utcOffsetMinutes: number;
}

/** The exchange direction (`public.exchange_directions`); `null` when no such direction exists. */
export interface DirectionInfo {
  enabled: boolean;
  window?: DailyWindow | null;
}

/** Everything a quote is computed from; plain data, amounts and prices as decimal strings. */
export interface QuoteInput {
  from: CurrencyInfo;
  to: CurrencyInfo;
  side: QuoteSide;
  /** The amount the user typed, in `from` units for `send`, in `to` units for `receive`. */
  amount: string;
  /** Market prices in USDT per unit (`public.rates.price_usdt`). */
  prices: { from: string; to: string };
  /** When each price was fetched (`public.rates.fetched_at`), ISO 8601 or a Date. */
  pricesFetchedAt: { from: string | Date; to: string | Date };
  /** The user's level, see {@link pickLevel}. */
  level: MarginLevel;
  /** The user's custom rates for the two currencies, if staff set any. */
  custom?: { from?: CustomRate | null; to?: CustomRate | null } | null;
  direction: DirectionInfo | null;
  /** The clock: injected, never read inside the module. */
  now: string | Date;
  /** A price older than this refuses the quote (`stale-rate`). */
  maxRateAgeSeconds: number;
}

/** Where the price of one leg came from. */
export type PriceSource = 'level' | 'custom' | 'custom-capped';

/** How one currency of the pair was priced. */
export interface LegPricing {
  currency: string;
  /** `sell` for the `from` leg (the user sells it), `buy` for the `to` leg. */
  role: 'sell' | 'buy';
  /** Market price, USDT per unit. */
  marketPrice: string;
  /** Price the service applies, USDT per unit. */
  price: string;
  /** Margin against the market: `1 − price/market` (sell) or `price/market − 1` (buy). */
  margin: string;
  /** `custom-capped`: a custom rate better than the market was capped at the market. */
  source: PriceSource;
}

/** When the order of this quote gets processed. */
export type Processing = { mode: 'now' } | { mode: 'next-window'; at: string };

/** A successful quote; every amount and rate is a decimal string. */
export interface Quote {
  from: string;
  to: string;
  side: QuoteSide;
  /** What the user sends, `from.precision` decimals. */
  send: string;
  /** What the user receives, `to.precision` decimals. */
  receive: string;
  /** Units of `to` per unit of `from` the service applies (18 significant digits, truncated). */
  rate: string;
  /** Units of `to` per unit of `from` at market prices (18 significant digits). */
  marketRate: string;
  legs: { from: LegPricing; to: LegPricing };
  /** What the user gives up against the market: `1 − rate/marketRate` (8 decimals, rounded up). */
  spread: string;
  /** Accepted range of the typed amount, in the typed side's currency. */
  limits: { side: QuoteSide; currency: string; min: string; max: string };
  processing: Processing;
  /** The older of the two prices' fetch times, ISO 8601. */
  ratesFetchedAt: string;
}

/** Why a quote was refused; `code` is a stable kebab-case error code. */
export type QuoteError =
  | { code: 'unknown-direction' }
  | { code: 'direction-disabled'; currency?: string }
  | { code: 'malformed-amount' }
  | { code: 'non-positive-amount' }
  | { code: 'too-many-decimals'; currency: string; maxDecimals: number }
  | {
      code: 'stale-rate';
      currency: string;
      fetchedAt: string;
      ageSeconds: number;
      maxAgeSeconds: number;
    }
  | { code: 'amount-below-min'; side: QuoteSide; currency: string; limit: string }
  | { code: 'amount-above-max'; side: QuoteSide; currency: string; limit: string }
  | { code: 'invalid-input'; field: string };

/** Every code a refused quote can carry. */
export type QuoteErrorCode = QuoteError['code'];

/** The outcome of {@link computeQuote}: never throws for bad input, returns an error instead. */
export type QuoteResult = { ok: true; quote: Quote } | { ok: false; error: QuoteError };

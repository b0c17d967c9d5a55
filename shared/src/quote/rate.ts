import { Dec, DecDown, type DecimalValue } from './decimal.ts';
import { parseInput, type ParsedInput } from './input.ts';
import { buyLeg, sellLeg, type PricedLeg } from './pricing.ts';
import { limitsFor, RATE_DIGITS, staleLeg } from './quote.ts';
import type { MarginLevel, Processing, QuoteError, QuoteInput, QuoteSide } from './types.ts';
import { processingAt } from './window.ts';

/** Everything a pair's rate is computed from: a quote's input without the typed amount. */
export type RateInput = Omit<QuoteInput, 'amount' | 'side'>;

/** The accepted range of one side's amount, in that side's currency (decimal strings). */
export interface SideLimits {
  side: QuoteSide;
  currency: string;
  min: string;
  max: string;
}

/** A pair's rate before any amount is typed; every figure is a decimal string. */
export interface PairRate {
  from: string;
  to: string;
  /** Units of `to` per unit of `from`, exactly as `computeQuote`'s `rate` (18 digits, truncated). */
  rate: string;
  marketRate: string;
  /**
   * What `computeQuote` accepts when the user types what they send (`send`, in `from`) or what
   * they receive (`receive`, in `to`): both legs inside their currency's min/max.
   */
  limits: { send: SideLimits; receive: SideLimits };
  processing: Processing;
  ratesFetchedAt: string;
}

/** Why a pair has no rate: a quote's refusals that do not depend on an amount, or crossed limits. */
export type RateError =
  | Extract<
      QuoteError,
      { code: 'unknown-direction' | 'direction-disabled' | 'stale-rate' | 'invalid-input' }
    >
  /** The tighter limits leave no amount (min above max): nothing can be exchanged. */
  | { code: 'limits-cross'; currency: string; min: string; max: string };

export type RateResult = { ok: true; rate: PairRate } | { ok: false; error: RateError };

interface PricedPair {
  p: ParsedInput;
  sell: PricedLeg;
  buy: PricedLeg;
}

/** The checks of `computeQuote` that do not need an amount, in its order, then the two legs. */
function pricePair(
  input: RateInput,
): { ok: true; value: PricedPair } | { ok: false; error: RateError } {
  const refuse = (error: RateError) => ({ ok: false as const, error });
  const { direction } = input;
  if (direction === null || direction === undefined) return refuse({ code: 'unknown-direction' });
  if (!direction.enabled) return refuse({ code: 'direction-disabled' });
  for (const currency of [input.from, input.to]) {
    if (currency.enabled === false) {
      return refuse({ code: 'direction-disabled', currency: currency.code });
    }
  }
  // parseInput reads neither the side nor the amount.
  const parsed = parseInput({ ...input, side: 'send', amount: '' });
  if (!parsed.ok) return refuse(parsed.error as RateError);
  const p = parsed.value;
  const stale =
    staleLeg(p, p.from.code, p.fetchedFrom, input.maxRateAgeSeconds) ??
    staleLeg(p, p.to.code, p.fetchedTo, input.maxRateAgeSeconds);
  if (stale) return refuse(stale);
  return {
    ok: true,
    value: {
      p,
      sell: sellLeg(p.priceFrom, p.sellMargin, p.customSell),
      buy: buyLeg(p.priceTo, p.buyMargin, p.customBuy),
    },
  };
}

/** The applied rate `sell / buy`, exact to 200 digits (truncated). */
function exactRate(pair: PricedPair): DecimalValue {
  return new DecDown(pair.sell.price).div(pair.buy.price);
}

/**
 * The rate of a pair and the limits of both sides, before any amount is typed: the same
 * formula, level, custom rates, checks and rounding as {@link computeQuote} (whose `rate` and
 * `limits` for any accepted amount are exactly these), so the rate a page shows is the rate the
 * order gets and the one limits line is the limit a quote refuses at. Pure; never throws.
 */
export function computeRate(input: RateInput): RateResult {
  const priced = pricePair(input);
  if (!priced.ok) return priced;
  const { p, sell, buy } = priced.value;
  const limits = {
    send: limitsFor('send', p, sell, buy),
    receive: limitsFor('receive', p, sell, buy),
  };
  if (limits.send.min.greaterThan(limits.send.max)) {
    return {
      ok: false,
      error: {
        code: 'limits-cross',
        currency: p.from.code,
        min: limits.send.min.toFixed(p.from.precision),
        max: limits.send.max.toFixed(p.from.precision),
      },
    };
  }
  const side = (which: QuoteSide, own: ParsedInput['from']): SideLimits => ({
    side: which,
    currency: own.code,
    min: limits[which].min.toFixed(own.precision),
    max: limits[which].max.toFixed(own.precision),
  });
  const oldest = p.fetchedFrom < p.fetchedTo ? p.fetchedFrom : p.fetchedTo;
  return {
    ok: true,
    rate: {
      from: p.from.code,
      to: p.to.code,
      rate: exactRate(priced.value).toSignificantDigits(RATE_DIGITS, Dec.ROUND_DOWN).toString(),
      marketRate: p.priceFrom
        .div(p.priceTo)
        .toSignificantDigits(RATE_DIGITS, Dec.ROUND_HALF_EVEN)
        .toString(),
      limits: { send: side('send', p.from), receive: side('receive', p.to) },
      processing: processingAt(input.direction?.window, p.now),
      ratesFetchedAt: oldest.toISOString(),
    },
  };
}

/**
 * How much more of `to` the user gets at their own rate than at the public one, in percent,
 * rounded DOWN to 0.1 (never overstated): `⌊(own / public − 1) × 1000⌋ / 10`, from the exact
 * leg prices, not from the 18-digit rate strings. `null` when the user's rate is not better by
 * at least 0.1 % (equal, worse, or better by less), so nothing is promised that is not there.
 */
export function rateAdvantagePercent(input: { public: RateInput; own: RateInput }): string | null {
  const publicPair = pricePair(input.public);
  const ownPair = pricePair(input.own);
  if (!publicPair.ok || !ownPair.ok) return null;
  // own / public = (s1 / b1) / (s0 / b0) = s1 × b0 / (b1 × s0): products exact, one division.
  const { sell: s1, buy: b1 } = ownPair.value;
  const { sell: s0, buy: b0 } = publicPair.value;
  const tenths = new DecDown(s1.price.times(b0.price).times(1000))
    .div(b1.price.times(s0.price))
    .minus(1000)
    .floor();
  if (!tenths.greaterThan(0)) return null;
  return tenths.div(10).toFixed(1);
}

/** The default-level input a visitor's rate is computed from (no custom rates). */
export function publicRateInput(input: RateInput, defaultLevel: MarginLevel): RateInput {
  return { ...input, level: defaultLevel, custom: null };
}

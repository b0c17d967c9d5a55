import {
  ceilTo,
  Dec,
  DecDown,
  DecUp,
  floorTo,
  maxOf,
  minOf,
  mulDivDown,
  mulDivUp,
  type DecimalValue,
} from './decimal.ts';
import { parseAmount, parseInput, type ParsedInput } from './input.ts';
import { buyLeg, describeLeg, sellLeg, type PricedLeg } from './pricing.ts';
import type { QuoteError, QuoteInput, QuoteResult, QuoteSide } from './types.ts';
import { processingAt } from './window.ts';

/** Significant digits of the `rate` and `marketRate` strings. */
export const RATE_DIGITS = 18;

export interface Limits {
  min: DecimalValue;
  max: DecimalValue;
}

/**
 * The accepted range of the typed amount, so that BOTH legs stay within their currency's
 * min/max (limits are first put on their currency's grid: min rounded up, max down).
 * `sell`/`buy` are the leg prices, so the applied rate is `sell / buy`.
 *
 * - side `send`: `[max(from.min, ⌈to.min × buy / sell⌉), min(from.max, ⌊to.max × buy / sell⌋)]`
 *   on `from`'s grid;
 * - side `receive`: `[max(to.min, ⌈from.min × sell / buy⌉), min(to.max, ⌊from.max × sell / buy⌋)]`
 *   on `to`'s grid.
 */
export function limitsFor(
  side: QuoteSide,
  p: ParsedInput,
  sell: PricedLeg,
  buy: PricedLeg,
): Limits {
  const [own, other] = side === 'send' ? [p.from, p.to] : [p.to, p.from];
  const [num, den] = side === 'send' ? [buy.price, sell.price] : [sell.price, buy.price];
  const otherMin = ceilTo(other.min, other.precision);
  const otherMax = floorTo(other.max, other.precision);
  return {
    min: maxOf(ceilTo(own.min, own.precision), ceilTo(mulDivUp(otherMin, num, den), own.precision)),
    max: minOf(
      floorTo(own.max, own.precision),
      floorTo(mulDivDown(otherMax, num, den), own.precision),
    ),
  };
}

export function staleLeg(p: ParsedInput, currency: string, fetchedAt: Date, maxAgeSeconds: number) {
  const ageSeconds = Math.max(0, Math.floor((p.now.getTime() - fetchedAt.getTime()) / 1000));
  if (ageSeconds <= maxAgeSeconds) return null;
  return {
    code: 'stale-rate' as const,
    currency,
    fetchedAt: fetchedAt.toISOString(),
    ageSeconds,
    maxAgeSeconds,
  };
}

/**
 * Computes a quote for exchanging `from` into `to`. Pure: the clock, prices, level and custom
 * rates all come in `input`; nothing is read from anywhere else. Never throws on bad input.
 *
 * **Formula.** Every pair pivots through USDT, as two trades with the service: the user SELLS
 * `from` for USDT at `sell`, then BUYS `to` with that USDT at `buy`, both USDT per unit:
 *
 * - `sell = price_from × (1 − sell_margin)`, or the user's custom `sell_rate` for `from`
 *   (capped at `price_from`);
 * - `buy  = price_to × (1 + buy_margin)`, or the user's custom `buy_rate` for `to`
 *   (raised to `price_to`);
 * - applied rate `rate = sell / buy`, market rate `price_from / price_to`, so
 *   `rate ≤ marketRate` whatever the margins and custom rates.
 *
 * The same formula holds for every pair, USDT and fiat legs included (a USDT price is 1, a fiat
 * price is its USDT value): BTC→USDTTRC20 pays both margins, exactly like BTC→ETH.
 *
 * **Rounding** (always in the service's favour, on the currency's `precision` grid):
 * - side `send` (user typed `send`): `receive = ⌊send × sell / buy⌋` on `to`'s grid;
 * - side `receive` (user typed `receive`): `send = ⌈receive × buy / sell⌉` on `from`'s grid.
 *
 * Products are exact; the one division rounds in the same direction as the final rounding, so
 * the result is exactly the floor/ceiling of the exact rational value (never off by one unit).
 *
 * **Checks, in order:** direction exists (`unknown-direction`), it and both currencies are
 * enabled (`direction-disabled`), data is well-formed (`invalid-input`), the typed amount is a
 * plain positive decimal within the typed currency's precision (`malformed-amount`,
 * `non-positive-amount`, `too-many-decimals`), both prices are at most `maxRateAgeSeconds` old
 * (`stale-rate`), and the typed amount lies within `limits` (`amount-below-min`,
 * `amount-above-max`), which keeps both legs inside their currency's min/max.
 */
export function computeQuote(input: QuoteInput): QuoteResult {
  const refuse = (error: QuoteError): QuoteResult => ({ ok: false, error });
  const { direction } = input;
  if (direction === null || direction === undefined) return refuse({ code: 'unknown-direction' });
  if (!direction.enabled) return refuse({ code: 'direction-disabled' });
  for (const currency of [input.from, input.to]) {
    if (currency.enabled === false) {
      return refuse({ code: 'direction-disabled', currency: currency.code });
    }
  }

  const parsed = parseInput(input);
  if (!parsed.ok) return parsed;
  const p = parsed.value;

  const typed = input.side === 'send' ? p.from : p.to;
  const amount = parseAmount(input.amount, typed.code, typed.precision);
  if (!amount.ok) return amount;

  const stale =
    staleLeg(p, p.from.code, p.fetchedFrom, input.maxRateAgeSeconds) ??
    staleLeg(p, p.to.code, p.fetchedTo, input.maxRateAgeSeconds);
  if (stale) return refuse(stale);

  const sell = sellLeg(p.priceFrom, p.sellMargin, p.customSell);
  const buy = buyLeg(p.priceTo, p.buyMargin, p.customBuy);
  const limits = limitsFor(input.side, p, sell, buy);
  const limitData = { side: input.side, currency: typed.code };
  if (amount.value.lessThan(limits.min)) {
    return refuse({
      code: 'amount-below-min',
      ...limitData,
      limit: limits.min.toFixed(typed.precision),
    });
  }
  if (amount.value.greaterThan(limits.max)) {
    return refuse({
      code: 'amount-above-max',
      ...limitData,
      limit: limits.max.toFixed(typed.precision),
    });
  }

  const send =
    input.side === 'send'
      ? amount.value
      : ceilTo(mulDivUp(amount.value, buy.price, sell.price), p.from.precision);
  const receive =
    input.side === 'receive'
      ? amount.value
      : floorTo(mulDivDown(amount.value, sell.price, buy.price), p.to.precision);

  const rate = new DecDown(sell.price).div(buy.price);
  const marketRate = p.priceFrom.div(p.priceTo);
  const spread = new DecUp(1).minus(rate.div(marketRate));
  const oldest = p.fetchedFrom < p.fetchedTo ? p.fetchedFrom : p.fetchedTo;

  return {
    ok: true,
    quote: {
      from: p.from.code,
      to: p.to.code,
      side: input.side,
      send: send.toFixed(p.from.precision),
      receive: receive.toFixed(p.to.precision),
      rate: rate.toSignificantDigits(RATE_DIGITS, Dec.ROUND_DOWN).toString(),
      marketRate: marketRate.toSignificantDigits(RATE_DIGITS, Dec.ROUND_HALF_EVEN).toString(),
      legs: {
        from: describeLeg(p.from.code, 'sell', sell),
        to: describeLeg(p.to.code, 'buy', buy),
      },
      spread: spread.toDecimalPlaces(8, Dec.ROUND_CEIL).toString(),
      limits: {
        ...limitData,
        min: limits.min.toFixed(typed.precision),
        max: limits.max.toFixed(typed.precision),
      },
      processing: processingAt(direction.window, p.now),
      ratesFetchedAt: oldest.toISOString(),
    },
  };
}

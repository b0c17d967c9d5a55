import { Dec, type DecimalValue } from './decimal.ts';
import type { LegPricing, PriceSource } from './types.ts';

/** One leg priced, with exact decimals for the math and strings for the output. */
export interface PricedLeg {
  price: DecimalValue;
  market: DecimalValue;
  margin: DecimalValue;
  source: PriceSource;
}

const ONE = new Dec(1);

/**
 * The price (USDT per unit) the service pays for a currency the user sells to it: the market
 * price less the level's sell margin, `market × (1 − sellMargin)`, or the user's custom
 * `sell_rate` instead. A custom rate above the market is capped at the market (`custom-capped`)
 * so no configuration can pay out more than the market does.
 */
export function sellLeg(
  market: DecimalValue,
  sellMargin: DecimalValue,
  custom: DecimalValue | null,
): PricedLeg {
  if (custom === null) {
    return {
      price: market.times(ONE.minus(sellMargin)),
      market,
      margin: sellMargin,
      source: 'level',
    };
  }
  const capped = custom.greaterThan(market);
  const price = capped ? market : custom;
  return {
    price,
    market,
    margin: ONE.minus(price.div(market)),
    source: capped ? 'custom-capped' : 'custom',
  };
}

/**
 * The price (USDT per unit) the service charges for a currency the user buys from it: the
 * market price plus the level's buy margin, `market × (1 + buyMargin)`, or the user's custom
 * `buy_rate` instead. A custom rate below the market is raised to the market (`custom-capped`).
 */
export function buyLeg(
  market: DecimalValue,
  buyMargin: DecimalValue,
  custom: DecimalValue | null,
): PricedLeg {
  if (custom === null) {
    return { price: market.times(ONE.plus(buyMargin)), market, margin: buyMargin, source: 'level' };
  }
  const capped = custom.lessThan(market);
  const price = capped ? market : custom;
  return {
    price,
    market,
    margin: price.div(market).minus(ONE),
    source: capped ? 'custom-capped' : 'custom',
  };
}

/** The output form of a priced leg. */
export function describeLeg(currency: string, role: 'sell' | 'buy', leg: PricedLeg): LegPricing {
  return {
    currency,
    role,
    marketPrice: leg.market.toString(),
    price: leg.price.toString(),
    margin: leg.margin.toDecimalPlaces(8, Dec.ROUND_HALF_EVEN).toString(),
    source: leg.source,
  };
}

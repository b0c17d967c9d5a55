/**
 * The quote math (`@app/shared/quote`): exact-decimal exchange quotes that pivot through USDT,
 * apply the user's level margins or custom rates, round per currency precision in the service's
 * favour and check limits, rate age and the direction's daily window. Browser-safe and pure:
 * the web and mini-app use it for previews, `hasura/actions` for the authoritative figure.
 * See {@link computeQuote} for the formulas and rounding rules.
 *
 * @packageDocumentation
 */
export { computeQuote } from './quote.ts';
export { Dec } from './decimal.ts';
export { quoteErrorMessage } from './errors.ts';
export { DEFAULT_LEVEL_STATUS, pickLevel } from './level.ts';
export { isValidWindow, parseTimeOfDay, processingAt, windowFromColumns } from './window.ts';
export type {
  CurrencyInfo,
  CurrencyKind,
  CustomRate,
  DailyWindow,
  DirectionInfo,
  LegPricing,
  MarginLevel,
  PriceSource,
  Processing,
  Quote,
  QuoteError,
  QuoteErrorCode,
  QuoteInput,
  QuoteResult,
  QuoteSide,
} from './types.ts';
export {
  computeRate,
  publicRateInput,
  rateAdvantagePercent,
  type PairRate,
  type RateError,
  type RateInput,
  type RateResult,
  type SideLimits,
} from './rate.ts';
export { levelProgress, type LevelProgress, type LevelStep } from './level-progress.ts';

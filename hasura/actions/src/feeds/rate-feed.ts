import type pg from 'pg';

import {
  computeQuote,
  Dec,
  pickLevel,
  windowFromColumns,
  type CurrencyKind,
  type MarginLevel,
  type Quote,
} from '@app/shared/quote';

import { ActionFailure } from '../http/errors.ts';
import { latestRates } from '../rates/index.ts';

import { bestchangeCode } from './bestchange-codes.ts';
import { xmlElement } from './xml.ts';

/*
 * `rateFeed` (issue 10, docs/decisions/015-order-trust.md): the service's rates in BestChange's
 * export file format, so an exchange monitor shows what the `quote` action answers a visitor.
 *
 * The format (BestChange, "Export file format", www.bestchange.com/wiki/rates.html; the same
 * elements in "Requirements for Exchange Rate Export File", docs.bestchange.biz):
 *
 * - XML, UTF-8, root `<rates>`, one `<item>` per exchange direction, every entry on a line of its
 *   own, a full stop as the decimal point;
 * - required in each item: `<from>` and `<to>` (currency codes, see bestchange-codes.ts), `<in>`
 *   and `<out>` (the rate: how much `from` the customer gives for how much `to` they get),
 *   `<amount>` (the reserve of `to`, the most a customer can receive), `<minamount>` and
 *   `<maxamount>` (the smallest and largest amount taken from a customer in one order, "specified
 *   in the from currency": a plain number, e.g. `<minamount>4.1</minamount>`; only the fee
 *   elements carry a currency code, e.g. `<minfee>5 USD</minfee>`, and we charge no fee outside
 *   the rate, so none is published);
 * - `<param>`: the direction's marks, comma-separated. BestChange's marks
 *   (www.bestchange.com/wiki/labels.html) that apply here:
 *   - `manual`: "the exchanger operates in a manual or semiautomatic mode": every order, since
 *     an operator gives the payment details and sends the payout;
 *   - `floating`: for an exchanger that "fixes the exchange rate of an order for 30 minutes or
 *     less". Our orders lock the quoted rate at creation until the payment window ends, and a
 *     payment after it is settled at the then current rate (resolvePaymentIssue). So the mark is
 *     set when the send currency's payment window (currency_payment_window: 30 minutes for
 *     crypto by default, 24 hours for bank and cash) is 30 minutes or less.
 *
 * What is published, per enabled direction between enabled currencies, at the default level
 * (the visitors' level, as `quote` computes it for anonymous callers, no custom rates):
 *
 * - `in`/`out`: the quote's applied rate, one unit against the other. When it is 1 or more,
 *   `in` is 1 and `out` is the quote's `rate` string exactly. Below 1 the pair is turned round
 *   so that `in` is the larger side, as monitors show it: `out` is 1 and `in` is 1/rate rounded
 *   UP at 18 significant digits, so out/in never exceeds the quote's rate (and differs from it
 *   by less than one part in 10^17).
 * - `amount`: the receive currency's reserve (`currencies.reserve`, or its `max_amount` when
 *   the reserve is not set).
 * - `minamount`/`maxamount`: the quote's limits for side `send`, in the send currency: both legs
 *   inside their currency's min/max at the applied rate, on the send currency's grid.
 *
 * A direction without a fresh price for either currency, or that the quote refuses for any
 * other reason (its limits cross, say), is left out. Everything is read in one go (currencies,
 * directions, newest prices, levels: four queries) and then each direction goes through the
 * quote's own `computeQuote`; the built feed is kept FEED_TTL_MS in memory.
 */

type Queryable = Pick<pg.Pool, 'query'>;

export interface RateFeedOptions {
  pool: Queryable;
  /** The service's clock (injected in tests). */
  now: Date;
  maxRateAgeSeconds: number;
}

export interface RateFeed {
  xml: string;
  /** When the feed was built, ISO 8601. */
  generatedAt: string;
}

/** One exchange direction as the feed publishes it (decimal strings, BestChange's codes). */
export interface RateFeedItem {
  from: string;
  to: string;
  in: string;
  out: string;
  amount: string;
  minamount: string;
  maxamount: string;
  param: string;
}

/** How long a built feed is served before it is built again. */
export const FEED_TTL_MS = 30_000;

/** Significant digits of an inverted rate (`in` when the rate is below 1), as the quote's. */
const RATE_DIGITS = 18;

/** A payment window of at most this many minutes earns the `floating` mark (BestChange). */
const FLOATING_MAX_WINDOW_MINUTES = 30;

const ONE = new Dec(1);
/** Divisions that round up: an inverted rate is never understated (so out/in never overstated). */
const DecUp = Dec.clone({ rounding: Dec.ROUND_UP });

interface CurrencyRow {
  code: string;
  kind: CurrencyKind;
  precision: number;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
  /** The reserve, or max_amount when the reserve is not set. */
  reserve: string;
  payment_window_minutes: number;
}

interface DirectionRow {
  from_currency: string;
  to_currency: string;
  enabled: boolean;
  window_start: string | null;
  window_end: string | null;
  window_cutoff: string | null;
  window_utc_offset_minutes: number | null;
}

async function loadFeedData(db: Queryable) {
  const [currencies, directions, levels] = await Promise.all([
    db.query<CurrencyRow>(
      `SELECT code, kind, precision, min_amount::text AS min_amount,
              max_amount::text AS max_amount, enabled,
              COALESCE(reserve, max_amount)::text AS reserve,
              (extract(epoch FROM public.currency_payment_window(code)) / 60)::integer
                AS payment_window_minutes
         FROM public.currencies WHERE enabled`,
    ),
    db.query<DirectionRow>(
      `SELECT d.from_currency, d.to_currency, d.enabled,
              d.window_start::text AS window_start, d.window_end::text AS window_end,
              d.window_cutoff::text AS window_cutoff, d.window_utc_offset_minutes
         FROM public.exchange_directions d
         JOIN public.currencies f ON f.code = d.from_currency AND f.enabled
         JOIN public.currencies t ON t.code = d.to_currency AND t.enabled
        WHERE d.enabled
        ORDER BY d.sort_order, d.from_currency, d.to_currency`,
    ),
    db.query<MarginLevel & { status: string }>(
      `SELECT status, buy_margin::text AS buy_margin, sell_margin::text AS sell_margin
         FROM public.user_levels`,
    ),
  ]);
  const prices = await latestRates(
    db,
    currencies.rows.map((row) => row.code),
  );
  return {
    currencies: new Map(currencies.rows.map((row) => [row.code, row])),
    directions: directions.rows,
    levels: levels.rows,
    prices,
  };
}

/**
 * The quote of one direction for side `send`, or null when it is refused. The rate and limits
 * do not depend on the amount, but computeQuote wants an amount inside the limits: the send
 * currency's minimum first, then the limit a refusal names.
 */
function directionQuote(
  input: Omit<Parameters<typeof computeQuote>[0], 'amount' | 'side'>,
): Quote | null {
  const from = input.from;
  let amount = new Dec(from.min_amount).toDecimalPlaces(from.precision, Dec.ROUND_CEIL);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const result = computeQuote({ ...input, side: 'send', amount: amount.toFixed(from.precision) });
    if (result.ok) return result.quote;
    const { error } = result;
    if (error.code !== 'amount-below-min' && error.code !== 'amount-above-max') return null;
    amount = new Dec(error.limit);
  }
  // The limits cross (the minimum is above the maximum): no amount can be exchanged.
  return null;
}

/** `in` and `out` for a rate (units of `to` per unit of `from`), the larger side first. */
export function rateSides(rate: string): { in: string; out: string } {
  const value = new Dec(rate);
  if (value.greaterThanOrEqualTo(ONE)) return { in: '1', out: rate };
  const inverse = new DecUp(1).div(value).toSignificantDigits(RATE_DIGITS, Dec.ROUND_UP);
  return { in: inverse.toString(), out: '1' };
}

/** The items of the feed, in the directions' order. */
export async function rateFeedItems(options: RateFeedOptions): Promise<RateFeedItem[]> {
  const data = await loadFeedData(options.pool);
  const level = pickLevel(data.levels, null);
  if (!level) {
    // No levels configured: publishing market rates would give them away (as `quote` refuses).
    throw new ActionFailure('unexpected', 'Exchanges are not available at the moment.', 500);
  }
  const items: RateFeedItem[] = [];
  for (const direction of data.directions) {
    const from = data.currencies.get(direction.from_currency);
    const to = data.currencies.get(direction.to_currency);
    const fromPrice = data.prices.get(direction.from_currency);
    const toPrice = data.prices.get(direction.to_currency);
    if (!from || !to || !fromPrice || !toPrice) continue;
    const quote = directionQuote({
      from,
      to,
      prices: { from: fromPrice.price, to: toPrice.price },
      pricesFetchedAt: { from: fromPrice.fetchedAt, to: toPrice.fetchedAt },
      level,
      custom: null,
      direction: { enabled: direction.enabled, window: windowFromColumns(direction) },
      now: options.now,
      maxRateAgeSeconds: options.maxRateAgeSeconds,
    });
    if (!quote) continue;
    const params = ['manual'];
    if (from.payment_window_minutes <= FLOATING_MAX_WINDOW_MINUTES) params.push('floating');
    items.push({
      from: bestchangeCode(from.code),
      to: bestchangeCode(to.code),
      ...rateSides(quote.rate),
      amount: new Dec(to.reserve).toString(),
      minamount: quote.limits.min,
      maxamount: quote.limits.max,
      param: params.join(', '),
    });
  }
  return items;
}

/** The export file: the XML declaration, then `<rates>` with one `<item>` per direction. */
export function rateFeedXml(items: readonly RateFeedItem[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<rates>'];
  for (const item of items) {
    lines.push(
      '  <item>',
      `    ${xmlElement('from', item.from)}`,
      `    ${xmlElement('to', item.to)}`,
      `    ${xmlElement('in', item.in)}`,
      `    ${xmlElement('out', item.out)}`,
      `    ${xmlElement('amount', item.amount)}`,
      `    ${xmlElement('minamount', item.minamount)}`,
      `    ${xmlElement('maxamount', item.maxamount)}`,
      `    ${xmlElement('param', item.param)}`,
      '  </item>',
    );
  }
  lines.push('</rates>', '');
  return lines.join('\n');
}

/** Builds the feed now, without the cache. */
export async function buildRateFeed(options: RateFeedOptions): Promise<RateFeed> {
  const items = await rateFeedItems(options);
  return { xml: rateFeedXml(items), generatedAt: options.now.toISOString() };
}

interface CachedFeed {
  builtAtMs: number;
  maxRateAgeSeconds: number;
  feed: Promise<RateFeed>;
}

/** The built feed per database pool (tests run several databases in one process). */
const cache = new WeakMap<object, CachedFeed>();

/**
 * `rateFeed`: the feed, built at most once every FEED_TTL_MS of the service's clock per pool;
 * concurrent requests share one build, and a failed build is not kept.
 */
export function rateFeed(options: RateFeedOptions): Promise<RateFeed> {
  const nowMs = options.now.getTime();
  const cached = cache.get(options.pool);
  if (
    cached &&
    cached.maxRateAgeSeconds === options.maxRateAgeSeconds &&
    nowMs >= cached.builtAtMs &&
    nowMs - cached.builtAtMs < FEED_TTL_MS
  ) {
    return cached.feed;
  }
  const feed = buildRateFeed(options);
  const entry: CachedFeed = {
    builtAtMs: nowMs,
    maxRateAgeSeconds: options.maxRateAgeSeconds,
    feed,
  };
  cache.set(options.pool, entry);
  feed.catch(() => {
    if (cache.get(options.pool) === entry) cache.delete(options.pool);
  });
  return feed;
}

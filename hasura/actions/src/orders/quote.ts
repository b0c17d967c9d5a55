import type pg from 'pg';

import {
  computeQuote,
  pickLevel,
  quoteErrorMessage,
  windowFromColumns,
  type CurrencyKind,
  type CustomRate,
  type MarginLevel,
  type Quote,
  type QuoteSide,
} from '@app/shared/quote';

import { ActionFailure } from '../http/errors.ts';
import { latestRatesSelect, ratesByCode, type LatestRateRow } from '../rates/index.ts';

type Queryable = Pick<pg.Pool, 'query'>;

/** A currency row as the order needs it. */
export interface CurrencyRow {
  code: string;
  kind: CurrencyKind;
  network: string | null;
  precision: number;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
}

export interface QuoteRequest {
  from: unknown;
  to: unknown;
  side: unknown;
  amount: unknown;
  /** The caller from the session; null quotes at the default level. */
  userId: string | null;
  now: Date;
  maxRateAgeSeconds: number;
}

export interface ServerQuote {
  quote: Quote;
  from: CurrencyRow;
  to: CurrencyRow;
}

const CODE = /^[A-Z0-9]{2,16}$/;

/** Everything a quote reads, as one row of JSON columns (QUOTE_READS). */
interface QuoteReads {
  currencies: CurrencyRow[];
  direction: {
    enabled: boolean;
    window_start: string | null;
    window_end: string | null;
    window_cutoff: string | null;
    window_utc_offset_minutes: number | null;
  } | null;
  rates: LatestRateRow[];
  levels: Array<MarginLevel & { status: string }>;
  user_status: string | null;
  custom: Array<CustomRate & { currency_code: string }>;
}

/**
 * A quote's six reads in one statement: one round trip and one pooled connection per quote,
 * where six parallel reads held six of the pool's connections (issue 24's tail under load).
 * $1 both codes, $2 and $3 the direction, $4 the caller (null: the default level, no custom
 * rates).
 */
const QUOTE_READS = `SELECT
  (SELECT coalesce(json_agg(c), '[]'::json) FROM (
     SELECT code, kind, network, precision, min_amount::text AS min_amount,
            max_amount::text AS max_amount, enabled
       FROM public.currencies WHERE code = ANY($1::text[])) AS c) AS currencies,
  (SELECT row_to_json(d) FROM (
     SELECT enabled, window_start::text AS window_start, window_end::text AS window_end,
            window_cutoff::text AS window_cutoff, window_utc_offset_minutes
       FROM public.exchange_directions WHERE from_currency = $2 AND to_currency = $3
      LIMIT 1) AS d) AS direction,
  (SELECT coalesce(json_agg(r), '[]'::json) FROM (${latestRatesSelect('$1')}) AS r) AS rates,
  (SELECT coalesce(json_agg(l), '[]'::json) FROM (
     SELECT status, buy_margin::text AS buy_margin, sell_margin::text AS sell_margin
       FROM public.user_levels) AS l) AS levels,
  (SELECT status FROM public.portal_users WHERE id = $4::uuid) AS user_status,
  (SELECT coalesce(json_agg(u), '[]'::json) FROM (
     SELECT currency_code, sell_rate::text AS sell_rate, buy_rate::text AS buy_rate
       FROM public.user_custom_carrency
      WHERE user_id = $4::uuid AND currency_code = ANY($1::text[])) AS u) AS custom`;

/**
 * The authoritative quote: direction, currencies, newest prices, the caller's level and custom
 * rates read from the database, then `computeQuote`. Throws an ActionFailure carrying the
 * quote's error code when it is refused.
 */
export async function serverQuote(db: Queryable, request: QuoteRequest): Promise<ServerQuote> {
  const { from, to, side, amount } = request;
  if (typeof from !== 'string' || !CODE.test(from))
    throw new ActionFailure('invalid-input', 'The currency to send is not valid.', 400, {
      field: 'from',
    });
  if (typeof to !== 'string' || !CODE.test(to))
    throw new ActionFailure('invalid-input', 'The currency to receive is not valid.', 400, {
      field: 'to',
    });
  if (side !== 'send' && side !== 'receive')
    throw new ActionFailure('invalid-input', "The side must be 'send' or 'receive'.", 400, {
      field: 'side',
    });
  // Numbers arrive as their digits (see parsePayload); anything else is not an amount.
  const typed = typeof amount === 'string' ? amount : '';

  const { rows } = await db.query<QuoteReads>(QUOTE_READS, [[from, to], from, to, request.userId]);
  const { currencies, direction, rates, levels, user_status: userStatus, custom } = rows[0]!;
  const prices = ratesByCode(rates);

  const fromRow = currencies.find((row) => row.code === from);
  const toRow = currencies.find((row) => row.code === to);
  const directionRow = direction ?? undefined;
  if (!fromRow || !toRow || !directionRow) {
    throw new ActionFailure('unknown-direction', quoteErrorMessage({ code: 'unknown-direction' }));
  }
  const fromPrice = prices.get(from);
  const toPrice = prices.get(to);
  if (!fromPrice || !toPrice) {
    throw new ActionFailure(
      'rate-unavailable',
      `No rate is available for ${fromPrice ? to : from} at the moment; try again shortly.`,
      400,
      { currency: fromPrice ? to : from },
    );
  }
  const level = pickLevel(levels, userStatus);
  if (!level) {
    // No levels configured: quoting without margins would give the market rate away.
    throw new ActionFailure('unexpected', 'Exchanges are not available at the moment.', 500);
  }
  const customFor = (code: string) => custom.find((row) => row.currency_code === code);

  const result = computeQuote({
    from: fromRow,
    to: toRow,
    side: side satisfies QuoteSide,
    amount: typed,
    prices: { from: fromPrice.price, to: toPrice.price },
    pricesFetchedAt: { from: fromPrice.fetchedAt, to: toPrice.fetchedAt },
    level,
    custom: { from: customFor(from) ?? null, to: customFor(to) ?? null },
    direction: { enabled: directionRow.enabled, window: windowFromColumns(directionRow) },
    now: request.now,
    maxRateAgeSeconds: request.maxRateAgeSeconds,
  });
  if (!result.ok) {
    const { code, ...details } = result.error;
    throw new ActionFailure(code, quoteErrorMessage(result.error), 400, details);
  }
  return { quote: result.quote, from: fromRow, to: toRow };
}

/** The `Quote` output type of the `quote` action (amounts and rates as decimal strings). */
export function quoteOutput(quote: Quote) {
  return {
    from: quote.from,
    to: quote.to,
    side: quote.side,
    sendAmount: quote.send,
    receiveAmount: quote.receive,
    rate: quote.rate,
    marketRate: quote.marketRate,
    spread: quote.spread,
    limits: {
      side: quote.limits.side,
      currency: quote.limits.currency,
      min: quote.limits.min,
      max: quote.limits.max,
    },
    processing: {
      mode: quote.processing.mode,
      at: quote.processing.mode === 'next-window' ? quote.processing.at : null,
    },
    ratesFetchedAt: quote.ratesFetchedAt,
  };
}

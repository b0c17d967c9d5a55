import type pg from 'pg';

import {
  computeRate,
  pickLevel,
  publicRateInput,
  quoteErrorMessage,
  rateAdvantagePercent,
  windowFromColumns,
  type CustomRate,
  type MarginLevel,
  type PairRate,
  type RateError,
  type RateInput,
} from '@app/shared/quote';

import { ActionFailure } from '../http/errors.ts';
import { latestRates, type StoredRate } from '../rates/index.ts';

import type { CurrencyRow } from './quote.ts';

/*
 * `pairRate` (issue 23, decision 046): a pair's rate and the limits of both sides before anything
 * is typed, for the exchange widget, the order form and the pair pages. It is `quote` without
 * the amount: the same rows, the same level logic (the caller's level, else `new`; custom rates
 * for signed-in users) and `computeRate`, which runs `computeQuote`'s own formula and checks. A
 * signed-in caller also gets the public rate (the default level, no custom rates) and how much
 * better theirs is.
 */

type Queryable = Pick<pg.Pool, 'query'>;

export interface PairRateRequest {
  from: unknown;
  to: unknown;
  /** The caller from the session; null is a visitor (the default level). */
  userId: string | null;
  now: Date;
  maxRateAgeSeconds: number;
}

/** What every caller's rate of a pair is computed from: nothing user-specific. */
interface PairData {
  from: CurrencyRow | undefined;
  to: CurrencyRow | undefined;
  direction:
    | {
        enabled: boolean;
        window_start: string | null;
        window_end: string | null;
        window_cutoff: string | null;
        window_utc_offset_minutes: number | null;
      }
    | undefined;
  prices: Map<string, StoredRate>;
  levels: Array<MarginLevel & { status: string }>;
}

/**
 * How long one read of a pair's rows serves other requests. Rates are refreshed once a minute
 * and every visitor's widget asks every 30 s, so most requests would read the same rows; a
 * few seconds bound how late a new price shows (the order itself is always quoted afresh).
 * The clock, the staleness check and the daily window are evaluated per request, not cached.
 */
export const PAIR_DATA_TTL_MS = 5_000;

const CODE = /^[A-Z0-9]{2,16}$/;

async function loadPairData(db: Queryable, from: string, to: string): Promise<PairData> {
  const [currencies, direction, prices, levels] = await Promise.all([
    db.query<CurrencyRow>(
      `SELECT code, kind, network, precision, min_amount::text AS min_amount,
              max_amount::text AS max_amount, enabled
         FROM public.currencies WHERE code = ANY($1::text[])`,
      [[from, to]],
    ),
    db.query<NonNullable<PairData['direction']>>(
      `SELECT enabled, window_start::text AS window_start, window_end::text AS window_end,
              window_cutoff::text AS window_cutoff, window_utc_offset_minutes
         FROM public.exchange_directions WHERE from_currency = $1 AND to_currency = $2`,
      [from, to],
    ),
    latestRates(db, [from, to]),
    db.query<MarginLevel & { status: string }>(
      `SELECT status, buy_margin::text AS buy_margin, sell_margin::text AS sell_margin
         FROM public.user_levels`,
    ),
  ]);
  return {
    from: currencies.rows.find((row) => row.code === from),
    to: currencies.rows.find((row) => row.code === to),
    direction: direction.rows[0],
    prices,
    levels: levels.rows,
  };
}

interface CachedPair {
  loadedAtMs: number;
  data: Promise<PairData>;
}

/** Per database pool (tests run several databases in one process), then per pair. */
const cache = new WeakMap<object, Map<string, CachedPair>>();

function pairData(db: Queryable, from: string, to: string, nowMs: number): Promise<PairData> {
  let pairs = cache.get(db);
  if (!pairs) cache.set(db, (pairs = new Map<string, CachedPair>()));
  const key = `${from}>${to}`;
  const cached = pairs.get(key);
  if (cached && nowMs >= cached.loadedAtMs && nowMs - cached.loadedAtMs < PAIR_DATA_TTL_MS) {
    return cached.data;
  }
  const data = loadPairData(db, from, to);
  const entry = { loadedAtMs: nowMs, data };
  pairs.set(key, entry);
  // A failed read is not kept; pairs that nobody asks for again drop out after their TTL.
  data.catch(() => {
    if (pairs.get(key) === entry) pairs.delete(key);
  });
  for (const [other, value] of pairs) {
    if (nowMs - value.loadedAtMs >= PAIR_DATA_TTL_MS) pairs.delete(other);
  }
  return data;
}

function refuse(error: RateError): never {
  if (error.code === 'limits-cross') {
    // No amount fits both currencies' limits: to the client, the direction is unavailable.
    throw new ActionFailure(
      'direction-disabled',
      `No amount can be exchanged in this direction at the moment (${error.currency} ${error.min} to ${error.max}).`,
      400,
      { ...error, reason: 'limits-cross' },
    );
  }
  const { code, ...details } = error;
  throw new ActionFailure(code, quoteErrorMessage(error), 400, details);
}

export interface ServerPairRate {
  /** The caller's rate and limits (the public ones for a visitor). */
  own: PairRate;
  /** The default level's rate, no custom rates. */
  publicRate: PairRate;
  /** "You get X% more": one decimal, rounded down; null unless the caller's rate is better. */
  betterByPercent: string | null;
}

export async function serverPairRate(
  db: Queryable,
  request: PairRateRequest,
): Promise<ServerPairRate> {
  const { from, to } = request;
  if (typeof from !== 'string' || !CODE.test(from))
    throw new ActionFailure('invalid-input', 'The currency to send is not valid.', 400, {
      field: 'from',
    });
  if (typeof to !== 'string' || !CODE.test(to))
    throw new ActionFailure('invalid-input', 'The currency to receive is not valid.', 400, {
      field: 'to',
    });

  const [data, user, custom] = await Promise.all([
    pairData(db, from, to, request.now.getTime()),
    request.userId
      ? db.query<{ status: string }>('SELECT status FROM public.portal_users WHERE id = $1', [
          request.userId,
        ])
      : undefined,
    request.userId
      ? db.query<CustomRate & { currency_code: string }>(
          `SELECT currency_code, sell_rate::text AS sell_rate, buy_rate::text AS buy_rate
             FROM public.user_custom_carrency
            WHERE user_id = $1 AND currency_code = ANY($2::text[])`,
          [request.userId, [from, to]],
        )
      : undefined,
  ]);

  if (!data.from || !data.to || !data.direction) {
    throw new ActionFailure('unknown-direction', quoteErrorMessage({ code: 'unknown-direction' }));
  }
  const fromPrice = data.prices.get(from);
  const toPrice = data.prices.get(to);
  if (!fromPrice || !toPrice) {
    throw new ActionFailure(
      'rate-unavailable',
      `No rate is available for ${fromPrice ? to : from} at the moment; try again shortly.`,
      400,
      { currency: fromPrice ? to : from },
    );
  }
  const defaultLevel = pickLevel(data.levels, null);
  const level = pickLevel(data.levels, user?.rows[0]?.status ?? null);
  if (!defaultLevel || !level) {
    // No levels configured: a rate without margins would give the market rate away (as quote).
    throw new ActionFailure('unexpected', 'Exchanges are not available at the moment.', 500);
  }
  const customFor = (code: string) => custom?.rows.find((row) => row.currency_code === code);

  const ownInput: RateInput = {
    from: data.from,
    to: data.to,
    prices: { from: fromPrice.price, to: toPrice.price },
    pricesFetchedAt: { from: fromPrice.fetchedAt, to: toPrice.fetchedAt },
    level,
    custom: { from: customFor(from) ?? null, to: customFor(to) ?? null },
    direction: { enabled: data.direction.enabled, window: windowFromColumns(data.direction) },
    now: request.now,
    maxRateAgeSeconds: request.maxRateAgeSeconds,
  };
  const publicInput = publicRateInput(ownInput, defaultLevel);
  const own = computeRate(ownInput);
  if (!own.ok) refuse(own.error);
  const publicResult = request.userId ? computeRate(publicInput) : own;
  return {
    own: own.rate,
    // The public rate of a direction whose public limits cross is still the public rate; only
    // the caller's own figures decide whether they can exchange.
    publicRate: publicResult.ok ? publicResult.rate : own.rate,
    betterByPercent: request.userId
      ? rateAdvantagePercent({ public: publicInput, own: ownInput })
      : null,
  };
}

/** The `PairRate` output type of the `pairRate` action (amounts and rates as decimal strings). */
export function pairRateOutput({ own, publicRate, betterByPercent }: ServerPairRate) {
  return {
    from: own.from,
    to: own.to,
    rate: own.rate,
    publicRate: publicRate.rate,
    marketRate: own.marketRate,
    betterByPercent,
    sendLimits: own.limits.send,
    receiveLimits: own.limits.receive,
    processing: {
      mode: own.processing.mode,
      at: own.processing.mode === 'next-window' ? own.processing.at : null,
    },
    ratesFetchedAt: own.ratesFetchedAt,
  };
}

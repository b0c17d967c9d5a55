import type pg from 'pg';

/** The newest stored price of a currency. */
export interface StoredRate {
  provider: string;
  /** USDT per unit, exact decimal string. */
  price: string;
  fetchedAt: Date;
}

/**
 * The newest row of `public.rates` per currency (any provider), for the codes in the text[]
 * parameter `codes` (e.g. `$1`): `refreshRates` only writes the preferred provider's price, so
 * the newest row is the preferred fresh one. `fetched_at` as ISO text with milliseconds, the
 * precision a JS Date keeps, so the statement can also sit inside a JSON aggregate.
 */
export const latestRatesSelect = (codes: string) =>
  `SELECT DISTINCT ON (currency_code) currency_code, provider, price_usdt::text AS price_usdt,
          to_char(fetched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS fetched_at
     FROM public.rates
    WHERE currency_code = ANY(${codes}::text[])
    ORDER BY currency_code, fetched_at DESC, provider`;

/** A row of latestRatesSelect. */
export interface LatestRateRow {
  currency_code: string;
  provider: string;
  price_usdt: string;
  fetched_at: string;
}

/** latestRatesSelect's rows by currency code. */
export const ratesByCode = (rows: readonly LatestRateRow[]): Map<string, StoredRate> =>
  new Map(
    rows.map((row) => [
      row.currency_code,
      { provider: row.provider, price: row.price_usdt, fetchedAt: new Date(row.fetched_at) },
    ]),
  );

/** The newest stored price of each of `codes` (latestRatesSelect). */
export async function latestRates(
  db: Pick<pg.Pool, 'query'>,
  codes: readonly string[],
): Promise<Map<string, StoredRate>> {
  const { rows } = await db.query<LatestRateRow>(latestRatesSelect('$1'), [codes]);
  return ratesByCode(rows);
}

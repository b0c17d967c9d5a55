import type pg from 'pg';

/** The newest stored price of a currency. */
export interface StoredRate {
  provider: string;
  /** USDT per unit, exact decimal string. */
  price: string;
  fetchedAt: Date;
}

/**
 * The newest row of `public.rates` per currency (any provider), for quoting: `refreshRates`
 * only writes the preferred provider's price, so the newest row is the preferred fresh one.
 */
export async function latestRates(
  db: Pick<pg.Pool, 'query'>,
  codes: readonly string[],
): Promise<Map<string, StoredRate>> {
  const { rows } = await db.query<{
    currency_code: string;
    provider: string;
    price_usdt: string;
    fetched_at: Date;
  }>(
    `SELECT DISTINCT ON (currency_code) currency_code, provider, price_usdt::text AS price_usdt, fetched_at
       FROM public.rates
      WHERE currency_code = ANY($1::text[])
      ORDER BY currency_code, fetched_at DESC, provider`,
    [codes],
  );
  return new Map(
    rows.map((row) => [
      row.currency_code,
      { provider: row.provider, price: row.price_usdt, fetchedAt: row.fetched_at },
    ]),
  );
}

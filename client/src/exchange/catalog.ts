import type { CurrencyOption, ExchangeCatalog } from '@app/shared/exchange';

import type { ExchangeCatalogQuery } from '../graphql/generated/anonymous.ts';

/** The ExchangeCatalog query's answer as the widgets use it: options, and targets per source. */
export function toExchangeCatalog(data: ExchangeCatalogQuery): ExchangeCatalog {
  const currencies = data.currencies.map((row) => ({
    code: row.code,
    symbol: row.symbol,
    name: row.name,
    kind: row.kind as CurrencyOption['kind'],
    network: row.network,
    precision: row.precision,
    minAmount: String(row.min_amount),
    maxAmount: String(row.max_amount),
    memoRequired: row.memo_required,
  }));
  const known = new Set(currencies.map((currency) => currency.code));
  const directions: Record<string, string[]> = {};
  for (const { from_currency: from, to_currency: to } of data.exchange_directions) {
    if (!known.has(from) || !known.has(to)) continue;
    (directions[from] ??= []).push(to);
  }
  return { currencies, directions };
}

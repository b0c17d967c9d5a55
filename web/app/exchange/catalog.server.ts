import { ExchangeCatalogDocument } from '#app/graphql/generated/anonymous.ts';
import { graphqlRequest } from '#app/graphql/request.ts';

import type { CurrencyOption, ExchangeCatalog } from './types.ts';

/** Reference data changes rarely; every page render need not ask the engine again. */
const TTL_MS = 60_000;
let cached: { at: number; catalog: Promise<ExchangeCatalog> } | undefined;

/** The enabled currencies and directions, as visitors may see them (role anonymous). */
export function loadExchangeCatalog(graphqlUrl: string): Promise<ExchangeCatalog> {
  const now = Date.now();
  if (cached && now - cached.at < TTL_MS) return cached.catalog;
  const catalog = graphqlRequest(graphqlUrl, ExchangeCatalogDocument, {}).then((data) => {
    const currencies = data.currencies.map((row) => ({
      code: row.code,
      symbol: row.symbol,
      name: row.name,
      kind: row.kind as CurrencyOption['kind'],
      network: row.network,
      precision: row.precision,
      minAmount: String(row.min_amount),
      maxAmount: String(row.max_amount),
    }));
    const known = new Set(currencies.map((currency) => currency.code));
    const directions: Record<string, string[]> = {};
    for (const { from_currency: from, to_currency: to } of data.exchange_directions) {
      if (!known.has(from) || !known.has(to)) continue;
      (directions[from] ??= []).push(to);
    }
    return { currencies, directions };
  });
  cached = { at: now, catalog };
  // A failure is not cached: the next render asks again.
  catalog.catch(() => {
    if (cached?.catalog === catalog) cached = undefined;
  });
  return catalog;
}

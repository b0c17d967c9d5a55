import { graphqlRequest } from '#app/graphql/request.ts';

import type { CurrencyOption, ExchangeCatalog } from './types.ts';

const CATALOG_QUERY = `query ExchangeCatalogQuery {
  currencies(order_by: [{ sort_order: asc }, { code: asc }]) {
    code symbol name kind network precision min_amount max_amount
  }
  exchange_directions(order_by: [{ sort_order: asc }, { slug: asc }]) { from_currency to_currency }
}`;

interface CatalogData {
  currencies: Array<{
    code: string;
    symbol: string;
    name: string;
    kind: CurrencyOption['kind'];
    network: string | null;
    precision: number;
    min_amount: string;
    max_amount: string;
  }>;
  exchange_directions: Array<{ from_currency: string; to_currency: string }>;
}

/** Reference data changes rarely; every page render need not ask the engine again. */
const TTL_MS = 60_000;
let cached: { at: number; catalog: Promise<ExchangeCatalog> } | undefined;

/** The enabled currencies and directions, as visitors may see them (role anonymous). */
export function loadExchangeCatalog(graphqlUrl: string): Promise<ExchangeCatalog> {
  const now = Date.now();
  if (cached && now - cached.at < TTL_MS) return cached.catalog;
  const catalog = graphqlRequest<CatalogData>(graphqlUrl, CATALOG_QUERY).then((data) => {
    const currencies = data.currencies.map((row) => ({
      code: row.code,
      symbol: row.symbol,
      name: row.name,
      kind: row.kind,
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

import { ExchangeCatalogDocument } from '@app/client/graphql/generated/anonymous.ts';
import { graphqlRequest } from '@app/client/graphql/request.ts';

import { toExchangeCatalog } from '@app/client/exchange/catalog.ts';
import type { ExchangeCatalog } from '@app/shared/exchange';

/** Reference data changes rarely; every page render need not ask the engine again. */
const TTL_MS = 60_000;
let cached: { at: number; catalog: Promise<ExchangeCatalog> } | undefined;

/** The enabled currencies and directions, as visitors may see them (role anonymous). */
export function loadExchangeCatalog(graphqlUrl: string): Promise<ExchangeCatalog> {
  const now = Date.now();
  if (cached && now - cached.at < TTL_MS) return cached.catalog;
  const catalog = graphqlRequest(graphqlUrl, ExchangeCatalogDocument, {}).then(toExchangeCatalog);
  cached = { at: now, catalog };
  // A failure is not cached: the next render asks again.
  catalog.catch(() => {
    if (cached?.catalog === catalog) cached = undefined;
  });
  return catalog;
}

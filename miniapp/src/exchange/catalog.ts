import { useEffect, useState } from 'react';

import { toExchangeCatalog } from '@app/client/exchange/catalog.ts';
import type { ExchangeCatalog } from '@app/shared/exchange';
import { ExchangeCatalogDocument } from '@app/client/graphql/generated/anonymous.ts';
import { graphqlRequest } from '@app/client/graphql/request.ts';

import { browserEnv, miniappConfig } from '../env.ts';

/*
 * The currencies and directions (anonymous reference data): asked for as the app starts, in
 * parallel with Telegram's start-up and the sign-in, and kept for the launch.
 */

export type CatalogState =
  { status: 'loading' } | { status: 'ready'; catalog: ExchangeCatalog } | { status: 'error' };

let pending: Promise<ExchangeCatalog> | undefined;

export function preloadCatalog(): Promise<ExchangeCatalog> {
  const served = miniappConfig().catalog;
  if (served) return Promise.resolve(served);
  pending ??= graphqlRequest(browserEnv().PUBLIC_GRAPHQL_URL, ExchangeCatalogDocument, {}).then(
    toExchangeCatalog,
  );
  // A failure is not kept: "try again" asks anew.
  pending.catch(() => {
    pending = undefined;
  });
  return pending;
}

export function useCatalog(): { state: CatalogState; retry: () => void } {
  // The catalog the page came with renders in the first paint; otherwise it is fetched.
  const [served] = useState(() => miniappConfig().catalog);
  const [state, setState] = useState<CatalogState>(() =>
    served ? { status: 'ready', catalog: served } : { status: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt === 0 && served) return;
    let live = true;
    setState({ status: 'loading' });
    preloadCatalog().then(
      (catalog) => live && setState({ status: 'ready', catalog }),
      () => live && setState({ status: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [attempt, served]);
  return { state, retry: () => setAttempt((value) => value + 1) };
}

import { useEffect, useState } from 'react';

import { toExchangeCatalog } from '@app/web/app/exchange/catalog.ts';
import type { ExchangeCatalog } from '@app/web/app/exchange/types.ts';
import { ExchangeCatalogDocument } from '@app/web/app/graphql/generated/anonymous.ts';
import { graphqlRequest } from '@app/web/app/graphql/request.ts';

import { browserEnv } from '../env.ts';

/*
 * The currencies and directions (anonymous reference data): asked for as the app starts, in
 * parallel with Telegram's start-up and the sign-in, and kept for the launch.
 */

export type CatalogState =
  { status: 'loading' } | { status: 'ready'; catalog: ExchangeCatalog } | { status: 'error' };

let pending: Promise<ExchangeCatalog> | undefined;

export function preloadCatalog(): Promise<ExchangeCatalog> {
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
  const [state, setState] = useState<CatalogState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    preloadCatalog().then(
      (catalog) => live && setState({ status: 'ready', catalog }),
      () => live && setState({ status: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  return { state, retry: () => setAttempt((value) => value + 1) };
}

import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

import { loadCatalog } from '@app/client/i18n/i18n.ts';
import { splitLocalePath } from '@app/shared/i18n';

import { reloadForChunkError } from './build-check/build-check.tsx';

/*
 * React Router's default browser entry, with one step first: the page's locale comes from its
 * URL (as the root layout reads it), and only that locale's catalogs are loaded, a chunk of
 * their own, before hydration, so the browser renders the same text as the server did.
 */

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

loadCatalog(splitLocalePath(window.location.pathname).locale).then(hydrate, (error: unknown) => {
  // A chunk of an earlier build: reload once for the current one. Otherwise the server-rendered
  // page stays as it is (readable, its links work), just not interactive.
  if (reloadForChunkError(error)) return;
  // eslint-disable-next-line no-console
  console.error('the page was not hydrated: its texts failed to load', error);
});

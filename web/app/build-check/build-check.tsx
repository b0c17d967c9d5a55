import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

import { isChunkLoadError, reloadOnce } from '@app/client/build-check/chunk-errors.ts';
import { createBuildWatcher, fetchBuildId } from './watcher.ts';

/*
 * Spec section 2: the new-build check and the reload when a page part fails to load. Mounted once
 * in the root route. The banner's live region exists from the first render, so screen readers
 * announce the message when it appears.
 */

/** Above the page, centred at the top; clicks pass through everywhere but the banner itself. */
const REGION_STYLE: CSSProperties = {
  position: 'fixed',
  top: '1rem',
  right: '1rem',
  left: '1rem',
  zIndex: 40,
  display: 'grid',
  justifyItems: 'center',
  pointerEvents: 'none',
};
const BANNER_STYLE: CSSProperties = { alignItems: 'center' };

/** sessionStorage, or undefined where the browser refuses it. */
function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

const reloadPage = () => window.location.reload();

/** Reloads the page unless it already reloaded for this build (see chunk-errors.ts). */
function reloadForBuild(buildId?: string): boolean {
  return reloadOnce({
    storage: sessionStore(),
    reload: reloadPage,
    buildId: buildId ?? window.__PUBLIC_ENV__?.BUILD_ID ?? 'unknown',
  });
}

/** Reloads once when `error` is a page part that failed to load; true when it reloads. */
export function reloadForChunkError(error: unknown, buildId?: string): boolean {
  if (typeof window === 'undefined' || !isChunkLoadError(error)) return false;
  return reloadForBuild(buildId);
}

/** For error boundaries: React Router hands them a route part that failed to load. */
export function useReloadOnChunkError(error: unknown): void {
  useEffect(() => {
    reloadForChunkError(error);
  }, [error]);
}

export function BuildCheck({ buildId }: { buildId: string }) {
  const { t } = useTranslation();
  const [newBuild, setNewBuild] = useState(false);

  // The new-build check: every five minutes, and when the tab comes back.
  useEffect(() => {
    const watcher = createBuildWatcher({
      currentId: buildId,
      readBuildId: () => fetchBuildId((url, init) => window.fetch(url, init)),
      onNewBuild: () => setNewBuild(true),
    });
    watcher.start();
    const onFocus = () => {
      if (document.visibilityState === 'visible') void watcher.focused();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      watcher.stop();
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, [buildId]);

  // Page parts that fail outside React Router's boundaries: Vite's preload helper and lazy imports.
  useEffect(() => {
    const onPreloadError = (event: Event) => {
      // Vite failed to load a part a dynamic import needs. Handled by reloading: the error need
      // not be thrown on; on the second failure it is, and the error page shows.
      if (reloadForBuild(buildId)) event.preventDefault();
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      if (reloadForChunkError(event.reason, buildId)) event.preventDefault();
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('vite:preloadError', onPreloadError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, [buildId]);

  return (
    <div role="status" aria-live="polite" className="build-check" style={REGION_STYLE}>
      {newBuild ? (
        <div className="toast" style={BANNER_STYLE}>
          <p className="toast__body toast__title">{t('newVersion')}</p>
          <button
            type="button"
            className="button button--primary button--small"
            onClick={reloadPage}
          >
            {t('reload')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

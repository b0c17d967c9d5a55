/*
 * Spec section 2: "reloads the page when a page part fails to load". After a deployment the
 * previous build's chunks are gone, so a tab opened before it fails to import the next page part.
 * A reload fetches the new build. It happens at most once per build in a tab (sessionStorage), so
 * a part that is really missing shows the error page instead of reloading forever.
 */

/** The key in sessionStorage holding the build id the page was last reloaded for. */
export const RELOAD_GUARD_KEY = 'build-check:chunk-reload';

/** What browsers and bundlers say when a script or style part of the app cannot be loaded. */
const CHUNK_ERROR_MESSAGES = [
  /failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /importing a module script failed/i, // Safari
  /unable to preload css/i, // Vite's preload helper
  /loading (?:css )?chunk [\w-]+ failed/i, // webpack-style loaders
];

/** Whether an error (from an error boundary, a rejection or `vite:preloadError`) is a failed part. */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) {
    return typeof error === 'string' && CHUNK_ERROR_MESSAGES.some((pattern) => pattern.test(error));
  }
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'ChunkLoadError') return true;
  return (
    typeof message === 'string' && CHUNK_ERROR_MESSAGES.some((pattern) => pattern.test(message))
  );
}

export interface ReloadDeps {
  /** sessionStorage (or undefined where it is unavailable: then the page never reloads). */
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  reload: () => void;
  /** The build the page runs. */
  buildId: string;
}

/**
 * Reloads the page unless it was already reloaded for this build in this tab. Returns whether it
 * reloaded. Without a working sessionStorage it does not reload: a loop could not be stopped.
 */
export function reloadOnce({ storage, reload, buildId }: ReloadDeps): boolean {
  if (!storage) return false;
  try {
    if (storage.getItem(RELOAD_GUARD_KEY) === buildId) return false;
    storage.setItem(RELOAD_GUARD_KEY, buildId);
  } catch {
    return false;
  }
  reload();
  return true;
}

/*
 * Spec section 2: "The app checks periodically for a new build". The server answers
 * `GET /build.json` with `{ buildId }` (web/server/main.ts); the page knows the id it was built
 * with (publicEnv.BUILD_ID). The watcher asks every five minutes, and when the tab comes back
 * into view, and reports the first id that differs. No DOM here: timers and fetch are given.
 */

export const BUILD_JSON_PATH = '/build.json';
/** How often the watcher asks (spec: periodically; 5 minutes). */
export const CHECK_INTERVAL_MS = 5 * 60_000;
/** A focus or visibility change asks again only if the last check is at least this old. */
export const MIN_FOCUS_GAP_MS = 15_000;

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** The build id the server reports, or undefined when it cannot be read (offline, 5xx, junk). */
export async function fetchBuildId(
  fetchImpl: Fetch,
  url: string = BUILD_JSON_PATH,
): Promise<string | undefined> {
  try {
    const response = await fetchImpl(url, {
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as unknown;
    const buildId = (body as { buildId?: unknown } | null)?.buildId;
    return typeof buildId === 'string' && buildId.length > 0 ? buildId : undefined;
  } catch {
    return undefined;
  }
}

export interface Timers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  now(): number;
}

export interface BuildWatcherOptions {
  /** The id this page was built with. */
  currentId: string;
  /** Reads the deployed id (undefined when unknown: nothing is reported then). */
  readBuildId: () => Promise<string | undefined>;
  /** Called once, with the first deployed id that differs from `currentId`. */
  onNewBuild: (buildId: string) => void;
  intervalMs?: number;
  minFocusGapMs?: number;
  timers?: Timers;
}

export interface BuildWatcher {
  start(): void;
  stop(): void;
  /** Checks now; resolves to whether a new build is known. */
  check(): Promise<boolean>;
  /** The tab came into view: checks unless a check ran a moment ago. */
  focused(): Promise<boolean>;
}

const defaultTimers: Timers = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  now: () => Date.now(),
};

export function createBuildWatcher(options: BuildWatcherOptions): BuildWatcher {
  const timers = options.timers ?? defaultTimers;
  const intervalMs = options.intervalMs ?? CHECK_INTERVAL_MS;
  const minFocusGapMs = options.minFocusGapMs ?? MIN_FOCUS_GAP_MS;
  let handle: unknown;
  let found: string | undefined;
  let lastCheck = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<boolean> | undefined;

  const stop = () => {
    if (handle !== undefined) timers.clearInterval(handle);
    handle = undefined;
  };

  const check = (): Promise<boolean> => {
    if (found !== undefined) return Promise.resolve(true);
    if (inFlight) return inFlight;
    lastCheck = timers.now();
    inFlight = options
      .readBuildId()
      .then((buildId) => {
        if (found !== undefined) return true;
        if (buildId === undefined || buildId === options.currentId) return false;
        found = buildId;
        // Once a new build is known there is nothing more to learn.
        stop();
        options.onNewBuild(buildId);
        return true;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  return {
    start() {
      if (handle !== undefined || found !== undefined) return;
      handle = timers.setInterval(() => void check(), intervalMs);
    },
    stop,
    check,
    focused() {
      if (timers.now() - lastCheck < minFocusGapMs) return Promise.resolve(found !== undefined);
      return check();
    },
  };
}

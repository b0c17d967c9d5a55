import type { StartParam } from '@app/shared/telegram';

/** The in-app path a deep link opens: its order, or the exchange of its pair. */
export function deepLinkTarget(link: StartParam): string | undefined {
  if (link.orderId) return `/transaction/${link.orderId}`;
  if (link.pair) {
    const query = new URLSearchParams({ from: link.pair.from, to: link.pair.to });
    return `/?${query.toString()}`;
  }
  return undefined;
}

const HANDLED_KEY = 'miniapp.deepLinkOpened';

/**
 * Opens a launch's deep link once per launch: on its first page, before the router reads the
 * address. A reload later in the launch (the same launch data) stays where the person is; the
 * next launch in the same tab (Telegram Web keeps one tab for every launch, and so one
 * sessionStorage) opens its own link. `launchId` names the launch: its init data's signature,
 * which Telegram makes anew for every launch.
 */
export function openDeepLink(basePath: string, target: string | undefined, launchId: string): void {
  if (!target) return;
  try {
    if (window.sessionStorage.getItem(HANDLED_KEY) === launchId) return;
    window.sessionStorage.setItem(HANDLED_KEY, launchId);
  } catch {
    // No storage: the link opens on every load, which is still right on the first.
  }
  window.history.replaceState(null, '', `${basePath}${target}${window.location.hash}`);
}

/** The signature of a launch's init data (`hash`), or the whole data when it has none. */
export const launchIdOf = (initData: string): string =>
  new URLSearchParams(initData).get('hash') ?? initData;

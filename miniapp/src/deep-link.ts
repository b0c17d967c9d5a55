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
 * Opens the launch's deep link once: on its first page, before the router reads the address.
 * A reload later in the launch (same launch data) stays where the person is.
 */
export function openDeepLink(basePath: string, target: string | undefined): void {
  if (!target) return;
  try {
    if (window.sessionStorage.getItem(HANDLED_KEY)) return;
    window.sessionStorage.setItem(HANDLED_KEY, '1');
  } catch {
    // No storage: the link opens on every load, which is still right on the first.
  }
  window.history.replaceState(null, '', `${basePath}${target}${window.location.hash}`);
}

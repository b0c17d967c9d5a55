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

import { localizePath, type Locale } from '@app/shared/i18n';

import { browserEnv } from '../env.ts';
import { openExternalLink } from '../telegram/sdk.ts';

/*
 * Pages that live on the web portal, not in the mini-app: the settings (the anti-phishing
 * phrase), the contact form and a completed order's receipt. Telegram opens them in its browser.
 */

/** The portal's address of `path` in `locale` (`https://site/ru/settings`). */
export function webPageUrl(path: string, locale: Locale): string {
  return `${browserEnv().PUBLIC_SITE_URL}${localizePath(path, locale)}`;
}

export const webPages = {
  settings: '/settings',
  contact: '/contact',
  receipt: (id: string) => `/transaction/${id}/receipt`,
} as const;

/** Opens a portal page in Telegram's browser (a new tab outside Telegram). */
export function openWebPage(path: string, locale: Locale): void {
  openExternalLink(webPageUrl(path, locale));
}

import { localizePath, type Locale } from '@app/shared/i18n';

import { browserEnv } from '../env.ts';
import { openExternalLink } from '../telegram/sdk.ts';

/*
 * Pages that live on the web portal, not in the mini-app: the contact form, which needs no
 * sign-in. Telegram opens it in its browser. Settings and receipts are the app's own screens
 * (paths.ts): an account made by Telegram sign-in cannot sign in to the portal (issue 22).
 */

/** The portal's address of `path` in `locale` (`https://site/ru/settings`). */
export function webPageUrl(path: string, locale: Locale): string {
  return `${browserEnv().PUBLIC_SITE_URL}${localizePath(path, locale)}`;
}

export const webPages = {
  contact: '/contact',
} as const;

/** Opens a portal page in Telegram's browser (a new tab outside Telegram). */
export function openWebPage(path: string, locale: Locale): void {
  openExternalLink(webPageUrl(path, locale));
}

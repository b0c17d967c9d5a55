import { localizePath, splitLocalePath, type Locale } from '@app/shared/i18n';

/** Pages a sign-in never returns to (they would loop or make no sense once signed in). */
const AUTH_PAGES = /^\/(login|sign-up|reset-password|change-password(\/.*)?)$/;
const BASE = 'http://portal.invalid';

/**
 * Where to go after login: `redirectTo` when it is a path on this site (SECURITY.md 12: no
 * open redirect, so no other origin, no `//host`, no backslashes), else the locale's home.
 */
export function safeRedirect(target: string | null | undefined, locale: Locale): string {
  const home = localizePath('/', locale);
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.includes('\\')) {
    return home;
  }
  let url: URL;
  try {
    url = new URL(target, BASE);
  } catch {
    return home;
  }
  if (url.origin !== BASE) return home;
  if (AUTH_PAGES.test(splitLocalePath(url.pathname).path)) return home;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page of a locale, remembering where to come back to. */
export function loginPath(locale: Locale, redirectTo?: string): string {
  const login = localizePath('/login', locale);
  const back = redirectTo === undefined ? undefined : safeRedirect(redirectTo, locale);
  return back === undefined || back === localizePath('/', locale)
    ? login
    : `${login}?redirectTo=${encodeURIComponent(back)}`;
}

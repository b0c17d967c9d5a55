import { localizePath, splitLocalePath, type Locale } from '@app/shared/i18n';

/** Pages a sign-in never returns to (they would loop or make no sense once signed in). */
const AUTH_PAGES = /^\/(login|sign-up|reset-password|change-password(\/.*)?)$/;
/** Any origin of ours: a path resolves the same way against every one. */
const BASE = 'http://portal.invalid';

/**
 * Where to go after login: `redirectTo` when it is a path on this site (SECURITY.md 12: no
 * open redirect), else the locale's home. The URL API resolves it as the browser would (it
 * drops tabs and newlines, reads `\` as `/`, removes dot segments), and the answer is the
 * resolved path, accepted only when it is on our origin and reads as the same path when the
 * browser resolves it again: `/.//evil.example` resolves to the path `//evil.example`, which a
 * second resolution reads as another host.
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
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//')) return home;
  // The answer must stand on its own: resolved again, it is exactly this URL.
  if (new URL(path, BASE).href !== url.href) return home;
  if (AUTH_PAGES.test(splitLocalePath(url.pathname).path)) return home;
  return path;
}

/** The login page of a locale, remembering where to come back to. */
export function loginPath(locale: Locale, redirectTo?: string): string {
  const login = localizePath('/login', locale);
  const back = redirectTo === undefined ? undefined : safeRedirect(redirectTo, locale);
  return back === undefined || back === localizePath('/', locale)
    ? login
    : `${login}?redirectTo=${encodeURIComponent(back)}`;
}

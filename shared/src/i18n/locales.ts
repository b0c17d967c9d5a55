/*
 * The interface languages (spec section 1): English without a route prefix, Russian under /ru,
 * Ukrainian under /ua; Ukrainian's language tag is uk-UA.
 */

export const LOCALES = ['en', 'ru', 'ua'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The `lang` attribute and hreflang of each locale. */
export const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en', ru: 'ru', ua: 'uk-UA' };

/** The cookie that keeps the chosen locale, for 365 days (spec section 4). */
export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** A stored locale (an order's, a user's), English when it is missing or unknown. */
export const localeOrDefault = (value: unknown): Locale =>
  isLocale(value) ? value : DEFAULT_LOCALE;

/** `ru-RU`, `uk`, `ua`, `en-GB` → a locale, else undefined. */
export function localeFromTag(tag: string): Locale | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'ru') return 'ru';
  if (primary === 'uk' || primary === 'ua') return 'ua';
  if (primary === 'en') return 'en';
  return undefined;
}

/** The best-weighted language of an Accept-Language header that we support. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = localeFromTag(tag);
    if (locale) return locale;
  }
  return undefined;
}

/** The route prefix of a locale: '' for English, '/ru', '/ua'. */
export const localePrefix = (locale: Locale): string =>
  locale === DEFAULT_LOCALE ? '' : `/${locale}`;

/** Splits `/ru/login` into `ru` and `/login`; a path without a prefix is English. */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  const match = /^\/(ru|ua)(?=\/|$)(.*)$/.exec(pathname);
  if (!match) return { locale: DEFAULT_LOCALE, path: pathname || '/' };
  return { locale: match[1] as Locale, path: match[2] || '/' };
}

/** The same page in another locale. */
export const localizePath = (path: string, locale: Locale): string => {
  const prefixed = `${localePrefix(locale)}${path === '/' ? '' : path}`;
  return prefixed === '' ? '/' : prefixed;
};

/** The interface languages (spec section 1); `ua` is Ukrainian, tagged uk-UA in browsers. */
export const LOCALES = ['en', 'ru', 'ua'] as const;
export type Locale = (typeof LOCALES)[number];

export type Messages = Record<Locale, string>;

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** Maps a language tag (`ru-RU`, `uk`, `ua`, `en-GB`) to one of our locales, or undefined. */
function fromTag(tag: string): Locale | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'ru') return 'ru';
  if (primary === 'uk' || primary === 'ua') return 'ua';
  if (primary === 'en') return 'en';
  return undefined;
}

/**
 * The locale a request asks for: an explicit `locale` field first, then the best-weighted
 * language of Accept-Language that we support, else English.
 */
export function resolveLocale(explicit: unknown, acceptLanguage: string | undefined): Locale {
  if (isLocale(explicit)) return explicit;
  if (typeof explicit === 'string') {
    const mapped = fromTag(explicit);
    if (mapped) return mapped;
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
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
      const mapped = fromTag(tag);
      if (mapped) return mapped;
    }
  }
  return 'en';
}

/** Locale from a Telegram `language_code` (IETF tag), for accounts created by the mini-app. */
export const localeFromLanguageCode = (code: unknown): Locale =>
  (typeof code === 'string' ? fromTag(code) : undefined) ?? 'en';

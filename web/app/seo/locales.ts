import type { Locale } from '@app/shared/i18n';

/**
 * The hreflang of each locale in the sitemap. The URL prefix of Ukrainian is /ua, but `ua` is
 * no language code (it is the country code of Ukraine); the language is `uk`.
 */
export const HREFLANG: Record<Locale, string> = { en: 'en', ru: 'ru', ua: 'uk' };

/** og:locale wants `language_TERRITORY` (Open Graph protocol); en_US is its default. */
export const OG_LOCALE: Record<Locale, string> = { en: 'en_US', ru: 'ru_RU', ua: 'uk_UA' };

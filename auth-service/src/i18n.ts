import {
  DEFAULT_LOCALE,
  isLocale,
  localeFromAcceptLanguage,
  localeFromTag,
  type Locale,
} from '@app/shared/i18n';

/** The interface languages (spec section 1): the shared definition, `ua` tagged uk-UA. */
export type { Locale } from '@app/shared/i18n';

/**
 * The locale a request asks for: an explicit `locale` field first, then the best-weighted
 * language of Accept-Language that we support, else English.
 */
export function resolveLocale(explicit: unknown, acceptLanguage: string | undefined): Locale {
  if (isLocale(explicit)) return explicit;
  const mapped = typeof explicit === 'string' ? localeFromTag(explicit) : undefined;
  return mapped ?? localeFromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}

/** Locale from a Telegram `language_code` (IETF tag), for accounts created by the mini-app. */
export const localeFromLanguageCode = (code: unknown): Locale =>
  (typeof code === 'string' ? localeFromTag(code) : undefined) ?? DEFAULT_LOCALE;

import { createInstance, type TFunction } from 'i18next';

import { DEFAULT_LOCALE, localeFromTag, LOCALES, type Locale } from '@app/shared/i18n';
import { botCatalogs } from '@app/shared/i18n/bot';

/*
 * The bot's words in the person's language. Messages go out as plain text (no parse mode), so
 * what people typed (names, messages) can never become markup.
 */

const i18n = createInstance();
void i18n.init({
  resources: Object.fromEntries(LOCALES.map((locale) => [locale, { bot: botCatalogs[locale] }])),
  ns: ['bot'],
  defaultNS: 'bot',
  fallbackLng: false,
  initAsync: false,
  interpolation: { escapeValue: false },
});

export const translator = (locale: Locale): TFunction<'bot'> => i18n.getFixedT(locale, 'bot');

/** A Telegram user's `language_code` as a locale: uk is ua, ru is ru, anything else English. */
export const localeOfTelegram = (languageCode: string | undefined): Locale =>
  (languageCode ? localeFromTag(languageCode) : undefined) ?? DEFAULT_LOCALE;

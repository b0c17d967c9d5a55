import { errors as en } from '#src/i18n/catalogs/en/errors';
import { errors as ru } from '#src/i18n/catalogs/ru/errors';
import { errors as ua } from '#src/i18n/catalogs/ua/errors';
import type { Locale } from '#src/i18n/locales';

import type { ErrorCode } from './catalog.ts';

/*
 * The catalog's messages without i18next, for a server that answers a code with its text in
 * the request's language (the auth service): the `errors` namespace's catalogs themselves.
 */
const MESSAGES: Readonly<Record<Locale, Readonly<Record<ErrorCode, string>>>> = { en, ru, ua };

/** The message of `code` in `locale`. */
export const errorMessage = (code: ErrorCode, locale: Locale): string => MESSAGES[locale][code];

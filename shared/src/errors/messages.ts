import { errors as en } from '../i18n/catalogs/en/errors.ts';
import { errors as ru } from '../i18n/catalogs/ru/errors.ts';
import { errors as ua } from '../i18n/catalogs/ua/errors.ts';
import type { Locale } from '../i18n/locales.ts';

import type { ErrorCode } from './catalog.ts';

/*
 * The catalog's messages without i18next, for a server that answers a code with its text in
 * the request's language (the auth service): the `errors` namespace's catalogs themselves,
 * every locale at once, so not for browsers (they load the namespace with their locale).
 */
const MESSAGES: Readonly<Record<Locale, Readonly<Record<ErrorCode, string>>>> = { en, ru, ua };

/** The message of `code` in `locale`. */
export const errorMessage = (code: ErrorCode, locale: Locale): string => MESSAGES[locale][code];

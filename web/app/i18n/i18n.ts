import { createInstance, type i18n } from 'i18next';

import { NAMESPACES, resources, type Locale } from '@app/shared/i18n';

/**
 * An i18next instance for one locale, initialised synchronously from the bundled catalogs, so
 * the server renders and the browser hydrates the same text. A missing key is an error in the
 * console (end-to-end tests fail on it) rather than a silent fallback.
 */
export function createI18n(locale: Locale): i18n {
  const instance = createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: false,
    resources,
    ns: NAMESPACES,
    defaultNS: 'common',
    initAsync: false,
    interpolation: { escapeValue: false },
    saveMissing: true,
    missingKeyHandler: (_languages, namespace, key) => {
      // eslint-disable-next-line no-console
      console.error(`missing translation ${locale}:${namespace}:${key}`);
    },
  });
  return instance;
}

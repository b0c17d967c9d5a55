import { createInstance, type i18n } from 'i18next';
import { useMemo } from 'react';

import {
  loadResources,
  loadStaffResources,
  resources,
  type Locale,
  type LocaleResources,
  type StaffResources,
} from '@app/shared/i18n';

export { keyFromData, translateData, type AnyT, type TextKey } from './typed-keys.ts';

/*
 * The interface texts. The server has every locale (`resources`); a browser loads only its
 * page's locale, a chunk of its own (`loadCatalog`, awaited in entry.client.tsx before
 * hydration), and another one only if a client-side navigation crosses into another locale.
 */

/** The locales this browser has loaded. */
const loaded = new Map<Locale, LocaleResources>();
const loading = new Map<Locale, Promise<void>>();

/** The catalogs of `locale` when they are here: always on the server, once loaded in a browser. */
export function catalogOf(locale: Locale): LocaleResources | undefined {
  return import.meta.env.SSR ? resources[locale] : loaded.get(locale);
}

/** The staff console's catalogs this browser has loaded (its pages load them). */
const loadedStaff = new Map<Locale, StaffResources>();

/**
 * Loads the staff console's catalogs of `locale` into this browser and into `instance`, so a
 * console page can render; later instances of the locale include them too.
 */
export async function loadStaffCatalog(instance: i18n, locale: Locale): Promise<void> {
  let catalog = loadedStaff.get(locale);
  if (!catalog) {
    catalog = await loadStaffResources(locale);
    loadedStaff.set(locale, catalog);
  }
  for (const [namespace, bundle] of Object.entries(catalog)) {
    instance.addResourceBundle(locale, namespace, bundle, true, true);
  }
}

/** Whether `instance` has the staff console's texts (always on the server). */
export const hasStaffCatalog = (instance: i18n, locale: Locale): boolean =>
  instance.hasResourceBundle(locale, 'staffOrders');

/** Loads the catalogs of `locale` (once; a failed load is tried again on the next call). */
export function loadCatalog(locale: Locale): Promise<void> {
  if (catalogOf(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = loadResources(locale).then(
      (catalog) => {
        loaded.set(locale, catalog);
      },
      (error: unknown) => {
        loading.delete(locale);
        throw error;
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

/**
 * An i18next instance for one locale, initialised synchronously from its catalogs, so the
 * server renders and the browser hydrates the same text. A missing key (or a locale whose
 * catalogs are not loaded) is an error in the console (end-to-end tests fail on it) rather than
 * a silent fallback: English is not shipped as a fallback, a missing key fails the typecheck.
 */
export function createI18n(locale: Locale): i18n {
  const catalog = catalogOf(locale);
  const staff = import.meta.env.SSR ? undefined : loadedStaff.get(locale);
  const texts = catalog ? { ...catalog, ...staff } : undefined;
  const instance = createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: false,
    resources: texts ? { [locale]: texts } : {},
    ns: texts ? Object.keys(texts) : [],
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

/** Until the catalogs are here: a navigation failed to load them, so the server renders the page. */
function loadOrReload(locale: Locale): Promise<void> {
  return loadCatalog(locale).catch(() => {
    window.location.reload();
    return new Promise<void>(() => {});
  });
}

/**
 * The i18next instance of the page's locale, for the root layout. The first page's catalogs are
 * loaded before hydration; when a client-side navigation enters another locale, this suspends
 * until that locale's chunk is here (navigations are transitions, so the current page stays on
 * screen meanwhile).
 */
export function useI18n(locale: Locale): i18n {
  const ready = catalogOf(locale) !== undefined;
  const instance = useMemo(() => (ready ? createI18n(locale) : null), [locale, ready]);
  // React 18 Suspense: a thrown promise holds the render until it settles.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  if (!instance) throw loadOrReload(locale);
  return instance;
}

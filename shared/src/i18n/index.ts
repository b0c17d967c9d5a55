/*
 * The interface texts of every client (web portal, mini-app, bot), as i18next resources: one
 * module per namespace and locale (catalogs/), gathered per locale in resources/{en,ru,ua}.ts.
 * English is the source; the other locales are typed against it, so a missing or extra key (or
 * namespace) fails the typecheck.
 *
 * Browsers load one locale with `loadResources(locale)`, a chunk of its own, so a page ships
 * only its own language; the staff console's namespaces are another chunk per locale
 * (`loadStaffResources`), which only its pages load. Servers, tests and tools get every locale
 * and namespace at once in `resources`.
 */
import {
  loadResources,
  loadStaffResources,
  type LocaleResources,
  type StaffResources,
} from './load.ts';
import { LOCALES, type Locale } from './locales.ts';

export * from './locales.ts';
export * from './format.ts';
export type { Messages } from './types.ts';
export type { CatalogKey } from './resource-types.ts';
export {
  loadResources,
  loadStaffResources,
  type LocaleResources,
  type Namespace,
  type SourceResources,
  type SourceStaffResources,
  type StaffNamespace,
  type StaffResources,
} from './load.ts';

/** Everything a server may render in one locale: the public catalogs and the staff console's. */
export type AllResources = LocaleResources & StaffResources;

async function loadAll(): Promise<Record<Locale, AllResources>> {
  const entries = await Promise.all(
    LOCALES.map(
      async (locale) =>
        [
          locale,
          { ...(await loadResources(locale)), ...(await loadStaffResources(locale)) },
        ] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<Locale, AllResources>;
}

/** In a browser `resources` is not there: reading it says so instead of giving `undefined`. */
const notInBrowsers = /* @__PURE__ */ new Proxy({} as Record<Locale, AllResources>, {
  get(_, key) {
    throw new Error(
      `resources.${String(key)}: browsers get one locale at a time, with loadResources(locale)`,
    );
  },
});

/**
 * Every locale's catalogs, for servers, tests and tools (loaded before this module finishes
 * evaluating, so they are there synchronously). Browsers never load them all: there, use
 * `loadResources(locale)`. `import.meta.env.SSR` is Vite's flag, false only in browser code
 * (a constant there, so this whole branch leaves the browser bundle), true for Vite's server
 * build and Vitest, absent under Node and tsx.
 */
export const resources: Readonly<Record<Locale, AllResources>> =
  (import.meta as ImportMeta & { env?: { SSR?: boolean } }).env?.SSR === false
    ? notInBrowsers
    : await loadAll();

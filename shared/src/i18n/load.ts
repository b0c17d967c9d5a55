/*
 * The catalogs of one locale, loaded on demand. Each locale is a module of its own
 * (resources/{en,ru,ua}.ts) and, through the dynamic imports below, a chunk of its own in the
 * browser, so a page downloads only its own language.
 *
 * Adding a namespace is one line per locale, in resources/en.ts, resources/ru.ts and
 * resources/ua.ts (next to its catalogs/<locale>/<namespace>.ts): the types below follow
 * English, and a locale without the namespace fails the typecheck.
 */
import type { Locale } from './locales.ts';
import type { en } from './resources/en.ts';
import type { enStaff } from './resources/staff-en.ts';
import type { Catalog } from './types.ts';

/** English's catalogs, namespace by namespace: the source every locale is typed against. */
export type SourceResources = typeof en;
export type Namespace = keyof SourceResources;
/** One locale's catalogs: every namespace and key of English (any text). */
export type LocaleResources = { [N in Namespace]: Catalog<SourceResources[N]> };

const loaders: Record<Locale, () => Promise<LocaleResources>> = {
  en: () => import('./resources/en.ts').then((module) => module.en),
  ru: () => import('./resources/ru.ts').then((module) => module.ru),
  ua: () => import('./resources/ua.ts').then((module) => module.ua),
};

/** The catalogs of `locale` (in the browser, that locale's chunk). */
export const loadResources = (locale: Locale): Promise<LocaleResources> => loaders[locale]();

/** The staff console's namespaces, typed against English like the rest. */
export type SourceStaffResources = typeof enStaff;
export type StaffNamespace = keyof SourceStaffResources;
export type StaffResources = { [N in StaffNamespace]: Catalog<SourceStaffResources[N]> };

const staffLoaders: Record<Locale, () => Promise<StaffResources>> = {
  en: () => import('./resources/staff-en.ts').then((module) => module.enStaff),
  ru: () => import('./resources/staff-ru.ts').then((module) => module.ruStaff),
  ua: () => import('./resources/staff-ua.ts').then((module) => module.uaStaff),
};

/**
 * The staff console's catalogs of `locale`: a chunk of their own, loaded by the console's pages
 * only, so no public page carries them.
 */
export const loadStaffResources = (locale: Locale): Promise<StaffResources> =>
  staffLoaders[locale]();

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
import type { LocaleResources, StaffResources } from './resource-types.ts';

export type {
  LocaleResources,
  Namespace,
  SourceResources,
  SourceStaffResources,
  StaffNamespace,
  StaffResources,
} from './resource-types.ts';

const loaders: Record<Locale, () => Promise<LocaleResources>> = {
  en: () => import('./resources/en.ts').then((module) => module.en),
  ru: () => import('./resources/ru.ts').then((module) => module.ru),
  ua: () => import('./resources/ua.ts').then((module) => module.ua),
};

/** The catalogs of `locale` (in the browser, that locale's chunk). */
export const loadResources = (locale: Locale): Promise<LocaleResources> => loaders[locale]();

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

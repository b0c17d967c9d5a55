/*
 * The interface texts of every client (web portal, mini-app, bot), as i18next resources: one
 * module per namespace and locale. English is the source; the other locales are typed against it,
 * so a missing or extra key fails the typecheck.
 */
import { common as enCommon } from './catalogs/en/common.ts';
import { common as ruCommon } from './catalogs/ru/common.ts';
import { common as uaCommon } from './catalogs/ua/common.ts';
import { home as enHome } from './catalogs/en/home.ts';
import { home as ruHome } from './catalogs/ru/home.ts';
import { home as uaHome } from './catalogs/ua/home.ts';
import type { Locale } from './locales.ts';

export * from './locales.ts';
export type { Messages } from './types.ts';

export const resources = {
  en: { common: enCommon, home: enHome },
  ru: { common: ruCommon, home: ruHome },
  ua: { common: uaCommon, home: uaHome },
} satisfies Record<Locale, Record<string, unknown>>;

export type Namespace = keyof (typeof resources)['en'];
export const NAMESPACES = Object.keys(resources.en) as Namespace[];

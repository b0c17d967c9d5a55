/*
 * The interface texts of every client (web portal, mini-app, bot), as i18next resources: one
 * module per namespace and locale. English is the source; the other locales are typed against it,
 * so a missing or extra key fails the typecheck.
 */
import { account as enAccount } from './catalogs/en/account.ts';
import { account as ruAccount } from './catalogs/ru/account.ts';
import { account as uaAccount } from './catalogs/ua/account.ts';
import { auth as enAuth } from './catalogs/en/auth.ts';
import { auth as ruAuth } from './catalogs/ru/auth.ts';
import { auth as uaAuth } from './catalogs/ua/auth.ts';
import { common as enCommon } from './catalogs/en/common.ts';
import { common as ruCommon } from './catalogs/ru/common.ts';
import { common as uaCommon } from './catalogs/ua/common.ts';
import { contact as enContact } from './catalogs/en/contact.ts';
import { contact as ruContact } from './catalogs/ru/contact.ts';
import { contact as uaContact } from './catalogs/ua/contact.ts';
import { exchange as enExchange } from './catalogs/en/exchange.ts';
import { exchange as ruExchange } from './catalogs/ru/exchange.ts';
import { exchange as uaExchange } from './catalogs/ua/exchange.ts';
import { home as enHome } from './catalogs/en/home.ts';
import { home as ruHome } from './catalogs/ru/home.ts';
import { home as uaHome } from './catalogs/ua/home.ts';
import { pages as enPages } from './catalogs/en/pages.ts';
import { pages as ruPages } from './catalogs/ru/pages.ts';
import { pages as uaPages } from './catalogs/ua/pages.ts';
import type { Locale } from './locales.ts';

export * from './locales.ts';
export type { Messages } from './types.ts';

export const resources = {
  en: {
    common: enCommon,
    auth: enAuth,
    exchange: enExchange,
    home: enHome,
    pages: enPages,
    contact: enContact,
    account: enAccount,
  },
  ru: {
    common: ruCommon,
    auth: ruAuth,
    exchange: ruExchange,
    home: ruHome,
    pages: ruPages,
    contact: ruContact,
    account: ruAccount,
  },
  ua: {
    common: uaCommon,
    auth: uaAuth,
    exchange: uaExchange,
    home: uaHome,
    pages: uaPages,
    contact: uaContact,
    account: uaAccount,
  },
} satisfies Record<Locale, Record<string, unknown>>;

export type Namespace = keyof (typeof resources)['en'];
export const NAMESPACES = Object.keys(resources.en) as Namespace[];

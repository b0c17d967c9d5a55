/* The Ukrainian catalogs: the same namespaces as English (resources/en.ts), checked by the type. */
import { account } from '../catalogs/ua/account.ts';
import { auth } from '../catalogs/ua/auth.ts';
import { common } from '../catalogs/ua/common.ts';
import { contact } from '../catalogs/ua/contact.ts';
import { errors } from '../catalogs/ua/errors.ts';
import { exchange } from '../catalogs/ua/exchange.ts';
import { home } from '../catalogs/ua/home.ts';
import { links } from '../catalogs/ua/links.ts';
import { miniapp } from '../catalogs/ua/miniapp.ts';
import { pages } from '../catalogs/ua/pages.ts';
import { trust } from '../catalogs/ua/trust.ts';
import type { LocaleResources } from '../resource-types.ts';

export const ua: LocaleResources = {
  common,
  auth,
  exchange,
  home,
  pages,
  contact,
  account,
  miniapp,
  trust,
  links,
  errors,
};

/* The Russian catalogs: the same namespaces as English (resources/en.ts), checked by the type. */
import { account } from '../catalogs/ru/account.ts';
import { auth } from '../catalogs/ru/auth.ts';
import { common } from '../catalogs/ru/common.ts';
import { contact } from '../catalogs/ru/contact.ts';
import { errors } from '../catalogs/ru/errors.ts';
import { exchange } from '../catalogs/ru/exchange.ts';
import { home } from '../catalogs/ru/home.ts';
import { links } from '../catalogs/ru/links.ts';
import { miniapp } from '../catalogs/ru/miniapp.ts';
import { pages } from '../catalogs/ru/pages.ts';
import { trust } from '../catalogs/ru/trust.ts';
import type { LocaleResources } from '../resource-types.ts';

export const ru: LocaleResources = {
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

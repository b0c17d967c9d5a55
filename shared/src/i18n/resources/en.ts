/*
 * The English catalogs, one entry per namespace. English is the source: every other locale is
 * typed against this object, so a namespace added here and missing from ru.ts or ua.ts fails
 * the typecheck. Each locale's file is a chunk of its own in the browser (see ../load.ts).
 *
 * A new namespace: its catalogs/{en,ru,ua}/<name>.ts, and one entry here, in ru.ts and in ua.ts.
 */
import { account } from '../catalogs/en/account.ts';
import { auth } from '../catalogs/en/auth.ts';
import { common } from '../catalogs/en/common.ts';
import { contact } from '../catalogs/en/contact.ts';
import { errors } from '../catalogs/en/errors.ts';
import { exchange } from '../catalogs/en/exchange.ts';
import { home } from '../catalogs/en/home.ts';
import { links } from '../catalogs/en/links.ts';
import { miniapp } from '../catalogs/en/miniapp.ts';
import { pages } from '../catalogs/en/pages.ts';
import { trust } from '../catalogs/en/trust.ts';

export const en = {
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

import {
  index,
  layout,
  prefix,
  route,
  type RouteConfig,
  type RouteConfigEntry,
} from '@react-router/dev/routes';

import { DEFAULT_LOCALE, LOCALES, type Locale } from '@app/shared/i18n';

/*
 * Every route of spec section 2, once per locale: English without a prefix, then /ru and /ua.
 * The same modules serve all three; ids carry the locale so they stay unique, and the page reads
 * its locale from the URL (app/i18n/locale.ts).
 */

function pages(locale: Locale): RouteConfigEntry[] {
  const id = (name: string) => ({ id: `${locale}:${name}` });
  return [
    layout('routes/site-layout.tsx', id('site'), [
      index('routes/home.tsx', id('home')),
      route('*', 'routes/not-found.tsx', id('not-found')),
    ]),
  ];
}

export default [
  ...pages(DEFAULT_LOCALE),
  ...LOCALES.filter((locale) => locale !== DEFAULT_LOCALE).flatMap((locale) =>
    prefix(locale, pages(locale)),
  ),
] satisfies RouteConfig;

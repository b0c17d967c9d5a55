import type { MetaDescriptor } from 'react-router';

import { type TextKey, catalogOf, createI18n } from '@app/client/i18n/i18n.ts';
import {
  LANGUAGE_TAGS,
  LOCALES,
  localizePath,
  splitLocalePath,
  type Locale,
} from '@app/shared/i18n';

import { siteUrlOf } from '#app/utils/public-env.ts';

const instances = new Map<Locale, ReturnType<typeof createI18n>>();

/**
 * A translate function for meta exports, which run outside React (one instance per locale).
 * They run inside the root layout, which waits for the locale's catalogs in a browser.
 */
export function translatorFor(locale: Locale) {
  let instance = instances.get(locale);
  if (!instance) {
    instance = createI18n(locale);
    // Kept only once it has its catalogs, so a too-early call does not stick.
    if (catalogOf(locale)) instances.set(locale, instance);
  }
  return instance.t;
}

interface PageMetaInput {
  pathname: string;
  /** PUBLIC_SITE_URL, from the root loader. */
  siteUrl: string | undefined;
  title: string;
  description: string;
}

/**
 * Title, description, canonical link and the hreflang alternates of the page in every locale
 * (English is also x-default).
 */
export function pageMeta({
  pathname,
  siteUrl,
  title,
  description,
}: PageMetaInput): MetaDescriptor[] {
  const { locale, path } = splitLocalePath(pathname);
  const absolute = (target: string) => `${siteUrl ?? ''}${target}`;
  return [
    { title },
    { name: 'description', content: description },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:locale', content: LANGUAGE_TAGS[locale].replace('-', '_') },
    { tagName: 'link', rel: 'canonical', href: absolute(localizePath(path, locale)) },
    ...LOCALES.map((other) => ({
      tagName: 'link',
      rel: 'alternate',
      hrefLang: LANGUAGE_TAGS[other],
      href: absolute(localizePath(path, other)),
    })),
    {
      tagName: 'link',
      rel: 'alternate',
      hrefLang: 'x-default',
      href: absolute(localizePath(path, 'en')),
    },
  ];
}

interface MetaArgs {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
}

/**
 * The `meta` export of a page whose title and description are catalog keys, e.g.
 * `translatedPageMeta('contact:metaTitle', 'contact:metaDescription')`.
 */
export function translatedPageMeta(titleKey: TextKey, descriptionKey: TextKey) {
  return ({ location, matches }: MetaArgs): MetaDescriptor[] => {
    const t = translatorFor(splitLocalePath(location.pathname).locale);
    return pageMeta({
      pathname: location.pathname,
      siteUrl: siteUrlOf(matches),
      title: t(titleKey),
      description: t(descriptionKey),
    });
  };
}

/**
 * A staff console page's title, "Transactions · Staff console", from the common texts: meta
 * runs in the browser before the console's own texts have loaded.
 */
export const staffTitle = (
  t: ReturnType<typeof translatorFor>,
  page: 'transactions' | 'managers' | 'bankAccounts' | 'userCustomCurrency' | 'supportRequests',
): string => `${t(`common:menu.${page}`)} · ${t('common:menu.staff')}`;

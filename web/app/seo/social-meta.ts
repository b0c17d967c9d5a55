import type { MetaDescriptor } from 'react-router';

import { LOCALES, localizePath, splitLocalePath } from '@app/shared/i18n';

import { translatorFor } from '#app/i18n/meta.ts';
import { siteUrlOf } from '#app/utils/public-env.ts';

import { OG_LOCALE } from './locales.ts';

/*
 * Link previews (issue 23, docs/decisions/043-search-engines.md): Open Graph and Twitter's card
 * on the pages people share (home, products, partner pages). `pageMeta` (app/i18n/meta.ts)
 * already gives og:title and og:description in the page's language; this adds the page's own
 * absolute URL, the image, the site's name, the locale in Open Graph's form with the other two
 * as alternates, and the large-image card.
 */

/** web/public/og-image.png, drawn from web/seo/og-card.html. */
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630, type: 'image/png' };

interface SocialMetaArgs {
  location: { pathname: string };
  matches: Parameters<typeof siteUrlOf>[0];
}

const isOgLocale = (descriptor: MetaDescriptor) =>
  'property' in descriptor && descriptor.property === 'og:locale';

/**
 * `meta` with the link-preview tags of the page at `location`. A page without og:title (a 404's
 * meta) is returned as it is: there is nothing to preview.
 */
export function withSocialMeta(
  meta: MetaDescriptor[],
  { location, matches }: SocialMetaArgs,
): MetaDescriptor[] {
  const hasTitle = meta.some((d) => 'property' in d && d.property === 'og:title');
  if (!hasTitle) return meta;
  const { locale, path } = splitLocalePath(location.pathname);
  const siteUrl = siteUrlOf(matches) ?? '';
  const t = translatorFor(locale);
  return [
    // pageMeta writes og:locale as the language tag (`en`, `uk_UA`); Open Graph wants ll_TT.
    ...meta.filter((descriptor) => !isOgLocale(descriptor)),
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: t('common:brand') },
    { property: 'og:url', content: `${siteUrl}${localizePath(path, locale)}` },
    { property: 'og:image', content: `${siteUrl}${OG_IMAGE.path}` },
    { property: 'og:image:type', content: OG_IMAGE.type },
    { property: 'og:image:width', content: String(OG_IMAGE.width) },
    { property: 'og:image:height', content: String(OG_IMAGE.height) },
    { property: 'og:locale', content: OG_LOCALE[locale] },
    ...LOCALES.filter((other) => other !== locale).map((other) => ({
      property: 'og:locale:alternate',
      content: OG_LOCALE[other],
    })),
    { name: 'twitter:card', content: 'summary_large_image' },
  ];
}

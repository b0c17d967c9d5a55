import type { MetaDescriptor } from 'react-router';

import { splitLocalePath } from '@app/shared/i18n';

import type { ContentPage } from '#app/content/pages/types.ts';
import { pageMeta, translatorFor } from '#app/i18n/meta.ts';
import { siteUrlOf } from '#app/utils/public-env.ts';

interface ContentMetaArgs {
  location: { pathname: string };
  matches: Parameters<typeof siteUrlOf>[0];
  /** The page from the route's loader; undefined when the loader answered 404. */
  page: Pick<ContentPage, 'metaTitle' | 'metaDescription' | 'faq'> | undefined;
}

/**
 * A long-form page's meta: its title and description (with the canonical and hreflang links of
 * `pageMeta`) and its FAQ as schema.org FAQPage data. A missing page is the 404's title.
 */
export function contentMeta({ location, matches, page }: ContentMetaArgs): MetaDescriptor[] {
  if (!page) {
    const t = translatorFor(splitLocalePath(location.pathname).locale);
    return [{ title: t('errors.notFoundTitle') }, { name: 'robots', content: 'noindex' }];
  }
  const meta = pageMeta({
    pathname: location.pathname,
    siteUrl: siteUrlOf(matches),
    title: page.metaTitle,
    description: page.metaDescription,
  });
  if (page.faq.length === 0) return meta;
  return [
    ...meta,
    {
      'script:ld+json': {
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        mainEntity: page.faq.map((entry) => ({
          '@type': 'Question',
          name: entry.q,
          acceptedAnswer: { '@type': 'Answer', text: entry.a },
        })),
      },
    },
  ];
}

import { useTranslation } from 'react-i18next';

import { splitLocalePath } from '@app/shared/i18n';

import { contentMeta } from '#app/components/content/content-meta.ts';
import { ContentPageView } from '#app/components/content/content-page.tsx';
import { findServicePage } from '#app/content/pages/index.server.ts';
import { PairRateSection } from '#app/exchange/pair-rate-section.tsx';
import { withSocialMeta } from '#app/seo/social-meta.ts';
import { notFound } from '#app/utils/not-found.ts';

import type { Route } from './+types/partner-page';

/** `/for-partners/:slug`: one partner or business page in the request's locale; else a 404. */
export function loader({ params, request }: Route.LoaderArgs) {
  const { locale } = splitLocalePath(new URL(request.url).pathname);
  const page = findServicePage('partners', locale, params.slug);
  if (!page) notFound();
  return page;
}

export const meta: Route.MetaFunction = ({ location, matches, loaderData }) =>
  withSocialMeta(contentMeta({ location, matches, page: loaderData }), { location, matches });

export default function PartnerPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('pages');
  return (
    <ContentPageView
      page={loaderData}
      trail={[{ label: t('crumbs.partners') }]}
      intro={<PairRateSection cta={loaderData.cta} />}
    />
  );
}

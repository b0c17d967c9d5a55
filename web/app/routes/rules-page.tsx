import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { splitLocalePath } from '@app/shared/i18n';

import { contentMeta } from '#app/components/content/content-meta.ts';
import { ContentPageView } from '#app/components/content/content-page.tsx';
import { findRulesDocument, relatedRulesDocuments } from '#app/content/pages/index.server.ts';
import { RULE_SLUGS } from '#app/content/slugs.ts';
import { useLocalePath } from '#app/i18n/locale.ts';
import { notFound } from '#app/utils/not-found.ts';

import type { Route } from './+types/rules-page';

/** `/rules/:slug`: one rules document (ml-kyc, exchange-rules, privacy-policy); else a 404. */
export function loader({ params, request }: Route.LoaderArgs) {
  const { locale } = splitLocalePath(new URL(request.url).pathname);
  const page = findRulesDocument(locale, params.slug);
  const slug = RULE_SLUGS.find((candidate) => candidate === params.slug);
  if (!page || !slug) notFound();
  return { page, related: relatedRulesDocuments(locale, slug) };
}

export const meta: Route.MetaFunction = ({ location, matches, loaderData }) =>
  contentMeta({ location, matches, page: loaderData?.page });

export default function RulesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('pages');
  const to = useLocalePath();
  return (
    <ContentPageView
      page={loaderData.page}
      trail={[{ label: t('crumbs.rules'), to: to('/rules') }]}
      after={
        <nav className="content-section" aria-labelledby="rules-related">
          <h2 id="rules-related">{t('rules.related')}</h2>
          <ul className="content-documents">
            {loaderData.related.map((document) => (
              <li key={document.slug} className="card">
                <h3>
                  <Link to={to(`/rules/${document.slug}`)}>{document.title}</Link>
                </h3>
                <p>{document.lead}</p>
              </li>
            ))}
          </ul>
        </nav>
      }
    />
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { splitLocalePath } from '@app/shared/i18n';

import { contentMeta } from '#app/components/content/content-meta.ts';
import { ContentPageView } from '#app/components/content/content-page.tsx';
import { rulesOverview } from '#app/content/pages/index.server.ts';
import { useLocalePath } from '#app/i18n/locale.ts';

import type { Route } from './+types/rules';

/** `/rules`: the service rules in short, and links to the three documents. */
export function loader({ request }: Route.LoaderArgs) {
  return rulesOverview(splitLocalePath(new URL(request.url).pathname).locale);
}

export const meta: Route.MetaFunction = ({ location, matches, loaderData }) =>
  contentMeta({ location, matches, page: loaderData?.page });

export default function Rules({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('pages');
  const to = useLocalePath();
  return (
    <ContentPageView
      page={loaderData.page}
      trail={[]}
      intro={
        <section className="content-section" aria-labelledby="rules-documents">
          <h2 id="rules-documents">{t('rules.documents')}</h2>
          <ul className="content-documents">
            {loaderData.documents.map((document) => (
              <li key={document.slug} className="card">
                <h3>
                  <Link to={to(`/rules/${document.slug}`)}>{document.title}</Link>
                </h3>
                <p>{document.lead}</p>
              </li>
            ))}
          </ul>
        </section>
      }
    />
  );
}

import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { CashIcon, FixedRateIcon, LevelsIcon, OperatorIcon } from '#app/components/icons.ts';
import { loadExchangeCatalog } from '#app/exchange/catalog.server.ts';
import { ExchangeWidget } from '#app/exchange/exchange-widget.tsx';
import { translatedPageMeta } from '#app/i18n/meta.ts';
import { withSocialMeta } from '#app/seo/social-meta.ts';

import type { Route } from './+types/home';

export async function loader({ context }: Route.LoaderArgs) {
  return { catalog: await loadExchangeCatalog(context.publicEnv.PUBLIC_GRAPHQL_URL) };
}

const homeMeta = translatedPageMeta('home:metaTitle', 'home:metaDescription');
// The page people share most: link previews too (issue 23, app/seo/social-meta.ts).
export const meta: Route.MetaFunction = (args) => withSocialMeta(homeMeta(args), args);

const STEPS = ['select', 'send', 'get'] as const;
const FEATURES = [
  { id: 'fixedRate', Icon: FixedRateIcon },
  { id: 'operator', Icon: OperatorIcon },
  { id: 'cash', Icon: CashIcon },
  { id: 'levels', Icon: LevelsIcon },
] as const;
const CLAIMS = ['successful', 'pairs', 'support', 'cashPoints'] as const;

/** Home: the exchange widget, the three steps, feature highlights and the claims (spec 1, 2). */
export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('home');
  const [search] = useSearchParams();
  return (
    <main id="main">
      <section className="hero container">
        <div className="hero__text">
          <h1>{t('title')}</h1>
          <p className="lead">{t('subtitle')}</p>
        </div>
        <ExchangeWidget
          catalog={loaderData.catalog}
          initialFrom={search.get('from')}
          initialTo={search.get('to')}
        />
      </section>

      <section className="section container" aria-labelledby="steps-title">
        <h2 id="steps-title">{t('steps.title')}</h2>
        <ol className="steps">
          {STEPS.map((step, index) => (
            <li key={step} className="card">
              <span className="steps__number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{t(`steps.${step}.title`)}</h3>
              <p>{t(`steps.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section container" aria-labelledby="features-title">
        <h2 id="features-title">{t('features.title')}</h2>
        <ul className="grid grid--4">
          {FEATURES.map(({ id, Icon }) => (
            <li key={id} className="card feature">
              <Icon className="feature__icon" aria-hidden="true" size={28} />
              <h3>{t(`features.${id}.title`)}</h3>
              <p>{t(`features.${id}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="section container">
        <dl className="claims">
          {CLAIMS.map((claim) => (
            <div key={claim} className="claims__item">
              <dt>{t(`claims.${claim}Label`)}</dt>
              <dd>{t(`claims.${claim}`)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </main>
  );
}

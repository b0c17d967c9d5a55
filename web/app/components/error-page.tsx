import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useLocalePath } from '#app/i18n/locale.ts';

/** The "Page not found" and "Internal Server Error" pages (spec sections 2 and 8). */
export function ErrorPage({ kind }: { kind: 'not-found' | 'server' }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const title = kind === 'not-found' ? t('errors.notFoundTitle') : t('errors.serverTitle');
  return (
    <main id="main" className="error-page">
      <p className="error-page__code" aria-hidden="true">
        {kind === 'not-found' ? '404' : '500'}
      </p>
      <h1>{title}</h1>
      <p>{kind === 'not-found' ? t('errors.notFoundText') : t('errors.serverText')}</p>
      <Link className="button button--primary" to={to('/')}>
        {t('errors.backHome')}
      </Link>
    </main>
  );
}

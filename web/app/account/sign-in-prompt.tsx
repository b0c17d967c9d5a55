import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

import { loginPath } from '#app/auth/redirect.ts';
import { useLocale } from '#app/i18n/locale.ts';

/** What a visitor sees on a signed-in page: the title, why, and Login (coming back here). */
export function SignInPrompt({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname, search } = useLocation();
  return (
    <main id="main" className="container section narrow">
      <h1>{title}</h1>
      <p>{text}</p>
      <Link className="button button--primary" to={loginPath(locale, `${pathname}${search}`)}>
        {t('common:menu.login')}
      </Link>
    </main>
  );
}

/** The page while the session is checked or the data loads. */
export function LoadingPage() {
  const { t } = useTranslation();
  return (
    <main id="main" className="container section" aria-busy="true">
      <p role="status">{t('common:loading')}</p>
    </main>
  );
}

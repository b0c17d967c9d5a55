import { useQuery } from '@apollo/client/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { AntiPhishingPhraseDocument } from '@app/client/graphql/generated/user.ts';
import { useLocalePath } from '#app/i18n/locale.ts';

/**
 * The user's anti-phishing phrase above the payment details (issue 10): a page that shows the
 * details without the phrase, or with another, is not ours. When the user has none, a prompt to
 * set one in Settings. Inside the data layout (Apollo).
 */
export function PhishingBox({ userId }: { userId: string }) {
  const { t } = useTranslation('trust');
  const localePath = useLocalePath();
  const { data, error, loading } = useQuery(AntiPhishingPhraseDocument, {
    variables: { userId },
  });
  const phrase = data?.portal_users_by_pk?.anti_phishing_phrase ?? null;

  if (loading && !data) {
    return (
      <aside className="phishing" aria-busy="true">
        <p className="phishing__label">{t('phishing.label')}</p>
        <p role="status">{t('common:loading')}</p>
      </aside>
    );
  }
  if (error && !data) {
    return (
      <aside className="phishing phishing--unset">
        <p className="phishing__label">{t('phishing.label')}</p>
        <p role="alert">{t('common:notify.somethingWentWrong')}</p>
      </aside>
    );
  }
  if (phrase === null) {
    return (
      <aside className="phishing phishing--unset" aria-label={t('phishing.label')}>
        <p>{t('phishing.notSet')}</p>
        <Link className="button button--small" to={`${localePath('/settings')}#anti-phishing`}>
          {t('phishing.setIt')}
        </Link>
      </aside>
    );
  }
  return (
    <aside className="phishing" aria-labelledby="phishing-label">
      <p id="phishing-label" className="phishing__label">
        {t('phishing.label')}
      </p>
      <p className="phishing__phrase" data-testid="anti-phishing-phrase">
        {phrase}
      </p>
      <p className="phishing__note">{t('phishing.shownNext')}</p>
    </aside>
  );
}

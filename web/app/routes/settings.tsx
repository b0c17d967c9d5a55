import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

import { splitLocalePath } from '@app/shared/i18n';

import { saveTwoFactor } from '#app/auth/current-user.ts';
import { SubmitButton } from '#app/auth/form.tsx';
import { loginPath } from '#app/auth/redirect.ts';
import { useSession, withAccessToken } from '#app/auth/session.ts';
import { notify } from '#app/components/notify/store.ts';
import { useLocale } from '#app/i18n/locale.ts';
import { pageMeta, translatorFor } from '#app/i18n/meta.ts';
import { browserEnv, siteUrlOf } from '#app/utils/public-env.ts';

import type { Route } from './+types/settings';

export const meta: Route.MetaFunction = ({ location, matches }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [
    ...pageMeta({
      pathname: location.pathname,
      siteUrl: siteUrlOf(matches),
      title: t('auth:settings.metaTitle'),
      description: t('auth:settings.metaDescription'),
    }),
    { name: 'robots', content: 'noindex' },
  ];
};

/**
 * Settings (spec section 2), signed-in users only: the Security section with the two-factor
 * toggle and Save security settings. A visitor is sent to /login and comes back here after.
 */
export default function Settings() {
  const { t } = useTranslation('auth');
  const locale = useLocale();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const checked = useSession((state) => state.checked);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const user = useSession((state) => state.user);

  useEffect(() => {
    if (checked && !isLoggedIn) void navigate(loginPath(locale, pathname), { replace: true });
  }, [checked, isLoggedIn, navigate, locale, pathname]);

  return (
    <main id="main" className="auth section container">
      <div className="auth__card card">
        <h1>{t('settings.title')}</h1>
        {user ? (
          <SecurityForm key={user.id} userId={user.id} email={user.email} saved2fa={user.is2fa} />
        ) : (
          <p role="status">{t('common:loading')}</p>
        )}
      </div>
    </main>
  );
}

interface SecurityFormProps {
  userId: string;
  email: string | null;
  saved2fa: boolean;
}

function SecurityForm({ userId, email, saved2fa }: SecurityFormProps) {
  const { t } = useTranslation('auth');
  const [is2fa, setIs2fa] = useState(saved2fa);
  const [pending, setPending] = useState(false);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    withAccessToken((token) => saveTwoFactor(browserEnv().PUBLIC_GRAPHQL_URL, token, userId, is2fa))
      .then((saved) => {
        useSession.getState().setUser({ is2fa: saved });
        setIs2fa(saved);
        notify.success(t('settings.saved'));
      })
      .catch(() => notify.error())
      .finally(() => setPending(false));
  };

  return (
    <form method="post" noValidate onSubmit={onSubmit} aria-busy={pending}>
      <fieldset className="fieldset">
        <legend>{t('settings.security')}</legend>
        <div className="switch-field">
          <input
            id="settings-2fa"
            name="is2fa"
            type="checkbox"
            role="switch"
            className="switch"
            checked={is2fa}
            onChange={(event) => setIs2fa(event.target.checked)}
            aria-describedby="settings-2fa-hint"
          />
          <label htmlFor="settings-2fa">{t('settings.twoFactor')}</label>
        </div>
        <p id="settings-2fa-hint" className="field__hint">
          {t('settings.twoFactorHint', { email: email ?? '' })}
        </p>
      </fieldset>
      <SubmitButton pending={pending}>{t('settings.save')}</SubmitButton>
    </form>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ChangePasswordForm } from '@app/shared/forms';
import { splitLocalePath } from '@app/shared/i18n';

import { AuthApiError } from '@app/client/auth/api.ts';
import { FormMessage, SubmitButton, TextField, useAuthForm } from '#app/auth/form.tsx';
import { authApi } from '#app/auth/session.ts';
import { useLocalePath } from '#app/i18n/locale.ts';
import { pageMeta, translatorFor } from '#app/i18n/meta.ts';
import { siteUrlOf } from '#app/utils/public-env.ts';

import type { Route } from './+types/change-password';

export const meta: Route.MetaFunction = ({ location, matches }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [
    ...pageMeta({
      pathname: location.pathname,
      siteUrl: siteUrlOf(matches),
      title: t('auth:changePassword.metaTitle'),
      description: t('auth:changePassword.metaDescription'),
    }),
    // The path holds a reset token: keep it out of indexes and out of Referer headers.
    { name: 'robots', content: 'noindex, nofollow' },
    { name: 'referrer', content: 'no-referrer' },
  ];
};

/** Change password (spec section 2): the e-mailed link's page, new password and confirmation. */
export default function ChangePassword({ params }: Route.ComponentProps) {
  const { t } = useTranslation('auth');
  const to = useLocalePath();
  const [done, setDone] = useState(false);
  const [linkDead, setLinkDead] = useState(false);
  // The link is checked as the page opens: a dead one is said before a password is typed.
  useEffect(() => {
    let current = true;
    authApi()
      .checkResetToken(params.token)
      .then(({ valid }) => {
        if (current && !valid) setLinkDead(true);
      })
      // Unreachable or refused (too many attempts): the form stays, its submit will say why.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [params.token]);
  const form = useAuthForm({
    id: 'change-password',
    schema: ChangePasswordForm,
    initial: { password: '', confirmPassword: '' },
    onSubmit: async ({ password, confirmPassword }) => {
      try {
        await authApi().changePassword({ password, confirmPassword, token: params.token });
        setDone(true);
      } catch (error) {
        // Any problem with the token (expired, used, malformed) means the link is dead.
        if (AuthApiError.is(error) && error.field === 'token') setLinkDead(true);
        throw error;
      }
    },
  });

  return (
    <main id="main" className="auth section container">
      <div className="auth__card card">
        <h1>{t('changePassword.title')}</h1>
        <div role="status" className="form-message form-message--status">
          {done ? <p>{t('changePassword.done')}</p> : null}
        </div>
        {done ? (
          <p className="auth__links">
            <Link className="button button--primary" to={to('/login')}>
              {t('changePassword.login')}
            </Link>
          </p>
        ) : linkDead ? (
          <>
            <FormMessage message="auth:errors.invalidResetToken" />
            <p className="auth__links">
              <Link className="button button--primary" to={to('/reset-password')}>
                {t('changePassword.requestNew')}
              </Link>
            </p>
          </>
        ) : (
          <>
            <form
              ref={form.formRef}
              method="post"
              noValidate
              onSubmit={form.onSubmit}
              aria-busy={form.pending}
            >
              <FormMessage message={form.formError} />
              <TextField
                {...form.field('password')}
                label={t('changePassword.password')}
                type="password"
                autoComplete="new-password"
                hint={t('signUp.passwordHint')}
              />
              <TextField
                {...form.field('confirmPassword')}
                label={t('changePassword.confirmPassword')}
                type="password"
                autoComplete="new-password"
              />
              <SubmitButton pending={form.pending}>{t('changePassword.submit')}</SubmitButton>
            </form>
          </>
        )}
      </div>
    </main>
  );
}

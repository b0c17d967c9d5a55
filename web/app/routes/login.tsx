import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { LoginForm } from '@app/shared/forms';

import { CodeStep } from '#app/auth/code-step.tsx';
import { FormMessage, SubmitButton, TextField, useAuthForm } from '#app/auth/form.tsx';
import { safeRedirect } from '#app/auth/redirect.ts';
import { useSession } from '#app/auth/session.ts';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';
import { translatedPageMeta } from '#app/i18n/meta.ts';

import type { Route } from './+types/login';

export const meta: Route.MetaFunction = translatedPageMeta(
  'auth:login.metaTitle',
  'auth:login.metaDescription',
);

/**
 * Login (spec section 2): e-mail and password, Forgot password, create an account; with 2FA on,
 * the second step asks for the mailed code. Afterwards the page the user came from
 * (`?redirectTo=`), else home.
 */
export default function Login() {
  const { t } = useTranslation('auth');
  const to = useLocalePath();
  const locale = useLocale();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const awaitingCode = useSession((state) => state.challenge?.purpose === 'login');
  const redirectTo = searchParams.get('redirectTo');

  // Signed in (just now, or already when the page opened): on to where the user was going.
  useEffect(() => {
    if (isLoggedIn) void navigate(safeRedirect(redirectTo, locale), { replace: true });
  }, [isLoggedIn, navigate, redirectTo, locale]);

  const form = useAuthForm({
    id: 'login',
    schema: LoginForm,
    initial: { email: '', password: '' },
    onSubmit: async ({ email, password }) => {
      await useSession.getState().login(email, password);
    },
  });

  return (
    <main id="main" className="auth section container">
      <div className="auth__card card">
        {awaitingCode ? (
          <CodeStep onBack={(reason) => form.setFormError(reason)} />
        ) : (
          <>
            <h1>{t('login.title')}</h1>
            <form ref={form.formRef} method="post" noValidate onSubmit={form.onSubmit} aria-busy={form.pending}>
              <FormMessage message={form.formError} />
              <TextField
                {...form.field('email')}
                label={t('login.email')}
                type="email"
                autoComplete="email"
              />
              <TextField
                {...form.field('password')}
                label={t('login.password')}
                type="password"
                autoComplete="current-password"
              />
              <p className="auth__aside">
                <Link to={to('/reset-password')}>{t('login.forgotPassword')}</Link>
              </p>
              <SubmitButton pending={form.pending}>{t('login.submit')}</SubmitButton>
            </form>
            <p className="auth__links">
              {t('login.noAccount')}{' '}
              <Link to={{ pathname: to('/sign-up'), search: searchParams.toString() }}>
                {t('login.createAccount')}
              </Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}

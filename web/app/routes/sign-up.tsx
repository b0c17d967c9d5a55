import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { SignUpForm } from '@app/shared/forms';

import { CodeStep } from '#app/auth/code-step.tsx';
import { FormMessage, SubmitButton, TextField, useAuthForm } from '#app/auth/form.tsx';
import { safeRedirect } from '#app/auth/redirect.ts';
import { useSession } from '#app/auth/session.ts';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';
import { translatedPageMeta } from '#app/i18n/meta.ts';

import type { Route } from './+types/sign-up';

export const meta: Route.MetaFunction = translatedPageMeta(
  'auth:signUp.metaTitle',
  'auth:signUp.metaDescription',
);

/**
 * Sign-up (spec section 2): e-mail, password, confirmation. The referral code of the
 * referral_code cookie goes with it; the new account is signed in at once. An address that
 * already has an account gets a mailed code instead, which signs in to that account (the
 * password typed here is not applied; decision 016).
 */
export default function SignUp() {
  const { t } = useTranslation('auth');
  const to = useLocalePath();
  const locale = useLocale();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const awaitingCode = useSession((state) => state.challenge?.purpose === 'sign-up');
  const redirectTo = searchParams.get('redirectTo');

  useEffect(() => {
    if (isLoggedIn) void navigate(safeRedirect(redirectTo, locale), { replace: true });
  }, [isLoggedIn, navigate, redirectTo, locale]);

  const form = useAuthForm({
    id: 'sign-up',
    schema: SignUpForm,
    initial: { email: '', password: '', confirmPassword: '' },
    onSubmit: async ({ email, password, confirmPassword }) => {
      await useSession.getState().register({ email, password, confirmPassword });
    },
  });

  if (awaitingCode) {
    return (
      <main id="main" className="auth section container">
        <div className="auth__card card">
          <p role="status">{t('signUp.knownEmail')}</p>
          <CodeStep onBack={(reason) => form.setFormError(reason)} />
        </div>
      </main>
    );
  }

  return (
    <main id="main" className="auth section container">
      <div className="auth__card card">
        <h1>{t('signUp.title')}</h1>
        <form ref={form.formRef} method="post" noValidate onSubmit={form.onSubmit} aria-busy={form.pending}>
          <FormMessage message={form.formError} />
          <TextField
            {...form.field('email')}
            label={t('signUp.email')}
            type="email"
            autoComplete="email"
          />
          <TextField
            {...form.field('password')}
            label={t('signUp.password')}
            type="password"
            autoComplete="new-password"
            hint={t('signUp.passwordHint')}
          />
          <TextField
            {...form.field('confirmPassword')}
            label={t('signUp.confirmPassword')}
            type="password"
            autoComplete="new-password"
          />
          <SubmitButton pending={form.pending}>{t('signUp.submit')}</SubmitButton>
        </form>
        <p className="auth__links">
          {t('signUp.haveAccount')}{' '}
          <Link to={{ pathname: to('/login'), search: searchParams.toString() }}>
            {t('signUp.login')}
          </Link>
        </p>
      </div>
    </main>
  );
}

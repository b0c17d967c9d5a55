import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ResetPasswordForm } from '@app/shared/forms';

import { FormMessage, SubmitButton, TextField, useAuthForm } from '#app/auth/form.tsx';
import { authApi } from '#app/auth/session.ts';
import { useLocalePath } from '#app/i18n/locale.ts';
import { translatedPageMeta } from '#app/i18n/meta.ts';

import type { Route } from './+types/reset-password';

export const meta: Route.MetaFunction = translatedPageMeta(
  'auth:resetPassword.metaTitle',
  'auth:resetPassword.metaDescription',
);

/**
 * Reset password (spec section 2): the e-mail of the account. The service answers the same
 * whether or not the account exists, and so does this page.
 */
export default function ResetPassword() {
  const { t } = useTranslation('auth');
  const to = useLocalePath();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useAuthForm({
    id: 'reset-password',
    schema: ResetPasswordForm,
    initial: { email: '' },
    onSubmit: async ({ email }) => {
      await authApi().resetPassword(email);
      setSentTo(email);
    },
  });

  return (
    <main id="main" className="auth section container">
      <div className="auth__card card">
        <h1>{t('resetPassword.title')}</h1>
        <div role="status" className="form-message form-message--status">
          {sentTo ? <p>{t('resetPassword.sent', { email: sentTo })}</p> : null}
        </div>
        {sentTo ? null : (
          <>
            <p>{t('resetPassword.text')}</p>
            <form ref={form.formRef} method="post" noValidate onSubmit={form.onSubmit} aria-busy={form.pending}>
              <FormMessage message={form.formError} />
              <TextField
                {...form.field('email')}
                label={t('resetPassword.email')}
                type="email"
                autoComplete="email"
              />
              <SubmitButton pending={form.pending}>{t('resetPassword.submit')}</SubmitButton>
            </form>
          </>
        )}
        <p className="auth__links">
          <Link to={to('/login')}>{t('resetPassword.backToLogin')}</Link>
        </p>
      </div>
    </main>
  );
}

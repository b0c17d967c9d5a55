import { useTranslation } from 'react-i18next';

import { toFailure } from '@app/client/auth/session-types.ts';
import { authErrorMessage, LoginCodeForm } from '@app/shared/forms';

import { FormMessage, SubmitButton, TextField, useAuthForm } from './form.tsx';
import { useSession } from './session.ts';

export interface CodeStepProps {
  /** The code was accepted and the user is signed in. */
  onSignedIn?: () => void;
  /** The user chose to go back, or the code can no longer be used (`reason` is an i18n key). */
  onBack: (reason?: string) => void;
  /** The heading level of the step's title. */
  headingLevel?: 1 | 2;
  /** Where going back leads, when not to the login form (the order form's own step). */
  backLabel?: string;
}

/**
 * The second step of login and of quick-auth for a known e-mail (spec section 2): the 6-digit
 * code sent by e-mail, with a return-to-login link.
 */
export function CodeStep({ onSignedIn, onBack, headingLevel = 1, backLabel }: CodeStepProps) {
  const { t } = useTranslation('auth');
  const email = useSession((state) => state.challenge?.email ?? '');
  const form = useAuthForm({
    id: 'login-code',
    schema: LoginCodeForm,
    initial: { code: '' },
    onSubmit: async ({ code }) => {
      try {
        await useSession.getState().loginWith2fa(code);
      } catch (error) {
        const failure = toFailure(error);
        // The ticket is spent (expired, or too many wrong codes): only a new login helps.
        if (failure.code === 'invalid-ticket') {
          onBack(authErrorMessage(failure.code));
          return;
        }
        throw error;
      }
      onSignedIn?.();
    },
  });
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  return (
    <>
      <Heading>{t('code.title')}</Heading>
      <p>{t('code.text', { email })}</p>
      <form
        ref={form.formRef}
        method="post"
        noValidate
        onSubmit={form.onSubmit}
        aria-busy={form.pending}
      >
        <FormMessage message={form.formError} />
        <TextField
          {...form.field('code')}
          label={t('code.label')}
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
        />
        <SubmitButton pending={form.pending}>{t('code.submit')}</SubmitButton>
      </form>
      <p className="auth__links">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            useSession.getState().cancelChallenge();
            onBack();
          }}
        >
          {backLabel ?? t('code.backToLogin')}
        </button>
      </p>
    </>
  );
}

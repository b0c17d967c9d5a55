import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { LoginCodeForm, TwoFactorPasswordForm } from '@app/shared/forms';

import { AuthApiError, type TwoFactorAnswer } from '@app/client/auth/api.ts';
import { FormMessage, TextField, useAuthForm, useHydrated } from '#app/auth/form.tsx';
import { authApi } from '#app/auth/session.ts';

/** What the auth service asks for: the password, or the code it mailed (with its ticket). */
export type TwoFactorStep = { kind: 'password' } | { kind: 'code'; token: string };

export interface TwoFactorDialogProps {
  /** Open while set. */
  step: TwoFactorStep | null;
  /** The state being saved. */
  enabled: boolean;
  email: string;
  onClose: () => void;
  onSaved: (enabled: boolean) => void;
  /** The code can no longer be used (expired or used up): the caller says so and closes. */
  onCodeExpired: () => void;
}

/**
 * Confirms turning two-factor sign-in on or off (issue 19): an access token alone does not
 * change it. A modal `<dialog>` (focus trapped, Escape closes) asks for the password, or for
 * the code the auth service mailed when the account has no password.
 */
export function TwoFactorDialog(props: TwoFactorDialogProps) {
  const { t } = useTranslation('auth');
  const dialog = useRef<HTMLDialogElement>(null);
  const open = props.step !== null;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    else if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="dialog card"
      aria-labelledby="two-factor-title"
      onClose={props.onClose}
    >
      <h2 id="two-factor-title">
        {props.enabled ? t('settings.confirm.titleOn') : t('settings.confirm.titleOff')}
      </h2>
      {props.step?.kind === 'password' ? <PasswordStep {...props} /> : null}
      {props.step?.kind === 'code' ? <CodeStep {...props} token={props.step.token} /> : null}
    </dialog>
  );
}

/** Only a saved answer counts; a challenge where a password was sent is unexpected. */
function savedState(answer: TwoFactorAnswer): boolean {
  if ('ok' in answer) return answer.enabled;
  throw new AuthApiError('invalid-response', 200, 'unexpected answer');
}

function PasswordStep({ enabled, onClose, onSaved }: TwoFactorDialogProps) {
  const { t } = useTranslation('auth');
  const form = useAuthForm({
    id: 'two-factor',
    schema: TwoFactorPasswordForm,
    initial: { password: '' },
    onSubmit: async ({ password }) => {
      onSaved(savedState(await authApi().setTwoFactor({ enabled, password })));
    },
  });
  return (
    <form ref={form.formRef} noValidate onSubmit={form.onSubmit} aria-busy={form.pending}>
      <p>{t('settings.confirm.passwordText')}</p>
      <FormMessage message={form.formError} />
      <TextField
        {...form.field('password')}
        type="password"
        label={t('settings.confirm.password')}
        autoComplete="current-password"
        autoFocus
      />
      <Actions pending={form.pending} onClose={onClose} />
    </form>
  );
}

function CodeStep({
  enabled,
  email,
  token,
  onClose,
  onSaved,
  onCodeExpired,
}: TwoFactorDialogProps & { token: string }) {
  const { t } = useTranslation('auth');
  const form = useAuthForm({
    id: 'two-factor',
    schema: LoginCodeForm,
    initial: { code: '' },
    onSubmit: async ({ code }) => {
      try {
        onSaved(savedState(await authApi().setTwoFactor({ enabled, token, code })));
      } catch (error) {
        // Expired, or too many wrong codes: only saving again (a new code) helps.
        if (AuthApiError.is(error) && error.code === 'invalid-ticket') {
          onCodeExpired();
          return;
        }
        throw error;
      }
    },
  });
  return (
    <form ref={form.formRef} noValidate onSubmit={form.onSubmit} aria-busy={form.pending}>
      <p>{t('settings.confirm.codeText', { email })}</p>
      <FormMessage message={form.formError} />
      <TextField
        {...form.field('code')}
        label={t('settings.confirm.code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        autoFocus
      />
      <Actions pending={form.pending} onClose={onClose} />
    </form>
  );
}

function Actions({ pending, onClose }: { pending: boolean; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const hydrated = useHydrated();
  return (
    <div className="dialog__actions">
      <button type="button" className="button" onClick={onClose}>
        {t('settings.confirm.cancel')}
      </button>
      <button
        type="submit"
        className="button button--primary"
        disabled={!hydrated || pending}
        aria-busy={pending || undefined}
      >
        {t('settings.confirm.submit')}
      </button>
    </div>
  );
}

import { Button, Cell, Section } from '@telegram-apps/telegram-ui';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { toFailure } from '@app/client/auth/session-types.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { authErrorField, authErrorMessage, QuickAuthForm, validateForm } from '@app/shared/forms';

import { SectionHeading } from '../components/section-heading.tsx';
import { TextField } from '../components/text-field.tsx';
import { session, useSession } from '../session.ts';
import { haptic } from '../telegram/sdk.ts';

type Step = { kind: 'address' } | { kind: 'code'; email: string; token: string };

/*
 * Settings → E-mail (issue 22, decision 037): a Telegram account adds an address and proves it
 * with the 6-digit code mailed there; after that the person signs in on the website with it
 * (a code, or a password set through "Forgot password") and sees the same orders. An address
 * already in use is answered like a free one (the auth service mails its owner instead), so the
 * code simply never works for it.
 */
export function EmailSection() {
  const { t } = useTranslation('links');
  const email = useSession((state) => state.user?.email ?? null);
  const [step, setStep] = useState<Step>({ kind: 'address' });
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  if (email) {
    return (
      <Section header={<SectionHeading>{t('email.title')}</SectionHeading>}>
        <Cell multiline subhead={t('email.current')} data-testid="email-current">
          {email}
        </Cell>
        {done ? (
          <Section.Footer>
            <span role="status">{t('email.added')}</span>
          </Section.Footer>
        ) : null}
      </Section>
    );
  }

  const refused = (error: unknown, field: 'email' | 'code') => {
    haptic.error();
    const failure = toFailure(error);
    const message = authErrorMessage(failure.code);
    if (authErrorField(failure.field, [field]) === field) setFieldError(message);
    else setFormError(message);
  };

  const run = (work: () => Promise<void>, field: 'email' | 'code') => {
    if (pending) return;
    setPending(true);
    setFormError(undefined);
    work()
      .catch((error: unknown) => refused(error, field))
      .finally(() => setPending(false));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (step.kind === 'address') {
      const result = validateForm(QuickAuthForm, { email: value });
      if (!result.ok) {
        setFieldError(result.errors.email);
        haptic.error();
        return;
      }
      setFieldError(undefined);
      run(async () => {
        const answer = await session.getState().api().addEmail({ email: result.data.email });
        if (!('token' in answer)) return;
        setStep({ kind: 'code', email: result.data.email, token: answer.token });
        setValue('');
      }, 'email');
      return;
    }
    const code = value.trim();
    if (!/^\d{6}$/.test(code)) {
      setFieldError('errors:invalid-code-format');
      haptic.error();
      return;
    }
    setFieldError(undefined);
    run(async () => {
      const answer = await session.getState().api().addEmail({ token: step.token, code });
      if (!('ok' in answer)) return;
      haptic.success();
      setDone(true);
      session.getState().setUser({ email: answer.email, isVerifiedEmail: true });
    }, 'code');
  };

  const field = step.kind === 'address' ? 'email' : 'code';
  const label = step.kind === 'address' ? t('email.label') : t('email.codeLabel');
  return (
    <form noValidate onSubmit={onSubmit} aria-busy={pending}>
      <Section
        header={<SectionHeading>{t('email.title')}</SectionHeading>}
        footer={
          <Section.Footer>
            {step.kind === 'address'
              ? t('email.intro')
              : t('email.codeHint', { email: step.email })}
          </Section.Footer>
        }
      >
        <TextField
          id={`settings-add-${field}`}
          label={label}
          error={fieldError}
          type={step.kind === 'address' ? 'email' : 'text'}
          inputMode={step.kind === 'address' ? 'email' : 'numeric'}
          autoComplete={step.kind === 'address' ? 'email' : 'one-time-code'}
          maxLength={step.kind === 'address' ? 320 : 6}
          value={value}
          onValue={(next) => {
            setValue(next);
            if (fieldError) setFieldError(undefined);
          }}
        />
      </Section>
      <div className="state-actions">
        <Button type="submit" mode="filled" size="l" stretched loading={pending}>
          {step.kind === 'address' ? t('email.send') : t('email.confirm')}
        </Button>
        {step.kind === 'code' ? (
          <Button
            type="button"
            mode="plain"
            size="m"
            stretched
            disabled={pending}
            onClick={() => {
              setStep({ kind: 'address' });
              setValue('');
              setFieldError(undefined);
              setFormError(undefined);
            }}
          >
            {t('email.change')}
          </Button>
        ) : null}
      </div>
      {formError ? (
        <p className="form-error" role="alert">
          {t(keyFromData(formError))}
        </p>
      ) : null}
    </form>
  );
}

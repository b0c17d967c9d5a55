import { useMutation } from '@apollo/client/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { UpdateReferralNameDocument } from '@app/client/graphql/generated/user.ts';
import { ReferralNameForm, validateForm } from '@app/shared/forms';

import { isEmailNotConfirmed } from '#app/account/email-not-confirmed.ts';
import { TextField, useHydrated } from '#app/auth/form.tsx';
import { notify } from '#app/components/notify/index.ts';

/**
 * Edit the referral name (spec sections 2, 5 and 8) in a modal dialog: the native `<dialog>`
 * traps focus, closes on Escape and hides the page from assistive technology. The name is
 * checked with the spec's message first; the database judges it again (format, and unique
 * regardless of case), and any failure is the generic error.
 */
export function ReferralNameDialog({
  open,
  userId,
  current,
  onClose,
  onSaved,
}: {
  open: boolean;
  userId: string;
  current: string;
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const { t } = useTranslation('account');
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement | null>(null);
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const [updateReferralName, { loading: pending }] = useMutation(UpdateReferralNameDocument);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // The field holds the current name before the dialog appears: a render after showModal
      // would set the field's value again, moving the caret behind whatever was being typed.
      if (value !== current || error !== undefined) {
        setValue(current);
        setError(undefined);
        return;
      }
      element.showModal();
      const field = element.querySelector<HTMLInputElement>('#referral-name');
      input.current = field;
      field?.focus();
      field?.select();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open, current, value, error]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateForm(ReferralNameForm, { referralName: value });
    if (!result.ok) {
      setError(result.errors.referralName);
      input.current?.focus();
      return;
    }
    const name = result.data.referralName;
    updateReferralName({ variables: { id: userId, name } })
      .then(({ data }) => {
        const saved = data?.update_portal_users_by_pk?.referral_name;
        if (!saved) throw new Error('the referral name was not saved');
        notify.success(t('affiliate.editName.updated'));
        onSaved(saved);
        onClose();
      })
      .catch((failure: unknown) =>
        notify.error(isEmailNotConfirmed(failure) ? t('auth:errors.emailNotConfirmed') : undefined),
      );
  };

  return (
    <dialog
      ref={dialog}
      className="dialog card"
      aria-labelledby="referral-name-title"
      onClose={onClose}
    >
      <form noValidate onSubmit={onSubmit} aria-busy={pending}>
        <h2 id="referral-name-title">{t('affiliate.editName.title')}</h2>
        <TextField
          id="referral-name"
          name="referralName"
          autoComplete="off"
          label={t('affiliate.editName.label')}
          hint={t('affiliate.editName.hint')}
          value={value}
          error={error}
          maxLength={40}
          onChange={(event) => {
            setValue(event.target.value);
            if (error) setError(undefined);
          }}
        />
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('affiliate.editName.cancel')}
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={!hydrated || pending}
            aria-busy={pending || undefined}
          >
            {pending ? t('affiliate.editName.saving') : t('affiliate.editName.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

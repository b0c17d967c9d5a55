import { useMutation } from '@apollo/client/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { StaffCustomersSendFeedbackDocument } from '@app/client/graphql/generated/manager.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';

import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { TextAreaField } from '#app/admin/fields.tsx';
import { TextField, useHydrated } from '#app/auth/form.tsx';
import { notify } from '#app/components/notify/index.ts';

import {
  FEEDBACK_FIELDS,
  FEEDBACK_LIMITS,
  feedbackFailure,
  validateFeedback,
  type FeedbackErrors,
  type FeedbackField,
  type FeedbackValues,
} from './feedback.ts';

/** What the form starts with: empty, or a reply to one request. */
export interface FeedbackDraft {
  email: string;
  subject: string;
  /** The request answered, with how the form names it. */
  request?: { id: string; label: string };
  /** Move focus to the form (a Reply button was used). */
  focus?: boolean;
}

/**
 * The admin feedback form (spec section 2: e-mail, subject, message): checks the fields, asks
 * for confirmation, then `sendSupportFeedback` mails the customer. A reply to a request is
 * recorded against it and, unless unticked, marks it handled. Give the form a new `key` for a
 * new draft.
 */
export function FeedbackForm({
  draft,
  onSent,
  onDetach,
}: {
  draft: FeedbackDraft;
  onSent: () => void;
  onDetach: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const hydrated = useHydrated();
  const [values, setValues] = useState<FeedbackValues>({
    email: draft.email,
    subject: draft.subject,
    message: '',
  });
  const [errors, setErrors] = useState<FeedbackErrors>({});
  const [markHandled, setMarkHandled] = useState(true);
  const [confirming, setConfirming] = useState<FeedbackValues | null>(null);
  const [sendError, setSendError] = useState<string | undefined>();
  const [send, { loading: pending }] = useMutation(StaffCustomersSendFeedbackDocument);
  const form = useRef<HTMLFormElement>(null);

  const focus = (field: FeedbackField) => document.getElementById(`feedback-${field}`)?.focus();

  useEffect(() => {
    if (!draft.focus) return;
    form.current?.scrollIntoView({ block: 'start' });
    document.getElementById(draft.subject ? 'feedback-message' : 'feedback-subject')?.focus();
  }, [draft]);

  const change = (field: FeedbackField) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateFeedback(values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FEEDBACK_FIELDS.find((field) => result.errors[field] !== undefined);
      if (first) focus(first);
      return;
    }
    setErrors({});
    setSendError(undefined);
    setConfirming(result.data);
  };

  const confirmSend = () => {
    if (!confirming) return;
    const request = draft.request;
    send({
      variables: {
        ...confirming,
        supportRequestId: request?.id ?? null,
        markHandled: request ? markHandled : null,
      },
    })
      .then(() => {
        notify.success(t('feedback.sent', { email: confirming.email }));
        setConfirming(null);
        setValues({ email: '', subject: '', message: '' });
        onSent();
      })
      .catch((error: unknown) => {
        const failure = feedbackFailure(error);
        if (failure.field) {
          setConfirming(null);
          setErrors({ [failure.field]: failure.message });
          focus(failure.field);
        } else {
          setSendError(t(keyFromData(failure.message)));
          notify.error(t(keyFromData(failure.message)));
        }
      });
  };

  return (
    <section className="card feedback" aria-labelledby="feedback-title">
      <h2 id="feedback-title">{t('feedback.title')}</h2>
      {draft.request ? (
        <div className="feedback__reply">
          <p>{t('feedback.replyingTo', { request: draft.request.label })}</p>
          <button type="button" className="link-button" onClick={onDetach}>
            {t('feedback.detach')}
          </button>
        </div>
      ) : (
        <p className="field__hint">{t('feedback.standalone')}</p>
      )}
      <form ref={form} noValidate onSubmit={onSubmit} aria-busy={pending}>
        <TextField
          id="feedback-email"
          name="email"
          type="email"
          autoComplete="off"
          label={t('feedback.email')}
          value={values.email}
          error={errors.email}
          maxLength={FEEDBACK_LIMITS.email}
          onChange={change('email')}
        />
        <TextField
          id="feedback-subject"
          name="subject"
          autoComplete="off"
          label={t('feedback.subject')}
          value={values.subject}
          error={errors.subject}
          maxLength={FEEDBACK_LIMITS.subject}
          onChange={change('subject')}
        />
        <TextAreaField
          id="feedback-message"
          name="message"
          label={t('feedback.message')}
          hint={t('feedback.messageHint')}
          value={values.message}
          error={errors.message}
          translateError
          required
          maxLength={FEEDBACK_LIMITS.message}
          onChange={change('message')}
        />
        {draft.request ? (
          <label className="check-field">
            <input
              type="checkbox"
              checked={markHandled}
              onChange={(event) => setMarkHandled(event.target.checked)}
            />
            {t('feedback.markHandled')}
          </label>
        ) : null}
        <button
          type="submit"
          className="button button--primary"
          disabled={!hydrated || pending}
          aria-busy={pending || undefined}
        >
          {t('feedback.send')}
        </button>
      </form>
      {confirming ? (
        <ConfirmDialog
          open
          title={t('feedback.confirmTitle')}
          description={
            <>
              <p>{t('feedback.confirmText', { email: confirming.email })}</p>
              <p>
                <strong>{confirming.subject}</strong>
              </p>
              {draft.request && markHandled ? <p>{t('feedback.confirmHandled')}</p> : null}
            </>
          }
          confirmLabel={t('feedback.confirm')}
          pending={pending}
          error={sendError}
          onConfirm={confirmSend}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}

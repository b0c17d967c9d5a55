import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { browserEnv } from '@app/client/env/public-env.ts';
import { SubmitSupportRequestDocument } from '@app/client/graphql/generated/anonymous.ts';
import { graphqlRequest, GraphqlRequestError } from '@app/client/graphql/request.ts';
import {
  GENERIC_ERROR,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  SupportRequestForm,
  supportFieldMessage,
  supportRequestInput,
  validateForm,
  type FieldErrors,
} from '@app/shared/forms';

import { FormMessage, SubmitButton } from '#app/auth/form.tsx';
import { useSession, withAccessToken } from '#app/auth/session.ts';
import { earlyText, useEarlyInput } from '#app/components/forms/use-early-input.ts';
import { notify } from '#app/components/notify/store.ts';

import { ContactField } from './contact-field.tsx';

/*
 * The support form of /contact (spec section 2): name, e-mail, order ID, message, sent through
 * the `submitSupportRequest` action: as the signed-in user (with the access token), else as a
 * visitor. A second request within a minute is refused with the spec's message (section 5);
 * a field the action refuses gets its message next to it.
 */

type Field = 'name' | 'email' | 'orderId' | 'message';
const FIELDS: readonly Field[] = ['name', 'email', 'orderId', 'message'];
const isField = (value: unknown): value is Field => FIELDS.includes(value as Field);

const inputId = (field: Field) => `contact-${field}`;
const focus = (field: Field) => document.getElementById(inputId(field))?.focus();

type Values = Record<Field, string>;

async function submit(input: ReturnType<typeof supportRequestInput>): Promise<void> {
  const url = browserEnv().PUBLIC_GRAPHQL_URL;
  const send = (token: string | null) =>
    graphqlRequest(url, SubmitSupportRequestDocument, { input }, { token });
  // Signed in: the request belongs to the account (and the cooldown counts per account).
  const result = useSession.getState().accessToken ? await withAccessToken(send) : await send(null);
  if (!result.submitSupportRequest) throw new Error('the request was not stored');
}

export interface ContactFormProps {
  /** A preset order ID (`/contact?orderId=`). */
  initialOrderId?: string;
}

export function ContactForm({ initialOrderId = '' }: ContactFormProps) {
  const { t } = useTranslation('contact');
  const userEmail = useSession((state) => state.user?.email ?? null);
  const [values, setValues] = useState<Values>({
    name: '',
    email: userEmail ?? '',
    orderId: initialOrderId,
    message: '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const againRef = useRef<HTMLButtonElement>(null);

  // What was typed before hydration; a submit made then is sent now (decision 047).
  const formRef = useEarlyInput((typed) => {
    const text = earlyText(typed);
    setValues((current) => ({
      ...current,
      ...Object.fromEntries(
        FIELDS.filter((name) => name in text).map((name) => [name, text[name]]),
      ),
    }));
  });

  // The signed-in user's address, once the session has loaded, unless one was typed already.
  useEffect(() => {
    if (userEmail)
      setValues((current) => (current.email ? current : { ...current, email: userEmail }));
  }, [userEmail]);

  useEffect(() => {
    if (sentTo) againRef.current?.focus();
  }, [sentTo]);

  const onChange =
    (field: Field) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      if (errors[field] !== undefined) setErrors((current) => ({ ...current, [field]: undefined }));
    };

  const showFailure = (error: unknown) => {
    if (GraphqlRequestError.is(error)) {
      if (error.code === 'too-frequent') {
        setFormError(SUPPORT_MESSAGES.cooldown);
        return;
      }
      const field = error.errors[0]?.extensions?.['field'];
      if (error.code === 'invalid-input' && isField(field)) {
        setErrors({ [field]: supportFieldMessage(field, error.errors[0]?.message) });
        focus(field);
        return;
      }
    }
    setFormError(GENERIC_ERROR);
    notify.error();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateForm(SupportRequestForm, values);
    if (!result.ok) {
      const found = result.errors as FieldErrors<Field>;
      setErrors(found);
      setFormError(undefined);
      const first = FIELDS.find((field) => found[field] !== undefined);
      if (first) focus(first);
      return;
    }
    setErrors({});
    setFormError(undefined);
    setPending(true);
    submit(supportRequestInput(result.data))
      .then(() => {
        setSentTo(result.data.email);
        setValues((current) => ({ ...current, orderId: '', message: '' }));
        notify.success(t('sent.notification'));
      })
      .catch(showFailure)
      .finally(() => setPending(false));
  };

  const field = (name: Field) => ({
    id: inputId(name),
    name,
    value: values[name],
    error: errors[name],
    onChange: onChange(name),
    maxLength: SUPPORT_LIMITS[name],
  });

  return (
    <>
      <div role="status" className="form-message form-message--status">
        {sentTo ? (
          <>
            <p className="contact__sent-title">{t('sent.title')}</p>
            <p>{t('sent.text', { email: sentTo })}</p>
          </>
        ) : null}
      </div>
      {sentTo ? (
        <button
          ref={againRef}
          type="button"
          className="button button--block"
          onClick={() => {
            setSentTo(null);
            setFormError(undefined);
          }}
        >
          {t('sent.again')}
        </button>
      ) : (
        <form ref={formRef} method="post" noValidate onSubmit={onSubmit} aria-busy={pending}>
          <FormMessage message={formError} />
          <ContactField {...field('name')} label={t('form.name')} autoComplete="name" />
          <ContactField
            {...field('email')}
            label={t('form.email')}
            type="email"
            autoComplete="email"
            hint={t('form.emailHint')}
          />
          <ContactField
            {...field('orderId')}
            label={t('form.orderId')}
            autoComplete="off"
            hint={t('form.orderIdHint')}
            required={false}
          />
          <ContactField {...field('message')} label={t('form.message')} multiline />
          <SubmitButton pending={pending}>{t('form.submit')}</SubmitButton>
        </form>
      )}
    </>
  );
}

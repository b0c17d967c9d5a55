import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { keyFromData } from '@app/client/i18n/i18n.ts';

import { FieldLabel } from '#app/components/forms/field-label.tsx';

export interface ContactFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** An i18n key (the validation or server message). */
  error?: string | undefined;
  hint?: string;
  /** A multi-line field (the message). */
  multiline?: boolean;
  type?: 'text' | 'email';
  autoComplete?: string;
  maxLength?: number;
  /** False for the optional order ID; the others are required. */
  required?: boolean;
}

/**
 * A labelled input or textarea of the contact form with its hint and error, wired for screen
 * readers (aria-invalid, aria-describedby, aria-required only where the field is required).
 */
export function ContactField(props: ContactFieldProps) {
  const { t } = useTranslation();
  const errorId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const describedBy =
    [props.error ? errorId : undefined, props.hint ? hintId : undefined]
      .filter(Boolean)
      .join(' ') || undefined;
  const common = {
    id: props.id,
    name: props.name,
    value: props.value,
    onChange: props.onChange,
    autoComplete: props.autoComplete,
    maxLength: props.maxLength,
    'aria-required': props.required === false ? undefined : true,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className="field">
      <FieldLabel htmlFor={props.id} required={props.required !== false}>
        {props.label}
      </FieldLabel>
      {props.multiline ? (
        <textarea {...common} rows={6} />
      ) : (
        <input {...common} type={props.type ?? 'text'} />
      )}
      {props.hint ? (
        <p id={hintId} className="field__hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} className="field__error">
          {t(keyFromData(props.error))}
        </p>
      ) : null}
    </div>
  );
}

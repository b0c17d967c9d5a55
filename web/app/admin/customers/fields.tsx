import type { ChangeEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/*
 * Labelled inputs the customers pages need besides `TextField` (#app/auth/form.tsx): a textarea
 * and a select, with the same hint and error wiring (aria-invalid, aria-describedby).
 */

function describedBy(id: string, error: string | undefined, hint: ReactNode | undefined) {
  return (
    [error ? `${id}-error` : undefined, hint ? `${id}-hint` : undefined]
      .filter(Boolean)
      .join(' ') || undefined
  );
}

function HintAndError({
  id,
  hint,
  error,
}: {
  id: string;
  hint?: ReactNode | undefined;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {t(error)}
        </p>
      ) : null}
    </>
  );
}

export function TextAreaField(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  rows?: number;
  maxLength?: number;
  error?: string | undefined;
  hint?: ReactNode;
  onChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        name={props.name}
        value={props.value}
        rows={props.rows ?? 6}
        maxLength={props.maxLength}
        onChange={props.onChange}
        aria-required="true"
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props.id, props.error, props.hint)}
      />
      <HintAndError id={props.id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function SelectField(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  error?: string | undefined;
  hint?: ReactNode;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.name}
        value={props.value}
        onChange={props.onChange}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props.id, props.error, props.hint)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <HintAndError id={props.id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A labelled input that is not required (TextField marks every input required). */
export function OptionalField(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  type?: 'text' | 'date' | 'search';
  inputMode?: 'decimal' | 'numeric' | 'text' | 'search';
  autoComplete?: string;
  error?: string | undefined;
  hint?: ReactNode;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete ?? 'off'}
        onChange={props.onChange}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props.id, props.error, props.hint)}
      />
      <HintAndError id={props.id} hint={props.hint} error={props.error} />
    </div>
  );
}

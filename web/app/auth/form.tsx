import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type HTMLAttributes,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';

import { toFailure } from '@app/client/auth/session-types.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import {
  authErrorField,
  authErrorMessage,
  validateForm,
  type FieldErrors,
} from '@app/shared/forms';

import { describedBy, FieldNotes } from '#app/components/field-notes.tsx';
import { FieldLabel } from '#app/components/forms/field-label.tsx';
import { earlyText, useEarlyInput } from '#app/components/forms/use-early-input.ts';

/*
 * The auth forms' plumbing: zod validation with the spec's messages next to each field
 * (aria-invalid, aria-describedby), server errors mapped by code to a field or to the form,
 * submit disabled while a request runs. Before hydration a submit is held and sent once the page
 * is ready, with what was typed meanwhile (useEarlyInput, decision 047).
 */

/** True once React runs in the browser. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

type Schema = Parameters<typeof validateForm>[0];

export interface AuthFormOptions<Field extends string> {
  /** Prefix of the inputs' ids. */
  id: string;
  schema: Schema;
  initial: Record<Field, string>;
  /** Gets the parsed values; a thrown error is shown by its code. */
  onSubmit: (data: Record<Field, string>) => Promise<void>;
}

export function useAuthForm<Field extends string>(options: AuthFormOptions<Field>) {
  const { id, schema, initial } = options;
  const fields = Object.keys(initial) as Field[];
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const mounted = useRef(true);
  const submitRef = useRef(options.onSubmit);
  submitRef.current = options.onSubmit;
  useEffect(() => {
    // Set again on mount: StrictMode mounts, unmounts and remounts in development.
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const formRef = useEarlyInput((typed) => {
    const text = earlyText(typed);
    const known = fields.filter((field) => text[field] !== undefined);
    if (known.length > 0)
      setValues((current) => ({
        ...current,
        ...Object.fromEntries(known.map((field) => [field, text[field]])),
      }));
  });

  const inputId = useCallback((field: Field) => `${id}-${field}`, [id]);
  const focus = (field: Field) => {
    const element = document.getElementById(inputId(field));
    element?.focus();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateForm(schema, values);
    if (!result.ok) {
      const found = result.errors as FieldErrors<Field>;
      setErrors(found);
      setFormError(undefined);
      const first = fields.find((field) => found[field] !== undefined);
      if (first) focus(first);
      return;
    }
    setErrors({});
    setFormError(undefined);
    setPending(true);
    submitRef
      .current(result.data as Record<Field, string>)
      .catch((error: unknown) => {
        if (!mounted.current) return;
        const failure = toFailure(error);
        const message = authErrorMessage(failure.code);
        const field = authErrorField(failure.field, fields);
        if (field) {
          setErrors({ [field]: message } as FieldErrors<Field>);
          focus(field);
        } else {
          setFormError(message);
        }
      })
      .finally(() => {
        if (mounted.current) setPending(false);
      });
  };

  const field = (name: Field) => ({
    id: inputId(name),
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [name]: value }));
      if (errors[name] !== undefined) setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  return { formRef, values, errors, formError, setFormError, pending, onSubmit, field };
}

export interface TextFieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** An i18n key (the validation or server message). */
  error?: string | undefined;
  hint?: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  maxLength?: number;
  autoFocus?: boolean;
  /** False for an optional field (announced as required otherwise). */
  required?: boolean;
  placeholder?: string;
}

/** A labelled input with its hint and error, wired for screen readers. */
export function TextField(props: TextFieldProps) {
  return (
    <div className="field">
      <FieldLabel htmlFor={props.id} required={props.required !== false}>
        {props.label}
      </FieldLabel>
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={props.onChange}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        autoFocus={props.autoFocus}
        placeholder={props.placeholder}
        aria-required={props.required === false ? undefined : 'true'}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(props.id, props.hint, props.error)}
      />
      <FieldNotes id={props.id} hint={props.hint} error={props.error} translateError />
    </div>
  );
}

/** The form-level message (a server error without a field), announced when it appears. */
export function FormMessage({
  message,
  kind = 'error',
}: {
  message?: string;
  kind?: 'error' | 'status';
}) {
  const { t } = useTranslation();
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      className={`form-message form-message--${kind}`}
    >
      {message ? <p>{t(keyFromData(message))}</p> : null}
    </div>
  );
}

/**
 * The submit button: disabled while the request runs. It works before hydration too: the
 * submit is held until the page is ready (decision 047).
 */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      className="button button--primary button--block"
      disabled={pending}
      aria-busy={pending || undefined}
    >
      {children}
    </button>
  );
}

import { forwardRef, type ChangeEvent, type HTMLAttributes, type ReactNode } from 'react';

import { describedBy, FieldNotes } from '#app/components/field-notes.tsx';

/*
 * The staff console's form fields: a label, the control, a hint and the error, wired for
 * screen readers (aria-required, aria-invalid, aria-describedby). The error is shown as given
 * (already translated) unless `translateError` says it is an i18n key. `readOnly` shows a value
 * that cannot change (a bank account's fixed details) as text in a read-only input.
 */

interface FieldProps {
  id: string;
  /** The control's name; none when left out. */
  name?: string | undefined;
  label: string;
  hint?: ReactNode | undefined;
  error?: string | undefined;
  translateError?: boolean;
  /** Marks the control aria-required (not on a read-only input). */
  required?: boolean;
  className?: string | undefined;
}

function Field(props: FieldProps & { children: ReactNode }) {
  const { id, hint, error, className } = props;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children}
      <FieldNotes
        id={id}
        hint={hint}
        error={error}
        translateError={props.translateError ?? false}
      />
    </div>
  );
}

function controlProps({ id, name, hint, error }: FieldProps, required: boolean) {
  return {
    id,
    name,
    'aria-required': required ? true : undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, hint, error),
  };
}

export const InputField = forwardRef<
  HTMLInputElement,
  FieldProps & {
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
    type?: 'text' | 'email' | 'date' | 'search';
    autoComplete?: string;
    inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
    maxLength?: number | undefined;
    readOnly?: boolean;
    spellCheck?: boolean | undefined;
  }
>(function InputField(props, ref) {
  const { required = false, readOnly = false } = props;
  return (
    <Field {...props}>
      <input
        ref={ref}
        {...controlProps(props, required && !readOnly)}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={props.onChange}
        autoComplete={props.autoComplete ?? 'off'}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        spellCheck={props.spellCheck}
        readOnly={readOnly}
      />
    </Field>
  );
});

export function TextAreaField(
  props: FieldProps & {
    value: string;
    onChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
    rows?: number;
    maxLength?: number | undefined;
    autoComplete?: string;
  },
) {
  return (
    <Field {...props}>
      <textarea
        {...controlProps(props, props.required ?? false)}
        value={props.value}
        rows={props.rows ?? 6}
        maxLength={props.maxLength}
        autoComplete={props.autoComplete}
        onChange={props.onChange}
      />
    </Field>
  );
}

/** A select: its options as `options`, or as children. */
export function SelectField(
  props: FieldProps & {
    value: string;
    onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
    options?: Array<{ value: string; label: string }>;
    children?: ReactNode;
  },
) {
  return (
    <Field {...props}>
      <select
        {...controlProps(props, props.required ?? false)}
        value={props.value}
        onChange={props.onChange}
      >
        {props.options
          ? props.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))
          : props.children}
      </select>
    </Field>
  );
}

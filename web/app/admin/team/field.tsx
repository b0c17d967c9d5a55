import { forwardRef, type ChangeEvent, type HTMLAttributes, type ReactNode } from 'react';

/*
 * The team pages' form fields: a label, the control, a hint and the error (already translated),
 * wired for screen readers (aria-invalid, aria-describedby). `readOnly` shows a value that
 * cannot change (a bank account's fixed details) as text in a read-only input.
 */

interface CommonProps {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  required?: boolean;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return (
    [error ? `${id}-error` : undefined, hint ? `${id}-hint` : undefined]
      .filter(Boolean)
      .join(' ') || undefined
  );
}

function Notes({ id, hint, error }: Pick<CommonProps, 'id' | 'hint' | 'error'>) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

export const InputField = forwardRef<
  HTMLInputElement,
  CommonProps & {
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
    type?: 'text' | 'email';
    autoComplete?: string;
    inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
    maxLength?: number;
    readOnly?: boolean;
    spellCheck?: boolean;
    className?: string;
  }
>(function InputField(props, ref) {
  const { id, label, hint, error, required = false, readOnly = false } = props;
  return (
    <div className={props.className ? `field ${props.className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        name={id}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={props.onChange}
        autoComplete={props.autoComplete ?? 'off'}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        spellCheck={props.spellCheck}
        readOnly={readOnly}
        aria-required={required && !readOnly ? true : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
});

export function SelectField(
  props: CommonProps & {
    value: string;
    onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
    children: ReactNode;
  },
) {
  const { id, label, hint, error, required = false } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={id}
        value={props.value}
        onChange={props.onChange}
        aria-required={required ? true : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      >
        {props.children}
      </select>
      <Notes id={id} hint={hint} error={error} />
    </div>
  );
}

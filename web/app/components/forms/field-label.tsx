import type { ReactNode } from 'react';

/*
 * A field's label with its required mark (issue 23: "each is marked required, visibly"). The
 * mark is for the eye: CSS draws it (`.field__label--required::after`) with empty alternative
 * text, so the label's text, and the field's accessible name, stay the field's name; screen
 * readers hear "required" from the control's aria-required.
 */
export function FieldLabel({
  htmlFor,
  required = true,
  children,
}: {
  htmlFor: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <label htmlFor={htmlFor} className={required ? 'field__label--required' : undefined}>
      {children}
    </label>
  );
}

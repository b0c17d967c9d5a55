import type { ReactNode } from 'react';

/*
 * A field's label with its required mark (issue 23: "each is marked required, visibly"). The
 * mark is for the eye; screen readers hear "required" from the control's aria-required, so
 * the mark is hidden from them and the label's name stays the field's name.
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
    <label htmlFor={htmlFor}>
      {children}
      {required ? (
        <span className="field__required" aria-hidden="true">
          {' *'}
        </span>
      ) : null}
    </label>
  );
}

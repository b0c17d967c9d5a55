import type { ChangeEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { keyFromData } from '@app/client/i18n/i18n.ts';

import { FieldLabel } from '#app/components/forms/field-label.tsx';

/** One of the order form's required agreements: a checkbox with its text and its error. */
export function Agreement(props: {
  id: string;
  name: string;
  checked: boolean;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const errorId = `${props.id}-error`;
  return (
    <div className="agreement">
      <input
        id={props.id}
        name={props.name}
        type="checkbox"
        checked={props.checked}
        onChange={props.onChange}
        aria-required="true"
        aria-invalid={props.error !== undefined}
        aria-describedby={props.error ? errorId : undefined}
      />
      <FieldLabel htmlFor={props.id}>{props.children}</FieldLabel>
      {props.error ? (
        <p id={errorId} className="field__error">
          {t(keyFromData(props.error))}
        </p>
      ) : null}
    </div>
  );
}

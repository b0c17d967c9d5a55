import { Input } from '@telegram-apps/telegram-ui';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';

import { keyFromData } from '@app/client/i18n/i18n.ts';

type InputProps = ComponentProps<typeof Input>;

/**
 * A labelled text field with its error (a catalog key) or hint under it, wired for screen
 * readers (`aria-invalid`, `aria-describedby` naming `<id>-error` or `<id>-hint`). The label is
 * also the placeholder: telegram-ui's iOS look draws no header.
 */
export function TextField({
  id,
  label,
  error,
  hint,
  onValue,
  ...input
}: Omit<InputProps, 'id' | 'header' | 'placeholder' | 'status' | 'onChange'> & {
  id: string;
  label: string;
  error: string | undefined;
  hint?: string | undefined;
  onValue: (value: string) => void;
}) {
  const { t } = useTranslation();
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <Input
        {...input}
        id={id}
        header={label}
        aria-label={label}
        placeholder={label}
        status={error ? 'error' : 'default'}
        aria-invalid={error !== undefined}
        aria-describedby={described}
        onChange={(event) => onValue(event.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {t(keyFromData(error))}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

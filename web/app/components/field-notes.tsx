import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { keyFromData } from '@app/client/i18n/i18n.ts';

/*
 * What every labelled field shows under its control: the hint and the error, each in a
 * paragraph the control names in aria-describedby (`describedBy`), the error first.
 */

/** The control's aria-describedby: the error's and the hint's ids, for those that are shown. */
export function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return (
    [error ? `${id}-error` : undefined, hint ? `${id}-hint` : undefined]
      .filter(Boolean)
      .join(' ') || undefined
  );
}

/**
 * The field's hint and error. `translateError`: the error is an i18n key (looked up in the
 * default namespace); otherwise it is shown as given (already translated).
 */
export function FieldNotes({
  id,
  hint,
  error,
  translateError = false,
}: {
  id: string;
  hint?: ReactNode | undefined;
  error?: string | undefined;
  translateError?: boolean;
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
          {translateError ? t(keyFromData(error)) : error}
        </p>
      ) : null}
    </>
  );
}

import { useTranslation } from 'react-i18next';

import { useCopy } from '@app/client/ui/use-copy.ts';

import { CheckIcon, CopyIcon } from '#app/components/icons.ts';

/** A labelled value with a copy button (payment details, transaction ids). */
export function CopyRow({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('exchange');
  const { copied, copy } = useCopy();
  return (
    <div className="copy-row">
      <span className="copy-row__label">{label}</span>
      <span className="copy-row__value mono">{value}</span>
      <button
        type="button"
        className="button button--small"
        aria-label={`${t('transaction.copy')}: ${label}`}
        onClick={() => void copy(value)}
      >
        {copied ? (
          <CheckIcon aria-hidden="true" size={16} />
        ) : (
          <CopyIcon aria-hidden="true" size={16} />
        )}
        {copied ? t('transaction.copied') : t('transaction.copy')}
      </button>
    </div>
  );
}

import { useTranslation } from 'react-i18next';

import { useCopy } from '@app/client/ui/use-copy.ts';

import { CheckIcon, CopyIcon } from '#app/components/icons.ts';

import { ExplorerLink } from './explorer-link.tsx';

/**
 * A labelled value with a copy button (payment details, transaction ids), and the block
 * explorer's page of it where the network has one (`explorer`, from @app/shared/exchange).
 */
export function CopyRow({
  label,
  value,
  explorer,
}: {
  label: string;
  value: string;
  explorer?: string | undefined;
}) {
  const { t } = useTranslation('exchange');
  const { copied, copy } = useCopy();
  return (
    <div className="copy-row">
      <span className="copy-row__label">{label}</span>
      <span className="copy-row__value mono">{value}</span>
      <span className="copy-row__actions">
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
        {explorer ? <ExplorerLink href={explorer} label={label} /> : null}
      </span>
    </div>
  );
}

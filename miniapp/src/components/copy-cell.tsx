import { Cell } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';

import { useCopy } from '@app/client/ui/use-copy.ts';

import { haptic } from '../telegram/sdk.ts';

/** A labelled value (address, IBAN, reference, tx id) that a tap copies, with a buzz. */
export function CopyCell({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('exchange');
  const { copied, copy } = useCopy();
  return (
    <Cell
      Component="button"
      className="cell-button"
      type="button"
      multiline
      subhead={label}
      aria-label={`${t('transaction.copy')}: ${label}`}
      after={
        <span className="copy-mark">
          {copied ? t('transaction.copied') : t('transaction.copy')}
        </span>
      }
      onClick={() => {
        void copy(value).then((done) => (done ? haptic.success() : haptic.error()));
      }}
    >
      <span className="mono">{value}</span>
    </Cell>
  );
}

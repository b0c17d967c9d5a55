import { Cell } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { haptic } from '../telegram/sdk.ts';

/** A labelled value (address, IBAN, reference, tx id) that a tap copies, with a buzz. */
export function CopyCell({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('exchange');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
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
        void navigator.clipboard?.writeText(value).then(
          () => {
            haptic.success();
            setCopied(true);
          },
          () => haptic.error(),
        );
      }}
    >
      <span className="mono">{value}</span>
    </Cell>
  );
}

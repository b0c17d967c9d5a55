import { useTranslation } from 'react-i18next';

import { chainPaymentLines } from '@app/client/exchange/chain-payments.ts';
import type { TransactionSubscription } from '@app/client/graphql/generated/user.ts';

import { useLocale } from '#app/i18n/locale.ts';

type Order = NonNullable<TransactionSubscription['transactions_by_pk']>;

/**
 * The payments a chain watcher saw to the order's deposit address (issue 25), live: seen with
 * its confirmations as a progress bar, confirmed, or gone after a re-organisation; each with
 * the explorer's page of its transaction. Nothing when no payment was seen.
 */
export function ChainPayments({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const lines = chainPaymentLines(order, t, locale);
  if (lines.length === 0) return null;
  const waiting = lines.some((line) => line.state === 'seen');
  return (
    <div className="chain-payments" data-testid="chain-payments">
      <h2 className="h4">{t('chain.title')}</h2>
      {lines.map((line) => (
        <p key={line.id} className={`notice chain-payment chain-payment--${line.state}`}>
          <span>{line.text}</span>
          {line.state === 'seen' ? (
            <progress
              max={line.required}
              value={Math.min(line.confirmations, line.required)}
              aria-label={line.text}
            />
          ) : null}
          {line.href ? (
            <>
              {' '}
              <a href={line.href} target="_blank" rel="noopener noreferrer">
                {t('chain.explorer')}
              </a>
            </>
          ) : null}
        </p>
      ))}
      {waiting ? <p className="field__hint">{t('chain.automatic')}</p> : null}
    </div>
  );
}

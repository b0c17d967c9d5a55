import { Text } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';

import { chainPaymentLines } from '@app/client/exchange/chain-payments.ts';
import type { Locale } from '@app/shared/i18n';

import { ExplorerCell } from '../components/explorer-cell.tsx';

import type { Order } from './types.ts';

/**
 * The payments a chain watcher saw to the order's deposit address (issue 25), live with the
 * order: seen with its confirmations, confirmed, or gone after a re-organisation, each with its
 * transaction in the explorer. Nothing when no payment was seen.
 */
export function ChainPayments({ order }: { order: Order }) {
  const { t, i18n } = useTranslation('trust');
  const locale = i18n.language as Locale;
  const lines = chainPaymentLines(order, t, locale);
  if (lines.length === 0) return null;
  return (
    <div className="chain-payments" data-testid="chain-payments">
      {lines.map((line) => (
        <div key={line.id}>
          <Text className="state-text">{line.text}</Text>
          {line.state === 'seen' ? (
            <progress
              max={line.required}
              value={Math.min(line.confirmations, line.required)}
              aria-label={line.text}
            />
          ) : null}
          <ExplorerCell href={line.href} label={line.text} />
        </div>
      ))}
      {lines.some((line) => line.state === 'seen') ? (
        <Text className="state-text">{t('chain.automatic')}</Text>
      ) : null}
    </div>
  );
}

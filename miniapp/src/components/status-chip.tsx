import { useTranslation } from 'react-i18next';

import type { OrderStatus } from '@app/shared/orders/status';

/** An order's status as a coloured chip (colour is never the only cue: the word is there). */
export function StatusChip({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('exchange');
  return (
    <span className={`status-chip status-chip--${status}`}>
      {t(`transaction.statuses.${status}`)}
    </span>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '#app/account/format.ts';
import { useLocale } from '#app/i18n/locale.ts';

import type { DetailOrder } from './action-fields.ts';
import { Facts } from './facts.tsx';
import { requisitesState } from './order-steps.ts';
import { LateBadge, useNow, useSpanText } from './timers.tsx';

/**
 * The order's deadlines (decision 015), on the page's clock: the operator's promise while the
 * order waits for them (late: badge and overdue timer), its place in the queue, the payment
 * window with what is left of it, and when it expired.
 */
export function DeadlineFacts({ order }: { order: DetailOrder }) {
  const { t } = useTranslation('staffOrders');
  const locale = useLocale();
  const now = useNow(
    1000,
    order.status === 'waiting_for_operator' || order.status === 'waiting_for_payment',
  );
  const span = useSpanText();
  const when = (iso: string | null | undefined) =>
    iso ? <time dateTime={iso}>{formatDateTime(iso, locale)}</time> : null;

  const requisites = requisitesState(order, now ?? 0);
  const waitingForPayment = order.status === 'waiting_for_payment';
  let payLeft: ReactNode = null;
  if (waitingForPayment && order.pay_by && now !== null) {
    const left = Date.parse(order.pay_by) - now;
    payLeft =
      left > 0 ? (
        <span className="staff-orders__timer">{t('detail.payLeft', { time: span(left) })}</span>
      ) : (
        <span className="staff-orders__timer staff-orders__timer--over">
          {t('detail.payOverdue', { time: span(-left) })}
        </span>
      );
  }

  let promise: ReactNode = null;
  if (requisites?.late) promise = <LateBadge overdueMs={now === null ? null : requisites.ms} />;
  else if (requisites && now !== null)
    promise = (
      <span className="staff-orders__timer">
        {t('detail.dueIn', { time: span(requisites.ms) })}
      </span>
    );

  const rows: Array<[string, ReactNode]> = [
    [
      t('detail.requisitesDue'),
      <span key="due" className="staff-orders__deadline">
        {when(order.requisites_due_at)}
        {promise}
      </span>,
    ],
    [t('detail.requisitesFlagged'), when(order.requisites_late_at)],
    [
      t('detail.queuePosition'),
      order.queue_position === null || order.queue_position === undefined
        ? null
        : String(order.queue_position),
    ],
    [
      t('detail.payBy'),
      order.pay_by ? (
        <span key="pay" className="staff-orders__deadline">
          {when(order.pay_by)}
          {payLeft}
        </span>
      ) : null,
    ],
    [t('detail.expiredAt'), when(order.expired_at)],
  ];
  return (
    <section aria-labelledby="order-deadlines-title">
      <h3 id="order-deadlines-title">{t('detail.deadlines')}</h3>
      <Facts rows={rows} />
    </section>
  );
}

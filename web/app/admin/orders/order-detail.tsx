import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import {
  StaffOrdersDetailDocument,
  StaffOrdersDetailLiveDocument,
} from '@app/client/graphql/generated/manager.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';

import { LoadFailed, Loading } from '#app/admin/states.tsx';

import { OrderBody } from './order-body.tsx';
import { statusClass, statusLabel } from './statuses.ts';

/**
 * The open order: what the customer ordered, the payment details given, the customer (account
 * e-mail, Telegram, level, completed orders), the status history (who and when) and the
 * operator's actions. It follows the order live: a change by anyone (another operator, the
 * customer canceling) shows at once, and the rest of the detail is fetched again.
 */
export function OrderDetail({
  id,
  focus,
  onFocused,
  closeSearch,
}: {
  id: string;
  focus: boolean;
  onFocused: () => void;
  closeSearch: string;
}) {
  const { t } = useTranslation('staffOrders');
  const detail = useQuery(StaffOrdersDetailDocument, { variables: { id } });
  const live = useSubscription(StaffOrdersDetailLiveDocument, { id });
  const heading = useRef<HTMLHeadingElement | null>(null);

  const stamp =
    live.status === 'live' && live.data.transactions_by_pk
      ? `${live.data.transactions_by_pk.status}|${live.data.transactions_by_pk.updated_at}`
      : '';
  const seen = useRef(stamp);
  const { refetch } = detail;
  useEffect(() => {
    if (seen.current === stamp) return;
    const before = seen.current;
    seen.current = stamp;
    if (before !== '') void refetch().catch(() => undefined);
  }, [refetch, stamp]);

  const order = detail.data?.transactions_by_pk;
  useEffect(() => {
    if (focus && order) {
      heading.current?.focus();
      onFocused();
    }
  }, [focus, order, onFocused]);

  const close = (
    <Link className="button button--small" to={{ search: closeSearch }} preventScrollReset>
      {t('detail.close')}
    </Link>
  );

  let body: ReactNode;
  if (detail.error && !order)
    body = <LoadFailed message={t('loadFailed')} className="staff-orders__error" />;
  else if (!detail.data) body = <Loading className="staff-orders__loading" />;
  else if (!order) body = <p>{t('detail.notFound')}</p>;
  else
    body = (
      <OrderBody
        order={order}
        onDone={() => {
          void refetch().catch(() => undefined);
          heading.current?.focus();
        }}
      />
    );

  return (
    <section className="card staff-orders__detail" aria-labelledby="order-detail-title">
      <div className="staff-orders__detail-header">
        <h2 id="order-detail-title" ref={heading} tabIndex={-1}>
          {order ? t('detail.title', { number: order.number }) : t('detail.label')}
        </h2>
        {order ? (
          <span className={statusClass(order.status)}>{statusLabel(t, order.status)}</span>
        ) : null}
        {close}
      </div>
      {body}
    </section>
  );
}

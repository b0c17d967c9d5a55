import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import {
  StaffOrdersDetailDocument,
  StaffOrdersDetailLiveDocument,
} from '@app/client/graphql/generated/manager.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';
import { currencyLabel } from '@app/shared/exchange';
import { isOrderStatus } from '@app/shared/orders/vocabulary';

import { formatAmount, formatDateTime } from '#app/account/format.ts';
import { LoadFailed, Loading } from '#app/admin/states.tsx';
import { useLocale } from '#app/i18n/locale.ts';

import type { DetailOrder } from './action-fields.ts';
import { OrderActions } from './order-actions.tsx';
import { requisitesState, signedDifference } from './order-steps.ts';
import { reasonLabel, statusClass, statusLabel } from './statuses.ts';
import { LateBadge, useNow, useSpanText } from './timers.tsx';

/** A definition list of label → value rows, the empty ones left out. */
function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="staff-orders__facts">
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <div key={label} className="staff-orders__fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

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

function OrderBody({ order, onDone }: { order: DetailOrder; onDone: () => void }) {
  const { t } = useTranslation('staffOrders');
  const locale = useLocale();
  const when = (iso: string | null) =>
    iso ? <time dateTime={iso}>{formatDateTime(iso, locale)}</time> : null;
  const send = `${formatAmount(order.send_amount)} ${currencyLabel(order.send_currency, order.send_currency_info)}`;
  const receive = `${formatAmount(order.receive_amount)} ${currencyLabel(order.receive_currency, order.receive_currency_info)}`;
  const statusText = (status: string) => (isOrderStatus(status) ? statusLabel(t, status) : status);
  const historyNote = (note: string) => reasonLabel(t, note) ?? note;
  const mono = (value: string | null) => (value ? <span className="mono">{value}</span> : null);
  const user = order.user;
  const account = order.bank_account;
  const hasRequisites = Boolean(order.deposit_address || account);

  return (
    <>
      <OrderActions order={order} onDone={onDone} />
      <DeadlineFacts order={order} />
      <PaymentFacts order={order} />

      <section aria-labelledby="order-facts-title">
        <h3 id="order-facts-title">{t('detail.order')}</h3>
        <Facts
          rows={[
            [t('detail.send'), send],
            [t('detail.receive'), receive],
            [t('detail.rate'), formatAmount(order.rate)],
            [t('detail.valueUsdt'), order.amount_usdt ? formatAmount(order.amount_usdt) : null],
            [t('detail.payoutTo'), mono(order.wallet_address ?? order.iban)],
            [t('detail.payoutMemo'), mono(order.payout_memo)],
            [t('detail.fullName'), order.full_name],
            [t('detail.email'), order.email],
            [t('detail.reason'), order.reason],
            [t('detail.created'), when(order.created_at)],
            [
              t('detail.source'),
              order.source === 'web' || order.source === 'telegram'
                ? t(`detail.sources.${order.source}`)
                : order.source,
            ],
            [
              t('detail.locale'),
              order.locale === 'en' || order.locale === 'ru' || order.locale === 'ua'
                ? t(`common:languages.${order.locale}`)
                : order.locale,
            ],
            [t('detail.id'), mono(order.id)],
            [t('detail.payoutTxId'), mono(order.payout_tx_id)],
            [
              t('detail.canceledBy'),
              order.canceled_by === 'user' || order.canceled_by === 'staff'
                ? t(`detail.canceledByWho.${order.canceled_by}`)
                : order.canceled_by,
            ],
            [t('detail.cancelReason'), order.cancel_reason],
          ]}
        />
      </section>

      {hasRequisites ? (
        <section aria-labelledby="order-requisites-title">
          <h3 id="order-requisites-title">{t('detail.requisites')}</h3>
          <Facts
            rows={
              account
                ? [
                    [t('detail.bankAccount'), account.label],
                    [t('detail.beneficiary'), account.beneficiary],
                    [t('detail.accountNumber'), mono(account.account_number)],
                    [t('detail.swift'), mono(account.swift_bic)],
                    [t('detail.bankAddress'), account.bank_address],
                    [t('detail.reference'), mono(order.payment_reference)],
                  ]
                : [
                    [t('detail.depositAddress'), mono(order.deposit_address)],
                    [t('detail.depositMemo'), mono(order.deposit_memo)],
                  ]
            }
          />
        </section>
      ) : null}

      <section aria-labelledby="order-customer-title">
        <h3 id="order-customer-title">{t('detail.customer')}</h3>
        {user ? (
          <>
            <Facts
              rows={[
                [t('detail.accountEmail'), user.email ?? t('detail.none')],
                [
                  t('detail.telegram'),
                  user.telegram_username ? `@${user.telegram_username}` : t('detail.none'),
                ],
                [t('detail.level'), user.user_level?.status ?? user.status],
                [t('detail.completedOrders'), String(user.completed_orders.aggregate?.count ?? 0)],
              ]}
            />
            {user.is_disabled ? (
              <p className="form-message form-message--error">{t('detail.disabled')}</p>
            ) : null}
          </>
        ) : (
          <p className="staff-orders__muted">{t('detail.noAccount')}</p>
        )}
      </section>

      <section aria-labelledby="order-history-title">
        <h3 id="order-history-title">{t('detail.history')}</h3>
        <ol className="staff-orders__history">
          {order.status_history.map((entry, index) => (
            <li key={`${entry.created_at}-${index}`}>
              <span className="staff-orders__history-step">
                {entry.from_status
                  ? t('detail.historyEntry', {
                      from: statusText(entry.from_status),
                      to: statusText(entry.to_status),
                    })
                  : t('detail.createdEntry', { to: statusText(entry.to_status) })}
              </span>
              <span className="staff-orders__muted">
                {when(entry.created_at)}{' '}
                {entry.changed_by_user?.email
                  ? t('detail.by', { who: entry.changed_by_user.email })
                  : t('detail.automatic')}
              </span>
              {entry.note ? (
                <span className="staff-orders__muted">{historyNote(entry.note)}</span>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

/**
 * The order's deadlines (decision 015), on the page's clock: the operator's promise while the
 * order waits for them (late: badge and overdue timer), its place in the queue, the payment
 * window with what is left of it, and when it expired.
 */
function DeadlineFacts({ order }: { order: DetailOrder }) {
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

/**
 * What arrived against what was ordered, why the order stepped aside (the customer's decision,
 * the hold), the figures it settled at or was re-quoted to, and the refund. Shown once there is
 * something to show.
 */
function PaymentFacts({ order }: { order: DetailOrder }) {
  const { t } = useTranslation('staffOrders');
  const locale = useLocale();
  const when = (iso: string | null | undefined) =>
    iso ? <time dateTime={iso}>{formatDateTime(iso, locale)}</time> : null;
  const mono = (value: string | null | undefined) =>
    value ? <span className="mono">{value}</span> : null;
  const sendCode = currencyLabel(order.send_currency, order.send_currency_info);
  const receiveCode = currencyLabel(order.receive_currency, order.receive_currency_info);
  const sendAmount = (value: string) => `${formatAmount(value)} ${sendCode}`;
  const receiveAmount = (value: string) => `${formatAmount(value)} ${receiveCode}`;

  const difference = order.received_amount
    ? signedDifference(order.received_amount, order.send_amount)
    : null;
  const why = reasonLabel(t, order.action_reason);
  const category = reasonLabel(t, order.hold_category);

  const payment: Array<[string, ReactNode]> = [
    [t('detail.expected'), order.received_amount ? sendAmount(order.send_amount) : null],
    [t('detail.received'), order.received_amount ? sendAmount(order.received_amount) : null],
    [
      t('detail.difference'),
      difference ? `${difference.sign}${sendAmount(difference.amount)}` : null,
    ],
    [t('detail.actionReason'), why],
    [t('detail.holdCategory'), category],
    [
      t('detail.settledReceive'),
      order.settled_receive_amount ? receiveAmount(order.settled_receive_amount) : null,
    ],
    [t('detail.settledRate'), order.settled_rate ? formatAmount(order.settled_rate) : null],
    [t('detail.requoted'), when(order.requoted_at)],
    [
      t('detail.quotedReceive'),
      order.quoted_receive_amount ? receiveAmount(order.quoted_receive_amount) : null,
    ],
    [t('detail.quotedRate'), order.quoted_rate ? formatAmount(order.quoted_rate) : null],
  ];
  const refund: Array<[string, ReactNode]> = [
    [t('detail.refundAddress'), mono(order.refund_address)],
    [t('detail.refundMemo'), mono(order.refund_memo)],
    [t('detail.refundTxId'), mono(order.refund_tx_id)],
    [t('detail.refundedAt'), when(order.refunded_at)],
  ];
  const shown = (rows: Array<[string, ReactNode]>) => rows.some(([, value]) => value);
  return (
    <>
      {shown(payment) ? (
        <section aria-labelledby="order-payment-title">
          <h3 id="order-payment-title">{t('detail.payment')}</h3>
          <Facts rows={payment} />
        </section>
      ) : null}
      {shown(refund) ? (
        <section aria-labelledby="order-refund-title">
          <h3 id="order-refund-title">{t('detail.refund')}</h3>
          <Facts rows={refund} />
        </section>
      ) : null}
    </>
  );
}

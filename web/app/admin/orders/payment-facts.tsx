import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { currencyLabel, explorerAddressUrl, explorerTxUrl } from '@app/shared/exchange';

import { formatAmount, formatDateTime } from '#app/account/format.ts';
import { useLocale } from '#app/i18n/locale.ts';

import type { DetailOrder } from './action-fields.ts';
import { ChainValue } from './chain-value.tsx';
import { Facts } from './facts.tsx';
import { signedDifference } from './order-steps.ts';
import { reasonLabel } from './statuses.ts';

/**
 * What arrived against what was ordered, why the order stepped aside (the customer's decision,
 * the hold), the figures it settled at or was re-quoted to, and the refund. Shown once there is
 * something to show.
 */
export function PaymentFacts({ order }: { order: DetailOrder }) {
  const { t } = useTranslation('staffOrders');
  const locale = useLocale();
  const when = (iso: string | null | undefined) =>
    iso ? <time dateTime={iso}>{formatDateTime(iso, locale)}</time> : null;
  const mono = (value: string | null | undefined) =>
    value ? <span className="mono">{value}</span> : null;
  const sendCode = currencyLabel(order.send_currency, order.send_currency_info);
  const receiveCode = currencyLabel(order.receive_currency, order.receive_currency_info);
  const sendAmount = (value: string) => `${formatAmount(value, locale)} ${sendCode}`;
  const receiveAmount = (value: string) => `${formatAmount(value, locale)} ${receiveCode}`;

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
    [t('detail.settledRate'), order.settled_rate ? formatAmount(order.settled_rate, locale) : null],
    [t('detail.requoted'), when(order.requoted_at)],
    [
      t('detail.quotedReceive'),
      order.quoted_receive_amount ? receiveAmount(order.quoted_receive_amount) : null,
    ],
    [t('detail.quotedRate'), order.quoted_rate ? formatAmount(order.quoted_rate, locale) : null],
  ];
  const refund: Array<[string, ReactNode]> = [
    // A refund goes back over the send currency's network.
    [
      t('detail.refundAddress'),
      order.refund_address ? (
        <ChainValue
          key="refund-address"
          value={order.refund_address}
          href={explorerAddressUrl(order.send_currency_info?.network, order.refund_address)}
          label={t('detail.refundAddress')}
        />
      ) : null,
    ],
    [t('detail.refundMemo'), mono(order.refund_memo)],
    [
      t('detail.refundTxId'),
      order.refund_tx_id ? (
        <ChainValue
          key="refund-tx"
          value={order.refund_tx_id}
          href={explorerTxUrl(order.send_currency_info?.network, order.refund_tx_id)}
          label={t('detail.refundTxId')}
        />
      ) : null,
    ],
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

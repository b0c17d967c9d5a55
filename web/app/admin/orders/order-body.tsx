import { useTranslation } from 'react-i18next';

import { currencyLabel } from '@app/shared/exchange';
import { isOrderStatus } from '@app/shared/orders/vocabulary';

import { formatAmount, formatDateTime } from '#app/account/format.ts';
import { useLocale } from '#app/i18n/locale.ts';

import type { DetailOrder } from './action-fields.ts';
import { DeadlineFacts } from './deadline-facts.tsx';
import { Facts } from './facts.tsx';
import { OrderActions } from './order-actions.tsx';
import { PaymentFacts } from './payment-facts.tsx';
import { reasonLabel, statusLabel } from './statuses.ts';

export function OrderBody({ order, onDone }: { order: DetailOrder; onDone: () => void }) {
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

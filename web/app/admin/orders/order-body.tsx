import { useTranslation } from 'react-i18next';

import { currencyLabel, explorerAddressUrl, explorerTxUrl } from '@app/shared/exchange';
import { isOrderStatus } from '@app/shared/orders/vocabulary';

import { formatAmount, formatDateTime } from '#app/account/format.ts';
import { CurrencyText } from '#app/exchange/currency-amount.tsx';
import { useLocale } from '#app/i18n/locale.ts';

import type { DetailOrder } from './action-fields.ts';
import { ChainValue } from './chain-value.tsx';
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
  // Icons beside the currencies (decision 038), as on the queue and the customer's order page.
  const send = (
    <CurrencyText
      code={order.send_currency}
      info={order.send_currency_info}
      text={`${formatAmount(order.send_amount, locale)} ${currencyLabel(order.send_currency, order.send_currency_info)}`}
    />
  );
  const receive = (
    <CurrencyText
      code={order.receive_currency}
      info={order.receive_currency_info}
      text={`${formatAmount(order.receive_amount, locale)} ${currencyLabel(order.receive_currency, order.receive_currency_info)}`}
    />
  );
  // The payout goes over the receive currency's network, the deposit over the send currency's.
  const payoutNetwork = order.iban ? null : order.receive_currency_info?.network;
  const depositNetwork = order.send_currency_info?.network;
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
            [t('detail.rate'), formatAmount(order.rate, locale)],
            [
              t('detail.valueUsdt'),
              order.amount_usdt ? formatAmount(order.amount_usdt, locale) : null,
            ],
            [
              t('detail.payoutTo'),
              order.wallet_address || order.iban ? (
                <ChainValue
                  key="payout-to"
                  value={order.wallet_address ?? order.iban}
                  href={explorerAddressUrl(payoutNetwork, order.wallet_address)}
                  label={t('detail.payoutTo')}
                />
              ) : null,
            ],
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
            [
              t('detail.payoutTxId'),
              order.payout_tx_id ? (
                <ChainValue
                  key="payout-tx"
                  value={order.payout_tx_id}
                  href={explorerTxUrl(payoutNetwork, order.payout_tx_id)}
                  label={t('detail.payoutTxId')}
                />
              ) : null,
            ],
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
                    [
                      t('detail.depositAddress'),
                      order.deposit_address ? (
                        <ChainValue
                          key="deposit"
                          value={order.deposit_address}
                          href={explorerAddressUrl(depositNetwork, order.deposit_address)}
                          label={t('detail.depositAddress')}
                        />
                      ) : null,
                    ],
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

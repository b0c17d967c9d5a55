import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { StaffCustomersRemoveCustomRateDocument } from '@app/client/graphql/generated/manager.ts';

import { DataTable } from '#app/account/data-table.tsx';
import { formatAmount, formatDateTime } from '#app/account/format.ts';
import { percentOf } from '@app/client/affiliate/referral.ts';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { notify } from '#app/components/notify/index.ts';
import { useLocale } from '#app/i18n/locale.ts';

import {
  levelOf,
  type Customer,
  type CustomRate,
  type Level,
  type RateCurrency,
} from './customer-data.ts';
import { LevelForm } from './level-form.tsx';
import { RateForm } from './rate-form.tsx';

/**
 * One customer: who they are, their level (administrators may change it) and completed orders,
 * and their custom rates (decision 008: prices in USDT per unit that replace the level's margin
 * for one currency, the buy side when the customer receives it, the sell side when they send it).
 */
export function CustomerPanel({
  customer,
  levels,
  currencies,
  admin,
  onChanged,
}: {
  customer: Customer;
  levels: Level[];
  currencies: RateCurrency[];
  admin: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const locale = useLocale();
  const level = levelOf(levels, customer.status);
  const name = customer.email ?? `@${customer.telegram_username ?? customer.id}`;
  const [editing, setEditing] = useState<{
    key: number;
    rate?: CustomRate;
    focus?: boolean;
  }>({ key: 0 });
  const [removing, setRemoving] = useState<CustomRate | null>(null);
  const [remove, { loading: removePending }] = useMutation(StaffCustomersRemoveCustomRateDocument);
  const [removeError, setRemoveError] = useState<string | undefined>();
  const currencyName = (code: string) => {
    const currency = currencies.find((row) => row.code === code);
    return currency
      ? `${currency.symbol}${currency.network ? ` (${currency.network})` : ''}`
      : code;
  };

  const confirmRemove = () => {
    if (!removing) return;
    remove({ variables: { id: removing.id } })
      .then(() => {
        notify.success(t('rates.removed', { currency: removing.currency_code, name }));
        setRemoving(null);
        onChanged();
      })
      .catch(() => setRemoveError(t('rates.errors.removeFailed')));
  };

  return (
    <section className="card customer-panel" aria-labelledby="customer-title">
      <h2 id="customer-title">{t('rates.customerTitle', { name })}</h2>
      <dl className="customer-panel__facts">
        <div>
          <dt>{t('rates.email')}</dt>
          <dd>{customer.email ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('rates.telegram')}</dt>
          <dd>{customer.telegram_username ? `@${customer.telegram_username}` : '—'}</dd>
        </div>
        <div>
          <dt>{t('rates.level')}</dt>
          <dd>
            {customer.user_level
              ? customer.status
              : t('rates.levelFallback', { status: customer.status })}
            {level ? (
              <span className="field__hint">
                {' '}
                {t('rates.levelMargins', {
                  buy: percentOf(level.buy_margin),
                  sell: percentOf(level.sell_margin),
                })}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>{t('rates.completedOrders')}</dt>
          <dd>{customer.completed_orders.aggregate?.count ?? 0}</dd>
        </div>
        <div>
          <dt>{t('rates.registered')}</dt>
          <dd>
            <time dateTime={customer.created_at}>
              {formatDateTime(customer.created_at, locale)}
            </time>
            {customer.is_disabled ? ` · ${t('rates.disabled')}` : null}
          </dd>
        </div>
      </dl>

      {admin ? (
        <LevelForm customer={customer} name={name} levels={levels} onChanged={onChanged} />
      ) : null}

      <h3>{t('rates.customRates')}</h3>
      <div className="rates-explained">
        <p>{t('rates.explainBuy')}</p>
        <p>{t('rates.explainSell')}</p>
        <p>{t('rates.explainEmpty')}</p>
      </div>
      {customer.custom_currencies.length === 0 ? (
        <p className="empty-state">{t('rates.noRates')}</p>
      ) : (
        <DataTable
          caption={t('rates.ratesCaption', { name })}
          columns={[
            { id: 'currency', label: t('rates.currency') },
            { id: 'buy', label: t('rates.buyRate') },
            { id: 'sell', label: t('rates.sellRate') },
            { id: 'updated', label: t('rates.updated') },
            { id: 'actions', label: t('rates.actions') },
          ]}
          rows={customer.custom_currencies.map((rate) => ({
            key: rate.id,
            cells: [
              currencyName(rate.currency_code),
              rate.buy_rate ? formatAmount(rate.buy_rate, locale) : t('rates.levelSide'),
              rate.sell_rate ? formatAmount(rate.sell_rate, locale) : t('rates.levelSide'),
              <time key="updated" dateTime={rate.updated_at}>
                {formatDateTime(rate.updated_at, locale)}
              </time>,
              <div key="actions" className="staff-customers__row-actions">
                <button
                  type="button"
                  className="button button--small"
                  aria-label={t('rates.editLabel', { currency: rate.currency_code })}
                  onClick={() =>
                    setEditing((current) => ({ key: current.key + 1, rate, focus: true }))
                  }
                >
                  {t('staff:actions.edit')}
                </button>
                <button
                  type="button"
                  className="button button--small button--danger"
                  aria-label={t('rates.removeLabel', { currency: rate.currency_code })}
                  onClick={() => {
                    setRemoveError(undefined);
                    setRemoving(rate);
                  }}
                >
                  {t('rates.remove')}
                </button>
              </div>,
            ],
          }))}
        />
      )}

      <RateForm
        key={editing.key}
        customer={customer}
        rate={editing.rate}
        focus={editing.focus === true}
        level={level}
        currencies={currencies}
        onSaved={onChanged}
      />

      {removing ? (
        <ConfirmDialog
          open
          danger
          title={t('rates.removeTitle', { currency: removing.currency_code })}
          description={t('rates.removeText', { currency: removing.currency_code, name })}
          confirmLabel={t('rates.remove')}
          pending={removePending}
          error={removeError}
          onConfirm={confirmRemove}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </section>
  );
}

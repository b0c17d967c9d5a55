import { useMutation } from '@apollo/client/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { DataTable } from '#app/account/data-table.tsx';
import { formatAmount, formatDateTime, percentOf } from '#app/account/format.ts';
import { ConfirmDialog } from '#app/admin/confirm-dialog.tsx';
import { InputField, SelectField } from '#app/admin/fields.tsx';
import { notify } from '#app/components/notify/index.ts';
import { formatRate } from '@app/shared/exchange';
import { StaffCustomersSetUserStatusDocument } from '@app/client/graphql/generated/administrator.ts';
import {
  StaffCustomersRemoveCustomRateDocument,
  StaffCustomersSetCustomRateDocument,
} from '@app/client/graphql/generated/manager.ts';
import { useLocale } from '#app/i18n/locale.ts';

import { levelOf, type Customer, type Level, type RateCurrency } from './customer-data.ts';
import { compare, levelPrices, parseRate } from './decimal.ts';

type CustomRate = Customer['custom_currencies'][number];

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
              rate.buy_rate ? formatAmount(rate.buy_rate) : t('rates.levelSide'),
              rate.sell_rate ? formatAmount(rate.sell_rate) : t('rates.levelSide'),
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

function LevelForm({
  customer,
  name,
  levels,
  onChanged,
}: {
  customer: Customer;
  name: string;
  levels: Level[];
  onChanged: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [status, setStatus] = useState(customer.status);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [save, { loading }] = useMutation(StaffCustomersSetUserStatusDocument);
  const options = levels.map((level) => ({ value: level.status, label: level.status }));
  if (!levels.some((level) => level.status === customer.status))
    options.unshift({ value: customer.status, label: customer.status });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status === customer.status) return;
    setError(undefined);
    setConfirming(true);
  };
  const confirm = () =>
    void save({ variables: { id: customer.id, status } })
      .then(() => {
        notify.success(t('rates.levelSet', { name, status }));
        setConfirming(false);
        onChanged();
      })
      .catch(() => setError(t('rates.errors.levelFailed')));

  return (
    <>
      <form className="staff-inline-form" noValidate onSubmit={onSubmit}>
        <SelectField
          id="customer-level"
          name="status"
          label={t('rates.setLevel')}
          hint={t('rates.setLevelHint')}
          value={status}
          options={options}
          onChange={(event) => setStatus(event.target.value)}
        />
        <button type="submit" className="button" disabled={status === customer.status}>
          {t('rates.setLevelButton')}
        </button>
      </form>
      {confirming ? (
        <ConfirmDialog
          open
          title={t('rates.setLevelTitle')}
          description={t('rates.setLevelText', { name, from: customer.status, to: status })}
          confirmLabel={t('rates.setLevelButton')}
          pending={loading}
          error={error}
          onConfirm={confirm}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

interface RateErrors {
  buy?: string;
  sell?: string;
  form?: string;
}

function RateForm({
  customer,
  rate,
  focus,
  level,
  currencies,
  onSaved,
}: {
  customer: Customer;
  rate: CustomRate | undefined;
  focus: boolean;
  level: Level | undefined;
  currencies: RateCurrency[];
  onSaved: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [currency, setCurrency] = useState(rate?.currency_code ?? currencies[0]?.code ?? '');
  const [buy, setBuy] = useState(rate?.buy_rate ? formatAmount(rate.buy_rate) : '');
  const [sell, setSell] = useState(rate?.sell_rate ? formatAmount(rate.sell_rate) : '');
  const [errors, setErrors] = useState<RateErrors>({});
  const [save, { loading }] = useMutation(StaffCustomersSetCustomRateDocument);
  const chosen = currencies.find((row) => row.code === currency);
  const market = chosen?.rates[0]?.price_usdt;
  const symbol = chosen?.symbol ?? currency;
  const existing = customer.custom_currencies.find((row) => row.currency_code === currency);
  const prices = market && level ? levelPrices(market, level) : undefined;
  const buyValue = parseRate(buy);
  const sellValue = parseRate(sell);

  useEffect(() => {
    // An Edit button brings the reader to the form.
    if (focus) document.getElementById('rate-buy')?.focus();
  }, [focus]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: RateErrors = {};
    if (buy.trim() !== '' && !buyValue) found.buy = 'staffCustomers:rates.errors.invalidRate';
    if (sell.trim() !== '' && !sellValue) found.sell = 'staffCustomers:rates.errors.invalidRate';
    if (buy.trim() === '' && sell.trim() === '') found.form = t('rates.errors.bothEmpty');
    setErrors(found);
    if (found.buy) document.getElementById('rate-buy')?.focus();
    else if (found.sell) document.getElementById('rate-sell')?.focus();
    else if (found.form) document.getElementById('rate-buy')?.focus();
    if (found.buy || found.sell || found.form) return;
    save({
      variables: {
        userId: customer.id,
        currency,
        buyRate: buyValue ?? null,
        sellRate: sellValue ?? null,
      },
    })
      .then(() => {
        notify.success(t('rates.saved', { currency }));
        onSaved();
      })
      .catch(() => setErrors({ form: t('rates.errors.saveFailed') }));
  };

  return (
    <form
      className="rate-form"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="rate-form-title"
      aria-busy={loading}
    >
      <h3 id="rate-form-title">
        {rate ? t('rates.editTitle', { currency: rate.currency_code }) : t('rates.setTitle')}
      </h3>
      <SelectField
        id="rate-currency"
        name="currency"
        label={t('rates.currency')}
        value={currency}
        options={currencies.map((row) => ({
          value: row.code,
          label: `${row.code} · ${row.name}${row.enabled ? '' : ` (${t('rates.currencyDisabled')})`}`,
        }))}
        onChange={(event) => setCurrency(event.target.value)}
      />
      <div className="rate-form__market" aria-live="polite" id="rate-market">
        {market ? (
          <p>
            {t('rates.market', { price: formatRate(market), symbol })}
            {prices && level
              ? ` ${t('rates.levelPrices', {
                  status: level.status,
                  buy: formatRate(prices.buy),
                  sell: formatRate(prices.sell),
                })}`
              : null}
          </p>
        ) : (
          <p>{t('rates.noMarket', { symbol })}</p>
        )}
        {existing && existing.id !== rate?.id ? <p>{t('rates.replaces', { currency })}</p> : null}
        <p className="field__hint">
          {t('rates.othersWithRate', {
            count: chosen?.custom_rates_aggregate.aggregate?.count ?? 0,
          })}
        </p>
      </div>
      <div className="rate-form__sides">
        <InputField
          id="rate-buy"
          name="buyRate"
          inputMode="decimal"
          label={t('rates.buyRateFor', { symbol })}
          hint={
            market && buyValue && compare(buyValue, market) < 0
              ? t('rates.buyBelowMarket')
              : t('rates.buyHint', { symbol })
          }
          value={buy}
          error={errors.buy}
          translateError
          onChange={(event) => {
            setBuy(event.target.value);
            setErrors({});
          }}
        />
        <InputField
          id="rate-sell"
          name="sellRate"
          inputMode="decimal"
          label={t('rates.sellRateFor', { symbol })}
          hint={
            market && sellValue && compare(sellValue, market) > 0
              ? t('rates.sellAboveMarket')
              : t('rates.sellHint', { symbol })
          }
          value={sell}
          error={errors.sell}
          translateError
          onChange={(event) => {
            setSell(event.target.value);
            setErrors({});
          }}
        />
      </div>
      {errors.form ? (
        <p className="form-message form-message--error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <button
        type="submit"
        className="button button--primary"
        disabled={loading || currency === ''}
        aria-busy={loading || undefined}
      >
        {t('rates.save')}
      </button>
    </form>
  );
}

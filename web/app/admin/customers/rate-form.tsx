import { useMutation } from '@apollo/client/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { StaffCustomersSetCustomRateDocument } from '@app/client/graphql/generated/manager.ts';
import { formatRateIn } from '@app/shared/exchange';

import { plainAmount } from '#app/account/format.ts';
import { InputField, SelectField } from '#app/admin/fields.tsx';
import { notify } from '#app/components/notify/index.ts';
import { useLocale } from '#app/i18n/locale.ts';

import type { Customer, CustomRate, Level, RateCurrency } from './customer-data.ts';
import { compare, levelPrices, parseRate } from './decimal.ts';

interface RateErrors {
  buy?: string;
  sell?: string;
  form?: string;
}

/** Sets one currency's custom buy and sell prices for the customer, against the level's. */
export function RateForm({
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
  const locale = useLocale();
  const price = (value: string) => formatRateIn(value, locale);
  const [currency, setCurrency] = useState(rate?.currency_code ?? currencies[0]?.code ?? '');
  const [buy, setBuy] = useState(rate?.buy_rate ? plainAmount(rate.buy_rate) : '');
  const [sell, setSell] = useState(rate?.sell_rate ? plainAmount(rate.sell_rate) : '');
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
            {t('rates.market', { price: price(market), symbol })}
            {prices && level
              ? ` ${t('rates.levelPrices', {
                  status: level.status,
                  buy: price(prices.buy),
                  sell: price(prices.sell),
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

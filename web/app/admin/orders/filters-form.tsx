import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { currencyLabel } from '@app/shared/exchange';

import {
  ORDER_NUMBER,
  QUEUE_SORTS,
  searchWithFilters,
  type QueueFilters,
  type QueueSort,
} from './queue-filters.ts';

export interface CurrencyOption {
  code: string;
  symbol: string;
  network: string | null;
}

type FieldErrors = Partial<Record<'number' | 'to', string>>;

const value = (form: FormData, name: string): string => {
  const entry = form.get(name);
  return typeof entry === 'string' ? entry.trim() : '';
};

/**
 * The queue's filters other than the status (the tabs): applied together with Apply, so the
 * address changes once and Back returns to the previous set. The inputs start from the address;
 * the form is remounted when the address changes (its `key`), so Back shows what it filters.
 */
export function FiltersForm({
  filters,
  currencies,
}: {
  filters: QueueFilters;
  currencies: CurrencyOption[];
}) {
  const { t } = useTranslation('staffOrders');
  const [searchParams, setSearchParams] = useSearchParams();
  const [errors, setErrors] = useState<FieldErrors>({});

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const number = value(form, 'number');
    const from = value(form, 'from');
    const to = value(form, 'to');
    const found: FieldErrors = {};
    if (number && !ORDER_NUMBER.test(number)) found.number = t('filters.numberInvalid');
    if (from && to && to < from) found.to = t('filters.dateInvalid');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const sort = value(form, 'sort');
    setSearchParams(
      searchWithFilters(searchParams, {
        status: filters.status,
        email: value(form, 'email'),
        number,
        send: value(form, 'send'),
        receive: value(form, 'receive'),
        from,
        to,
        late: form.get('late') === '1',
        sort: (QUEUE_SORTS as readonly string[]).includes(sort) ? (sort as QueueSort) : 'newest',
      }),
      { preventScrollReset: true },
    );
  };

  const reset = new URLSearchParams();
  const view = searchParams.get('view');
  if (view) reset.set('view', view);

  const currencySelect = (name: 'send' | 'receive') => (
    <div className="field">
      <label htmlFor={`orders-filter-${name}`}>{t(`filters.${name}`)}</label>
      <select id={`orders-filter-${name}`} name={name} defaultValue={filters[name] ?? ''}>
        <option value="">{t('filters.anyCurrency')}</option>
        {currencies.map((currency) => (
          <option key={currency.code} value={currency.code}>
            {currencyLabel(currency.code, currency)} · {currency.code}
          </option>
        ))}
        {filters[name] && !currencies.some((currency) => currency.code === filters[name]) ? (
          <option value={filters[name]}>{filters[name]}</option>
        ) : null}
      </select>
    </div>
  );

  const field = (
    name: 'email' | 'number' | 'from' | 'to',
    type: 'search' | 'date' | 'text',
    extra: { inputMode?: 'numeric'; autoComplete?: string } = {},
  ) => {
    const error = name === 'number' || name === 'to' ? errors[name] : undefined;
    const errorId = `orders-filter-${name}-error`;
    return (
      <div className="field">
        <label htmlFor={`orders-filter-${name}`}>{t(`filters.${name}`)}</label>
        <input
          id={`orders-filter-${name}`}
          name={name}
          type={type}
          defaultValue={filters[name] ?? ''}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...extra}
        />
        {error ? (
          <p id={errorId} className="field__error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form
      className="card staff-orders__filters"
      aria-labelledby="orders-filters-title"
      noValidate
      onSubmit={onSubmit}
    >
      <h2 id="orders-filters-title" className="visually-hidden">
        {t('filters.title')}
      </h2>
      <div className="staff-orders__filter-grid">
        {field('email', 'search', { autoComplete: 'off' })}
        {field('number', 'text', { inputMode: 'numeric', autoComplete: 'off' })}
        {currencySelect('send')}
        {currencySelect('receive')}
        {field('from', 'date')}
        {field('to', 'date')}
        <div className="field">
          <label htmlFor="orders-filter-sort">{t('filters.sort')}</label>
          <select id="orders-filter-sort" name="sort" defaultValue={filters.sort}>
            {QUEUE_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(`filters.sorts.${sort}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="staff-orders__filter-check">
          <input
            id="orders-filter-late"
            name="late"
            type="checkbox"
            value="1"
            defaultChecked={filters.late}
          />
          <label htmlFor="orders-filter-late">{t('filters.late')}</label>
        </div>
        <div className="staff-orders__filter-actions">
          <button type="submit" className="button button--primary">
            {t('staff:actions.apply')}
          </button>
          <Link className="button" to={{ search: reset.toString() }} preventScrollReset>
            {t('staff:actions.reset')}
          </Link>
        </div>
      </div>
    </form>
  );
}

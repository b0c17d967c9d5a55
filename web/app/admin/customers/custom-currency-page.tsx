import { useQuery } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { isAdmin } from '@app/client/auth/current-user.ts';
import {
  StaffCustomersFindUsersDocument,
  StaffCustomersRatesContextDocument,
} from '@app/client/graphql/generated/manager.ts';

import { DataTable } from '#app/account/data-table.tsx';
import { InputField } from '#app/admin/fields.tsx';
import { EmptyState, Loading, RetryButton } from '#app/admin/states.tsx';
import { useSession } from '#app/auth/session.ts';

import { CustomerPanel } from './customer-panel.tsx';
import { containsPattern } from './decimal.ts';
import { UserLevels } from './user-levels.tsx';

/** How many customers a search lists. */
export const SEARCH_LIMIT = 20;

/**
 * /admin/user-custom-currency: find a customer by a part of their e-mail or Telegram username
 * (`?q=`), open one (`&user=`), see their level and completed orders, set or remove their
 * per-currency rates; below, the user levels (administrators edit them).
 */
export function CustomCurrencyPage() {
  const { t } = useTranslation('staffCustomers');
  const admin = useSession((state) => isAdmin(state.user));
  const [searchParams, setSearchParams] = useSearchParams();
  const search = (searchParams.get('q') ?? '').trim();
  const context = useQuery(StaffCustomersRatesContextDocument);
  const found = useQuery(StaffCustomersFindUsersDocument, {
    variables: { pattern: containsPattern(search), limit: SEARCH_LIMIT },
    skip: search === '',
    notifyOnNetworkStatusChange: true,
  });
  const customers = search === '' ? undefined : found.data?.portal_users;
  const chosenId = searchParams.get('user');
  const chosen =
    customers?.find((customer) => customer.id === chosenId) ??
    (customers?.length === 1 ? customers[0] : undefined);

  const choose = (id: string) => {
    const next = new URLSearchParams(searchParams);
    next.set('user', id);
    setSearchParams(next, { replace: true });
  };
  const levels = context.data?.user_levels ?? [];
  const currencies = context.data?.currencies ?? [];

  return (
    <main id="main" className="container section account-page staff-customers">
      <div className="account-page__header">
        <h1>{t('rates.title')}</h1>
      </div>
      <p className="lead">{t('rates.lead')}</p>

      <SearchForm
        key={search}
        initial={search}
        onSearch={(text) => setSearchParams(text ? { q: text } : {})}
      />

      {search === '' ? null : found.error ? (
        <EmptyState title={t('rates.searchFailed')} alert>
          <RetryButton onRetry={() => void found.refetch()} />
        </EmptyState>
      ) : !customers ? (
        <Loading className="staff-customers__status" />
      ) : customers.length === 0 ? (
        <EmptyState title={t('rates.noCustomers', { search })}>
          <p>{t('rates.noCustomersHint')}</p>
        </EmptyState>
      ) : (
        <section className="staff-customers__results" aria-labelledby="results-title">
          <h2 id="results-title">
            {customers.length >= SEARCH_LIMIT
              ? t('rates.resultsMany', { count: customers.length })
              : t('rates.results', { count: customers.length })}
          </h2>
          <DataTable
            caption={t('rates.resultsCaption', { search })}
            columns={[
              { id: 'email', label: t('rates.email') },
              { id: 'telegram', label: t('rates.telegram') },
              { id: 'level', label: t('rates.level') },
              { id: 'orders', label: t('rates.completedOrders') },
              { id: 'custom', label: t('rates.customCount') },
              { id: 'actions', label: t('rates.actions') },
            ]}
            rows={customers.map((customer) => ({
              key: customer.id,
              cells: [
                customer.email ?? '—',
                customer.telegram_username ? `@${customer.telegram_username}` : '—',
                customer.status,
                String(customer.completed_orders.aggregate?.count ?? 0),
                String(customer.custom_currencies.length),
                customer.id === chosen?.id ? (
                  <span key="open" className="staff-customers__chosen">
                    {t('rates.opened')}
                  </span>
                ) : (
                  <button
                    key="open"
                    type="button"
                    className="button button--small"
                    aria-label={t('rates.openLabel', {
                      name: customer.email ?? customer.telegram_username ?? customer.id,
                    })}
                    onClick={() => choose(customer.id)}
                  >
                    {t('rates.open')}
                  </button>
                ),
              ],
            }))}
          />
        </section>
      )}

      {chosen ? (
        context.error ? (
          <p role="alert">{t('rates.contextFailed')}</p>
        ) : context.data ? (
          <CustomerPanel
            key={chosen.id}
            customer={chosen}
            levels={levels}
            currencies={currencies}
            admin={admin}
            onChanged={() => {
              void found.refetch();
              void context.refetch();
            }}
          />
        ) : null
      ) : null}

      <UserLevels
        levels={context.data ? levels : undefined}
        failed={context.error !== undefined}
        admin={admin}
        onRetry={() => void context.refetch()}
        onChanged={() => {
          void context.refetch();
          if (search !== '') void found.refetch();
        }}
      />
    </main>
  );
}

function SearchForm({ initial, onSearch }: { initial: string; onSearch: (text: string) => void }) {
  const { t } = useTranslation('staffCustomers');
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = value.trim();
    if (text === '') {
      setError('common:validation.required');
      document.getElementById('customer-search')?.focus();
      return;
    }
    onSearch(text);
  };
  return (
    <form
      className="card staff-search"
      role="search"
      aria-label={t('rates.searchLabel')}
      noValidate
      onSubmit={onSubmit}
    >
      <InputField
        id="customer-search"
        name="q"
        type="search"
        label={t('rates.search')}
        hint={t('rates.searchHint')}
        value={value}
        error={error}
        translateError
        onChange={(event) => {
          setValue(event.target.value);
          setError(undefined);
        }}
      />
      <button type="submit" className="button button--primary">
        {t('rates.find')}
      </button>
    </form>
  );
}

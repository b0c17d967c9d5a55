import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  StaffTeamBankAccountsDocument,
  StaffTeamFiatCurrenciesDocument,
  StaffTeamUpdateBankAccountDocument,
} from '@app/client/graphql/generated/manager.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';

import { DataTable } from '#app/account/data-table.tsx';
import { LoadingPage } from '#app/account/sign-in-prompt.tsx';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { EmptyState, LoadFailed } from '#app/admin/states.tsx';
import { useHydrated } from '#app/auth/form.tsx';
import { notify } from '#app/components/notify/index.ts';

import {
  BankAccountEditor,
  ordersOf,
  type BankAccountRow,
  type FiatCurrency,
} from './bank-account-editor.tsx';
import { accountName } from './bank-account-form.ts';
import { bankAccountRefusal } from './errors.ts';

/**
 * /admin/bank-accounts (managers and administrators; decisions 007 and 012): the service's
 * accounts, active first, with how many orders each was given; add one, edit one, deactivate or
 * activate it (confirmed). Nobody deletes an account. An account given to orders keeps its
 * payment details: the list says so and the editor shows them read-only.
 */
export function BankAccountsPage() {
  const { t } = useTranslation('staffTeam');
  const accounts = useQuery(StaffTeamBankAccountsDocument);
  const currencies = useQuery(StaffTeamFiatCurrenciesDocument);
  const refetch = () => Promise.all([accounts.refetch(), currencies.refetch()]);

  if (!accounts.data || !currencies.data) {
    if (accounts.error || currencies.error)
      return (
        <main id="main" className="container section team-page">
          <h1>{t('bankAccounts.title')}</h1>
          <LoadFailed
            className="team-alert"
            message={t('bankAccounts.list.loadFailed')}
            onRetry={refetch}
          />
        </main>
      );
    return <LoadingPage />;
  }
  return (
    <BankAccounts
      accounts={accounts.data.bank_accounts}
      currencies={currencies.data.currencies}
      refreshing={accounts.loading}
      refreshFailed={accounts.error !== undefined}
      refetch={() => accounts.refetch()}
    />
  );
}

type Editor = { account: BankAccountRow | null } | null;

function BankAccounts({
  accounts,
  currencies,
  refreshing,
  refreshFailed,
  refetch,
}: {
  accounts: BankAccountRow[];
  currencies: FiatCurrency[];
  refreshing: boolean;
  refreshFailed: boolean;
  refetch: () => Promise<unknown>;
}) {
  const { t } = useTranslation('staffTeam');
  const hydrated = useHydrated();
  const [editor, setEditor] = useState<Editor>(null);
  const [toggling, setToggling] = useState<BankAccountRow | null>(null);
  const [toggleError, setToggleError] = useState<string | undefined>();
  const [update, updating] = useMutation(StaffTeamUpdateBankAccountDocument);

  const reload = () => {
    refetch().catch(() => undefined);
  };
  // The row being edited as the list has it now (a reload may have changed its order count).
  const editing = editor?.account
    ? (accounts.find((row) => row.id === editor.account?.id) ?? editor.account)
    : null;

  const confirmToggle = () => {
    if (!toggling || updating.loading) return;
    const activate = !toggling.is_active;
    const name = accountName(toggling);
    update({ variables: { id: toggling.id, set: { is_active: activate } } })
      .then(({ data }) => {
        if (!data?.update_bank_accounts_by_pk) {
          setToggleError(t('bankAccounts.errors.notFound'));
          reload();
          return;
        }
        notify.success(
          activate
            ? t('bankAccounts.confirm.activated', { name })
            : t('bankAccounts.confirm.deactivated', { name }),
        );
        setToggling(null);
        reload();
      })
      .catch((error: unknown) => setToggleError(t(keyFromData(bankAccountRefusal(error)))));
  };

  const currencyName = (code: string) =>
    currencies.find((currency) => currency.code === code)?.name ?? code;
  const active = accounts.filter((account) => account.is_active).length;

  return (
    <main id="main" className="container section team-page">
      <header className="team-page__header team-page__header--row">
        <div>
          <h1>{t('bankAccounts.title')}</h1>
          <p className="team-page__lead">{t('bankAccounts.lead')}</p>
        </div>
        <button
          type="button"
          className="button button--primary"
          disabled={!hydrated}
          onClick={() => setEditor({ account: null })}
        >
          {t('bankAccounts.add')}
        </button>
      </header>

      <section className="team-list" aria-labelledby="accounts-title" aria-busy={refreshing}>
        <div className="team-list__header">
          <h2 id="accounts-title">
            {t('bankAccounts.list.titleWithCount', { count: accounts.length })}
          </h2>
          {accounts.length > 0 ? (
            <span className="team-muted">
              {t('bankAccounts.list.active')}: {active} · {t('bankAccounts.list.inactive')}:{' '}
              {accounts.length - active}
            </span>
          ) : null}
          {refreshing ? (
            <span className="team-muted" role="status">
              {t('refreshing')}
            </span>
          ) : null}
        </div>
        {refreshFailed ? (
          <LoadFailed
            className="team-alert"
            message={t('bankAccounts.list.loadFailed')}
            onRetry={refetch}
          />
        ) : null}
        {accounts.length === 0 ? (
          <EmptyState title={t('bankAccounts.list.empty')}>
            <p>{t('bankAccounts.list.emptyHint')}</p>
          </EmptyState>
        ) : (
          <DataTable
            caption={t('bankAccounts.list.caption')}
            columns={[
              { id: 'account', label: t('bankAccounts.list.account') },
              { id: 'details', label: t('bankAccounts.list.details') },
              { id: 'currency', label: t('bankAccounts.list.currency') },
              { id: 'status', label: t('bankAccounts.list.status') },
              { id: 'orders', label: t('bankAccounts.list.orders') },
              { id: 'actions', label: t('bankAccounts.list.actions') },
            ]}
            rows={accounts.map((account) => {
              const name = accountName(account);
              const orders = ordersOf(account);
              return {
                key: account.id,
                cells: [
                  <div key="account" className="team-account">
                    {account.label ? (
                      <strong>{account.label}</strong>
                    ) : (
                      <span className="team-muted">{t('bankAccounts.list.noLabel')}</span>
                    )}
                    <span>{account.beneficiary}</span>
                  </div>,
                  <dl key="details" className="team-details">
                    <div>
                      <dt>{t('bankAccounts.list.number')}</dt>
                      <dd className="mono">{account.account_number}</dd>
                    </div>
                    <div>
                      <dt>{t('bankAccounts.fields.swiftBic')}</dt>
                      <dd className="mono">{account.swift_bic}</dd>
                    </div>
                    <div>
                      <dt>{t('bankAccounts.fields.bankAddress')}</dt>
                      <dd>{account.bank_address}</dd>
                    </div>
                  </dl>,
                  <abbr key="currency" title={currencyName(account.currency_code)}>
                    {account.currency_code}
                  </abbr>,
                  <div key="status" className="team-status">
                    <span
                      className={`team-badge ${
                        account.is_active ? 'team-badge--active' : 'team-badge--inactive'
                      }`}
                    >
                      {account.is_active
                        ? t('bankAccounts.list.active')
                        : t('bankAccounts.list.inactive')}
                    </span>
                    {orders > 0 ? (
                      <span className="team-badge">{t('bankAccounts.list.locked')}</span>
                    ) : null}
                  </div>,
                  String(orders),
                  <div key="actions" className="team-actions">
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={t('bankAccounts.list.editLabel', { name })}
                      disabled={!hydrated}
                      onClick={() => setEditor({ account })}
                    >
                      {t('bankAccounts.list.edit')}
                    </button>
                    <button
                      type="button"
                      className={
                        account.is_active
                          ? 'button button--small button--danger'
                          : 'button button--small'
                      }
                      aria-label={
                        account.is_active
                          ? t('bankAccounts.list.deactivateLabel', { name })
                          : t('bankAccounts.list.activateLabel', { name })
                      }
                      disabled={!hydrated}
                      onClick={() => {
                        setToggleError(undefined);
                        setToggling(account);
                      }}
                    >
                      {account.is_active
                        ? t('bankAccounts.list.deactivate')
                        : t('bankAccounts.list.activate')}
                    </button>
                  </div>,
                ],
              };
            })}
          />
        )}
      </section>

      <BankAccountEditor
        open={editor !== null}
        account={editing}
        currencies={currencies}
        onClose={() => setEditor(null)}
        onSaved={reload}
      />

      <ConfirmDialog
        open={toggling !== null}
        title={
          toggling?.is_active
            ? t('bankAccounts.confirm.deactivateTitle', { name: accountName(toggling) })
            : toggling
              ? t('bankAccounts.confirm.activateTitle', { name: accountName(toggling) })
              : ''
        }
        description={
          toggling?.is_active
            ? t('bankAccounts.confirm.deactivateText')
            : toggling
              ? t('bankAccounts.confirm.activateText', { currency: toggling.currency_code })
              : undefined
        }
        confirmLabel={
          toggling?.is_active
            ? t('bankAccounts.confirm.deactivate')
            : t('bankAccounts.confirm.activate')
        }
        danger={toggling?.is_active ?? false}
        pending={updating.loading}
        error={toggleError}
        onConfirm={confirmToggle}
        onClose={() => {
          setToggling(null);
          setToggleError(undefined);
        }}
      />
    </main>
  );
}

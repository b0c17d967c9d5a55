import { useQuery } from '@apollo/client/react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { StaffOrdersActiveBankAccountsDocument } from '@app/client/graphql/generated/manager.ts';

import { InputField, SelectField } from '#app/admin/fields.tsx';

import type { ActionFieldErrors, ActionFields } from './action-fields.ts';

/**
 * The payment details an operator supplies: a deposit address (with its memo where the network
 * uses one) for crypto, else one of the active bank accounts in the currency, loaded here.
 */
export function SupplyFields({
  byAddress,
  memoRequired,
  currency,
  currencyLabel,
  fields,
  errors,
  set,
}: {
  byAddress: boolean;
  memoRequired: boolean;
  currency: string;
  currencyLabel: string;
  fields: ActionFields;
  errors: ActionFieldErrors;
  set: (
    name: keyof ActionFields,
  ) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => void;
}) {
  const { t } = useTranslation('staffOrders');
  const accounts = useQuery(StaffOrdersActiveBankAccountsDocument, {
    variables: { currency },
    skip: byAddress,
  });
  return byAddress ? (
    <>
      <InputField
        id="order-action-address"
        required
        label={t('actions.depositAddress', { currency: currencyLabel })}
        value={fields.address}
        onChange={set('address')}
        error={errors.address}
        maxLength={128}
      />
      <InputField
        id="order-action-memo"
        label={t('actions.depositMemo')}
        value={fields.memo}
        onChange={set('memo')}
        error={errors.memo}
        hint={memoRequired ? t('actions.memoRequired') : t('actions.memoOptional')}
        required={memoRequired}
        maxLength={64}
      />
    </>
  ) : accounts.error ? (
    <p className="form-message form-message--error">{t('actions.accountsFailed')}</p>
  ) : !accounts.data ? (
    <p role="status">{t('common:loading')}</p>
  ) : accounts.data.bank_accounts.length === 0 ? (
    <p className="form-message form-message--error">
      {t('actions.noAccounts', { currency: currencyLabel })}
    </p>
  ) : (
    <SelectField
      id="order-action-account"
      required
      label={t('actions.bankAccount', { currency: currencyLabel })}
      value={fields.account}
      onChange={set('account')}
      error={errors.account}
    >
      <option value="">{t('actions.chooseAccount')}</option>
      {accounts.data.bank_accounts.map((account) => (
        <option key={account.id} value={account.id}>
          {t('actions.accountOption', {
            label: account.label ?? account.beneficiary,
            number: account.account_number,
          })}
        </option>
      ))}
    </SelectField>
  );
}

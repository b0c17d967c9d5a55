import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { currencyLabel, type CurrencyOption } from '@app/shared/exchange';
import {
  MEMO_MAX_LENGTH,
  type ExchangeFormField as Field,
  type ExchangeFormValues as Values,
  type FieldErrors,
} from '@app/shared/forms';

import { TextField } from '#app/auth/form.tsx';

const label = (currency: CurrencyOption) => currencyLabel(currency.code, currency);

/**
 * The order form's "your details" fieldset: the e-mail and name, where the payout goes (a wallet
 * address with its memo, an IBAN, or cash in person), where a refund would go (issue 10) and the
 * reason for the exchange. Fields follow the pair: a crypto payout asks for an address, a bank
 * payout for an IBAN.
 */
export function OrderDetailsFields({
  from,
  to,
  values,
  errors,
  setValue,
  payoutMemo,
  refundKind,
  refundMemo,
}: {
  from: CurrencyOption;
  to: CurrencyOption;
  values: Values;
  errors: FieldErrors<Field>;
  setValue: (field: keyof Values) => (event: ChangeEvent<HTMLInputElement>) => void;
  payoutMemo: boolean;
  refundKind: 'crypto' | 'fiat' | undefined;
  refundMemo: boolean;
}) {
  const { t } = useTranslation('exchange');
  const payoutKind = to.kind;
  const errorOf = (field: Field) => errors[field];
  return (
    <fieldset className="card">
      <legend>{t('create.detailsLegend')}</legend>
      <TextField
        id="order-email"
        name="email"
        type="email"
        autoComplete="email"
        label={t('create.email')}
        hint={t('create.emailHint')}
        value={values.email}
        error={errorOf('email')}
        onChange={setValue('email')}
      />
      <TextField
        id="order-fullName"
        name="fullName"
        autoComplete="name"
        label={t('create.fullName')}
        value={values.fullName}
        error={errorOf('fullName')}
        onChange={setValue('fullName')}
        maxLength={200}
      />
      {payoutKind === 'crypto' ? (
        <TextField
          id="order-walletAddress"
          name="walletAddress"
          autoComplete="off"
          label={t('create.walletAddress', { network: to.network ?? to.symbol })}
          hint={t('create.walletHint', { currency: to.symbol })}
          value={values.walletAddress}
          error={errorOf('walletAddress')}
          onChange={setValue('walletAddress')}
          maxLength={128}
        />
      ) : null}
      {payoutMemo ? (
        <TextField
          id="order-payoutMemo"
          name="payoutMemo"
          autoComplete="off"
          label={t('trust:create.payoutMemo')}
          hint={t('trust:create.payoutMemoHint')}
          value={values.payoutMemo ?? ''}
          error={errorOf('payoutMemo')}
          onChange={setValue('payoutMemo')}
          maxLength={MEMO_MAX_LENGTH}
          required={false}
        />
      ) : null}
      {payoutKind === 'crypto' ? null : payoutKind === 'fiat' ? (
        <TextField
          id="order-iban"
          name="iban"
          autoComplete="off"
          label={t('create.iban')}
          hint={t('create.ibanHint')}
          value={values.iban}
          error={errorOf('iban')}
          onChange={setValue('iban')}
          maxLength={42}
        />
      ) : (
        <p className="field__hint">{t('create.cashHint')}</p>
      )}
      {refundKind ? (
        <TextField
          id="order-refundAddress"
          name="refundAddress"
          autoComplete="off"
          label={
            refundKind === 'crypto' ? t('trust:create.refundAddress') : t('trust:create.refundIban')
          }
          hint={t('trust:create.refundAddressHint', { currency: label(from) })}
          value={values.refundAddress ?? ''}
          error={errorOf('refundAddress')}
          onChange={setValue('refundAddress')}
          maxLength={refundKind === 'crypto' ? 128 : 42}
          required={false}
        />
      ) : null}
      {refundMemo ? (
        <TextField
          id="order-refundMemo"
          name="refundMemo"
          autoComplete="off"
          label={t('trust:create.refundMemo')}
          value={values.refundMemo ?? ''}
          error={errorOf('refundMemo')}
          onChange={setValue('refundMemo')}
          maxLength={MEMO_MAX_LENGTH}
          required={false}
        />
      ) : null}
      <TextField
        id="order-reason"
        name="reason"
        label={t('create.reason')}
        hint={t('create.reasonHint')}
        value={values.reason}
        error={errorOf('reason')}
        onChange={setValue('reason')}
        maxLength={1000}
      />
    </fieldset>
  );
}

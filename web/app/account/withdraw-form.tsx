import { useMutation } from '@apollo/client/react';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { RequestBonusWithdrawalDocument } from '@app/client/graphql/generated/user.ts';
import { GraphqlRequestError } from '@app/client/graphql/request.ts';
import {
  MIN_WITHDRAWAL_USDT,
  validateForm,
  withdrawalErrorMessage,
  withdrawalForm,
  type FieldErrors,
} from '@app/shared/forms';

import { TextField, useHydrated } from '#app/auth/form.tsx';
import { notify } from '#app/components/notify/index.ts';
import { useLocale } from '#app/i18n/locale.ts';

import { formatAmount } from './format.ts';

type Field = 'amount' | 'walletAddress';

/**
 * Withdraw affiliate bonuses (spec section 9): at least 100 USDT, at most the balance, to a
 * TRC20 wallet. The form checks both first; the action's codes (`below-minimum`,
 * `insufficient-balance`, `invalid-input` with its field) are shown in the page's language.
 */
export function WithdrawForm({
  available,
  onRequested,
}: {
  /** The available balance, a decimal string. */
  available: string;
  onRequested: () => void;
}) {
  const { t } = useTranslation('account');
  const locale = useLocale();
  const hydrated = useHydrated();
  const [values, setValues] = useState<Record<Field, string>>({ amount: '', walletAddress: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [requestWithdrawal, { loading: pending }] = useMutation(RequestBonusWithdrawalDocument);

  const setValue = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field] !== undefined) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const focus = (field: Field) => document.getElementById(`withdraw-${field}`)?.focus();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateForm(withdrawalForm(available), values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = (['amount', 'walletAddress'] as const).find((field) => result.errors[field]);
      if (first) focus(first);
      return;
    }
    setErrors({});
    requestWithdrawal({
      variables: { amount: result.data.amount, walletAddress: result.data.walletAddress },
    })
      .then(({ data }) => {
        const withdrawal = data?.requestBonusWithdrawal;
        if (!withdrawal) throw new Error('no withdrawal was made');
        notify.success(
          t('affiliate.withdraw.requested', {
            amount: formatAmount(withdrawal.amountUsdt, locale),
          }),
        );
        setValues({ amount: '', walletAddress: '' });
        onRequested();
      })
      .catch((error: unknown) => {
        const failure = GraphqlRequestError.is(error)
          ? withdrawalErrorMessage(error.code, error.errors[0]?.extensions?.['field'])
          : withdrawalErrorMessage(undefined);
        if (failure.field) {
          setErrors({ [failure.field]: failure.message });
          focus(failure.field);
        } else {
          notify.error();
        }
      });
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={pending} className="withdraw-form">
      <p className="withdraw-form__rules">
        {t('affiliate.withdraw.rules', { minimum: MIN_WITHDRAWAL_USDT })}
      </p>
      <p className="withdraw-form__balance">
        {t('affiliate.withdraw.balance', { amount: formatAmount(available, locale) })}
      </p>
      <TextField
        id="withdraw-amount"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        label={t('affiliate.withdraw.amount')}
        value={values.amount}
        error={errors.amount}
        onChange={setValue('amount')}
        maxLength={20}
      />
      <TextField
        id="withdraw-walletAddress"
        name="walletAddress"
        autoComplete="off"
        label={t('affiliate.withdraw.walletAddress')}
        hint={t('affiliate.withdraw.walletHint')}
        value={values.walletAddress}
        error={errors.walletAddress}
        onChange={setValue('walletAddress')}
        maxLength={128}
      />
      <button
        type="submit"
        className="button button--primary"
        disabled={!hydrated || pending}
        aria-busy={pending || undefined}
      >
        {pending ? t('affiliate.withdraw.submitting') : t('affiliate.withdraw.submit')}
      </button>
    </form>
  );
}

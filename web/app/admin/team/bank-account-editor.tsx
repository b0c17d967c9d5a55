import { useMutation } from '@apollo/client/react';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import {
  StaffTeamCreateBankAccountDocument,
  StaffTeamUpdateBankAccountDocument,
  type StaffTeamBankAccountsQuery,
  type StaffTeamFiatCurrenciesQuery,
} from '@app/client/graphql/generated/manager.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { useLatest } from '@app/client/ui/use-latest.ts';

import { InputField, SelectField } from '#app/admin/fields.tsx';
import { useHydrated } from '#app/auth/form.tsx';
import { notify } from '#app/components/notify/index.ts';

import {
  accountName,
  changedColumns,
  DETAIL_FIELDS,
  EMPTY_BANK_ACCOUNT,
  firstInvalid,
  LIMITS,
  validateBankAccount,
  valuesOf,
  type BankAccountErrors,
  type BankAccountField,
  type BankAccountValues,
} from './bank-account-form.ts';
import { bankAccountRefusal } from './errors.ts';

export type BankAccountRow = StaffTeamBankAccountsQuery['bank_accounts'][number];
export type FiatCurrency = StaffTeamFiatCurrenciesQuery['currencies'][number];

/** How many orders were given the account: its payment details are fixed from the first. */
export const ordersOf = (account: BankAccountRow): number => account.orders.aggregate?.count ?? 0;

const inputId = (field: BankAccountField) => `bank-account-${field}`;

/**
 * Add a bank account, or edit one, in a modal dialog (focus kept inside, Escape closes, focus
 * back to the button that opened it). Each field is checked first with a message next to it;
 * the database judges again. An account that orders were given shows its payment details
 * read-only and says why: only its label can change.
 */
/** The text fields with a hint in the catalog (staffTeam:bankAccounts.hints). */
const HINTED = ['label', 'accountNumber', 'swiftBic'] as const;
const isHinted = (field: string): field is (typeof HINTED)[number] =>
  (HINTED as readonly string[]).includes(field);

export function BankAccountEditor({
  open,
  account,
  currencies,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The account to edit; a new one without. */
  account: BankAccountRow | null;
  currencies: FiatCurrency[];
  onClose: () => void;
  /** After a save (or a refusal that means the list is stale): the list reloads. */
  onSaved: () => void;
}) {
  const { t } = useTranslation('staffTeam');
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const latestAccount = useLatest(account);
  const [values, setValues] = useState<BankAccountValues>(EMPTY_BANK_ACCOUNT);
  const [errors, setErrors] = useState<BankAccountErrors>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [create, creating] = useMutation(StaffTeamCreateBankAccountDocument);
  const [update, updating] = useMutation(StaffTeamUpdateBankAccountDocument);
  const pending = creating.loading || updating.loading;
  const orders = account ? ordersOf(account) : 0;
  const locked = orders > 0;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setValues(latestAccount.current ? valuesOf(latestAccount.current) : EMPTY_BANK_ACCOUNT);
      setErrors({});
      setFormError(undefined);
      element.showModal();
      element.querySelector<HTMLElement>('input:not([readonly]), select')?.focus();
    } else if (!open && element.open) {
      element.close();
    }
    // Reset only when the dialog opens, not when the list reloads under it.
  }, [open, latestAccount]);

  const codes = currencies.map((currency) => currency.code);
  if (account && !codes.includes(account.currency_code)) codes.push(account.currency_code);

  const set =
    (field: BankAccountField) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [field]: value }));
      if (errors[field] !== undefined) setErrors((current) => ({ ...current, [field]: undefined }));
    };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateBankAccount(values, codes);
    // Fixed details are not the form's to judge: only the label is sent.
    const shown: BankAccountErrors = result.ok
      ? {}
      : locked
        ? { label: result.errors.label }
        : result.errors;
    const first = firstInvalid(shown);
    if (first) {
      setErrors(shown);
      setFormError(undefined);
      document.getElementById(inputId(first))?.focus();
      return;
    }
    setErrors({});
    setFormError(undefined);
    const data = result.ok
      ? result.data
      : { ...accountColumns(account), label: values.label.trim() || null };

    if (!account) {
      create({ variables: { object: data } })
        .then(({ data: answer }) => {
          const created = answer?.insert_bank_accounts_one;
          if (!created) throw new Error('the bank account was not created');
          notify.success(t('bankAccounts.form.created', { name: accountName(created) }));
          onSaved();
          onClose();
        })
        .catch((error: unknown) => setFormError(t(keyFromData(bankAccountRefusal(error)))));
      return;
    }

    const changes = changedColumns(accountColumns(account), data, locked);
    if (Object.keys(changes).length === 0) {
      notify.success(t('bankAccounts.form.unchanged'));
      onClose();
      return;
    }
    update({ variables: { id: account.id, set: changes } })
      .then(({ data: answer }) => {
        const saved = answer?.update_bank_accounts_by_pk;
        if (!saved) {
          setFormError(t('bankAccounts.errors.notFound'));
          onSaved();
          return;
        }
        notify.success(t('bankAccounts.form.saved', { name: accountName(saved) }));
        onSaved();
        onClose();
      })
      .catch((error: unknown) => {
        const key = bankAccountRefusal(error);
        setFormError(t(keyFromData(key)));
        // An order was given the account meanwhile: the list shows it fixed now.
        if (key.endsWith('.locked')) onSaved();
      });
  };

  const name = account ? accountName(account) : '';
  const title = account
    ? t('bankAccounts.form.editTitle', { name })
    : t('bankAccounts.form.createTitle');
  const currencyLabel = (code: string) => {
    const currency = currencies.find((entry) => entry.code === code);
    if (!currency) return code;
    return currency.enabled
      ? t('bankAccounts.form.currencyOption', { code, name: currency.name })
      : t('bankAccounts.form.currencyOptionDisabled', { code, name: currency.name });
  };
  const readOnly = (field: BankAccountField) => locked && DETAIL_FIELDS.includes(field);
  const text = (
    field: Exclude<BankAccountField, 'currency'>,
    options: { maxLength?: number; hint?: boolean; code?: boolean; wide?: boolean } = {},
  ) => (
    <InputField
      id={inputId(field)}
      name={inputId(field)}
      label={t(`bankAccounts.fields.${field}`)}
      hint={
        options.hint && isHinted(field) && !readOnly(field)
          ? t(`bankAccounts.hints.${field}`)
          : undefined
      }
      error={errors[field] ? t(keyFromData(errors[field])) : undefined}
      value={values[field]}
      onChange={set(field)}
      readOnly={readOnly(field)}
      required={field !== 'label'}
      spellCheck={options.code ? false : undefined}
      {...(options.maxLength ? { maxLength: options.maxLength } : {})}
      {...(options.code ? { className: 'team-code' } : {})}
      {...(options.wide ? { className: 'team-editor__wide' } : {})}
    />
  );

  return (
    <dialog
      ref={dialog}
      className="dialog card team-editor"
      aria-labelledby="bank-account-title"
      onClose={onClose}
    >
      <form noValidate onSubmit={onSubmit} aria-busy={pending}>
        <h2 id="bank-account-title">{title}</h2>
        {locked ? (
          <p className="team-notice" id="bank-account-locked">
            {t('bankAccounts.form.locked', { count: orders })}
          </p>
        ) : null}
        <div className="team-editor__grid">
          {text('label', { maxLength: LIMITS.label + 16, hint: true })}
          {readOnly('currency') ? (
            <InputField
              id={inputId('currency')}
              name={inputId('currency')}
              label={t('bankAccounts.fields.currency')}
              value={currencyLabel(values.currency)}
              onChange={() => undefined}
              readOnly
            />
          ) : (
            <SelectField
              id={inputId('currency')}
              name={inputId('currency')}
              label={t('bankAccounts.fields.currency')}
              hint={t('bankAccounts.hints.currency')}
              error={errors.currency ? t(keyFromData(errors.currency)) : undefined}
              value={values.currency}
              onChange={set('currency')}
              required
            >
              <option value="">{t('bankAccounts.form.chooseCurrency')}</option>
              {codes.map((code) => (
                <option key={code} value={code}>
                  {currencyLabel(code)}
                </option>
              ))}
            </SelectField>
          )}
          {text('beneficiary', { maxLength: LIMITS.beneficiary + 20, wide: true })}
          {text('accountNumber', { maxLength: 48, hint: true, code: true })}
          {text('swiftBic', { maxLength: 16, hint: true, code: true })}
          {text('bankAddress', { maxLength: LIMITS.bankAddress + 20, wide: true })}
        </div>
        {formError ? (
          <p className="form-message form-message--error" role="alert">
            {formError}
          </p>
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('bankAccounts.form.cancel')}
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={!hydrated || pending}
            aria-busy={pending || undefined}
          >
            {pending
              ? t('staff:actions.working')
              : account
                ? t('bankAccounts.form.save')
                : t('bankAccounts.form.create')}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function accountColumns(account: BankAccountRow | null) {
  return {
    label: account?.label ?? null,
    beneficiary: account?.beneficiary ?? '',
    account_number: account?.account_number ?? '',
    swift_bic: account?.swift_bic ?? '',
    bank_address: account?.bank_address ?? '',
    currency_code: account?.currency_code ?? '',
  };
}

import { useMutation, useQuery } from '@apollo/client/react';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { ConfirmDialog } from '#app/admin/confirm-dialog.tsx';
import { InputField, SelectField, TextAreaField } from '#app/admin/fields.tsx';
import { formatAmount } from '#app/account/format.ts';
import { notify } from '#app/components/notify/index.ts';
import { currencyLabel } from '#app/exchange/currency-label.ts';
import { asOrderStatus } from '#app/exchange/order-status.ts';
import {
  StaffOrdersActiveBankAccountsDocument,
  StaffOrdersCancelDocument,
  StaffOrdersCompleteDocument,
  StaffOrdersConfirmPaymentDocument,
  StaffOrdersSupplyRequisitesDocument,
  type StaffOrdersDetailQuery,
} from '#app/graphql/generated/manager.ts';

import { actionErrorMessage } from './action-error.ts';

export type DetailOrder = NonNullable<StaffOrdersDetailQuery['transactions_by_pk']>;

type Action = 'supply' | 'confirm' | 'complete' | 'cancel';

/** Which steps an order in `status` offers, in the order the buttons show them. */
export function actionsFor(status: string): Action[] {
  switch (asOrderStatus(status)) {
    case 'waiting_for_operator':
      return ['supply', 'cancel'];
    case 'waiting_for_payment':
      return ['confirm', 'cancel'];
    case 'paid':
      return ['complete'];
    default:
      return [];
  }
}

/** Whether requisites are a deposit address (crypto) or one of the bank accounts (the rest). */
export const paidByAddress = (order: Pick<DetailOrder, 'send_currency_info'>): boolean =>
  order.send_currency_info?.kind === 'crypto';

interface Fields {
  address: string;
  memo: string;
  account: string;
  txId: string;
  reason: string;
}

const EMPTY: Fields = { address: '', memo: '', account: '', txId: '', reason: '' };
type FieldErrors = Partial<Record<keyof Fields, string>>;

/**
 * The operator's steps on one order: give payment details, confirm the payment, complete with
 * the payout's tx id, cancel with a reason. Each opens the confirm dialog saying what will
 * happen; success is a notification (and the live panel moves on), a failure stays in the
 * dialog with what was typed.
 */
export function OrderActions({ order, onDone }: { order: DetailOrder; onDone: () => void }) {
  const { t } = useTranslation('staffOrders');
  const [action, setAction] = useState<Action | null>(null);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const byAddress = paidByAddress(order);
  const memoRequired = order.send_currency_info?.memo_required === true;
  const sendCurrency = currencyLabel(order.send_currency, order.send_currency_info);
  const sendAmount = `${formatAmount(order.send_amount)} ${sendCurrency}`;
  const receiveAmount = `${formatAmount(order.receive_amount)} ${currencyLabel(order.receive_currency, order.receive_currency_info)}`;

  const accounts = useQuery(StaffOrdersActiveBankAccountsDocument, {
    variables: { currency: order.send_currency },
    skip: action !== 'supply' || byAddress,
  });
  const [supply] = useMutation(StaffOrdersSupplyRequisitesDocument);
  const [confirmPayment] = useMutation(StaffOrdersConfirmPaymentDocument);
  const [complete] = useMutation(StaffOrdersCompleteDocument);
  const [cancel] = useMutation(StaffOrdersCancelDocument);

  const available = actionsFor(order.status);
  const open = (next: Action) => {
    setFields(EMPTY);
    setErrors({});
    setFailure(undefined);
    setAction(next);
  };
  // Escape closes the dialog even while a step runs; its outcome is then a notification.
  const shown = useRef<Action | null>(null);
  shown.current = action;
  const close = () => setAction(null);
  const set =
    (name: keyof Fields) =>
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const value = event.target.value;
      setFields((current) => ({ ...current, [name]: value }));
    };

  const validate = (): FieldErrors => {
    const found: FieldErrors = {};
    const required = t('errors.required');
    if (action === 'supply' && byAddress) {
      const address = fields.address.trim();
      if (!address) found.address = required;
      else if (address.length < 10 || address.length > 128)
        found.address = t('errors.addressLength');
      if (memoRequired && !fields.memo.trim()) found.memo = required;
    }
    if (action === 'supply' && !byAddress && !fields.account) found.account = required;
    if (action === 'complete' && !fields.txId.trim()) found.txId = required;
    if (action === 'cancel' && !fields.reason.trim()) found.reason = required;
    return found;
  };

  const run = async () => {
    if (!action) return;
    const found = validate();
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const id = order.id;
    const number = order.number;
    try {
      if (action === 'supply') {
        const memo = fields.memo.trim();
        await supply({
          variables: byAddress
            ? { id, depositAddress: fields.address.trim(), ...(memo ? { depositMemo: memo } : {}) }
            : { id, bankAccountId: fields.account },
        });
        notify.success(t('actions.supplied', { number }));
      } else if (action === 'confirm') {
        await confirmPayment({ variables: { id } });
        notify.success(t('actions.confirmed', { number }));
      } else if (action === 'complete') {
        await complete({ variables: { id, payoutTxId: fields.txId.trim() } });
        notify.success(t('actions.completed', { number }));
      } else {
        await cancel({ variables: { id, reason: fields.reason.trim() } });
        notify.success(t('actions.canceled', { number }));
      }
      setPending(false);
      setAction(null);
      onDone();
    } catch (error) {
      setPending(false);
      const message = actionErrorMessage(error, t);
      if (shown.current === null) notify.error(message);
      else setFailure(message);
    }
  };

  const buttonLabel: Record<Action, string> = {
    supply: t('actions.supply'),
    confirm: t('actions.confirmPayment'),
    complete: t('actions.complete'),
    cancel: t('actions.cancel'),
  };

  const dialog = (() => {
    const number = order.number;
    switch (action) {
      case 'supply':
        return {
          title: t('actions.supplyTitle', { number }),
          description: byAddress
            ? t('actions.supplyCrypto', { amount: sendAmount })
            : t('actions.supplyFiat', { amount: sendAmount }),
          body: byAddress ? (
            <>
              <InputField
                id="order-action-address"
                required
                label={t('actions.depositAddress', { currency: sendCurrency })}
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
              {t('actions.noAccounts', { currency: sendCurrency })}
            </p>
          ) : (
            <SelectField
              id="order-action-account"
              required
              label={t('actions.bankAccount', { currency: sendCurrency })}
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
          ),
          confirm: buttonLabel.supply,
          danger: false,
        };
      case 'confirm':
        return {
          title: t('actions.confirmTitle', { number }),
          description: t('actions.confirmText', { amount: sendAmount }),
          body: null,
          confirm: buttonLabel.confirm,
          danger: false,
        };
      case 'complete':
        return {
          title: t('actions.completeTitle', { number }),
          description: t('actions.completeText', {
            amount: receiveAmount,
            address: order.wallet_address ?? order.iban ?? '',
          }),
          body: (
            <InputField
              id="order-action-tx"
              required
              label={t('actions.payoutTxId')}
              value={fields.txId}
              onChange={set('txId')}
              error={errors.txId}
              maxLength={256}
            />
          ),
          confirm: buttonLabel.complete,
          danger: false,
        };
      case 'cancel':
        return {
          title: t('actions.cancelTitle', { number }),
          description: t('actions.cancelText'),
          body: (
            <TextAreaField
              id="order-action-reason"
              required
              label={t('actions.cancelReason')}
              value={fields.reason}
              onChange={set('reason')}
              error={errors.reason}
              rows={3}
              autoComplete="off"
              maxLength={500}
            />
          ),
          confirm: buttonLabel.cancel,
          danger: true,
        };
      default:
        return null;
    }
  })();

  return (
    <section className="staff-orders__actions" aria-labelledby="order-actions-title">
      <h3 id="order-actions-title">{t('detail.actions')}</h3>
      {available.length === 0 ? (
        <p className="staff-orders__muted">
          {t('detail.noActions', {
            status: t(`exchange:transaction.statuses.${asOrderStatus(order.status)}`),
          })}
        </p>
      ) : (
        <div className="staff-orders__action-buttons">
          {available.map((each) => (
            <button
              key={each}
              type="button"
              className={each === 'cancel' ? 'button button--danger' : 'button button--primary'}
              onClick={() => open(each)}
            >
              {buttonLabel[each]}
            </button>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={dialog !== null}
        title={dialog?.title ?? ''}
        description={dialog?.description}
        confirmLabel={dialog?.confirm ?? ''}
        danger={dialog?.danger ?? false}
        pending={pending}
        error={failure}
        onConfirm={() => void run()}
        onClose={close}
      >
        {dialog?.body}
      </ConfirmDialog>
    </section>
  );
}

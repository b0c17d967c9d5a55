import { useMutation, useQuery } from '@apollo/client/react';
import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { ConfirmDialog } from '#app/admin/confirm-dialog.tsx';
import { InputField, SelectField, TextAreaField } from '#app/admin/fields.tsx';
import { formatAmount } from '#app/account/format.ts';
import { notify } from '#app/components/notify/index.ts';
import { currencyLabel } from '@app/shared/exchange';
import {
  StaffOrdersActiveBankAccountsDocument,
  StaffOrdersCancelDocument,
  StaffOrdersCompleteDocument,
  StaffOrdersCompleteRefundDocument,
  StaffOrdersConfirmPaymentDocument,
  StaffOrdersHoldDocument,
  StaffOrdersReleaseHoldDocument,
  StaffOrdersSupplyRequisitesDocument,
  type StaffOrdersDetailQuery,
} from '@app/client/graphql/generated/manager.ts';

import { actionErrorMessage } from './action-error.ts';
import {
  checkReceived,
  holdRecordsAmount,
  refundDestination,
  signedDifference,
  stepsFor,
  type ReceivedCheck,
  type Step,
} from './order-steps.ts';
import { HOLD_CATEGORIES, isHoldCategory } from '@app/shared/orders/vocabulary';
import { reasonLabel, statusLabel } from './statuses.ts';

export type DetailOrder = NonNullable<StaffOrdersDetailQuery['transactions_by_pk']>;

/** Which steps an order in `status` offers, in the order the buttons show them. */
export const actionsFor = stepsFor;

/** Whether requisites are a deposit address (crypto) or one of the bank accounts (the rest). */
export const paidByAddress = (order: Pick<DetailOrder, 'send_currency_info'>): boolean =>
  order.send_currency_info?.kind === 'crypto';

interface Fields {
  address: string;
  memo: string;
  account: string;
  txId: string;
  reason: string;
  amount: string;
  category: string;
}

const EMPTY: Fields = {
  address: '',
  memo: '',
  account: '',
  txId: '',
  reason: '',
  amount: '',
  category: '',
};
type FieldErrors = Partial<Record<keyof Fields, string>>;

/** Steps that end something or send money back: their confirm button says so. */
const DANGER: ReadonlySet<Step> = new Set<Step>(['cancel', 'refund']);

/** Decimals a currency without a known precision is given. */
const DEFAULT_PRECISION = 8;

/**
 * The operator's steps on one order, exactly those its status allows (decision 015): give
 * payment details, confirm the payment with the amount received, record a late payment, hold
 * for review, release or refund a hold, complete the payout or the refund, cancel. Each opens
 * the confirm dialog saying what will happen; success is a notification (and the live panel
 * moves on), a failure stays in the dialog with what was typed.
 */
export function OrderActions({ order, onDone }: { order: DetailOrder; onDone: () => void }) {
  const { t } = useTranslation('staffOrders');
  const [action, setAction] = useState<Step | null>(null);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const byAddress = paidByAddress(order);
  const memoRequired = order.send_currency_info?.memo_required === true;
  const precision = order.send_currency_info?.precision ?? DEFAULT_PRECISION;
  const sendCurrency = currencyLabel(order.send_currency, order.send_currency_info);
  const receiveCurrency = currencyLabel(order.receive_currency, order.receive_currency_info);
  const inSend = (amount: string) => `${formatAmount(amount)} ${sendCurrency}`;
  const sendAmount = inSend(order.send_amount);
  // What the customer is paid: the settlement at the current rate when they continued with
  // the amount that arrived, else the locked figure.
  const payout = order.settled_receive_amount ?? order.receive_amount;
  const receiveAmount = `${formatAmount(payout)} ${receiveCurrency}`;
  const refundAmount = inSend(order.received_amount ?? order.send_amount);

  const accounts = useQuery(StaffOrdersActiveBankAccountsDocument, {
    variables: { currency: order.send_currency },
    skip: action !== 'supply' || byAddress,
  });
  const [supply] = useMutation(StaffOrdersSupplyRequisitesDocument);
  const [confirmPayment] = useMutation(StaffOrdersConfirmPaymentDocument);
  const [hold] = useMutation(StaffOrdersHoldDocument);
  const [releaseHold] = useMutation(StaffOrdersReleaseHoldDocument);
  const [completeRefund] = useMutation(StaffOrdersCompleteRefundDocument);
  const [complete] = useMutation(StaffOrdersCompleteDocument);
  const [cancel] = useMutation(StaffOrdersCancelDocument);

  const available = stepsFor(order.status);
  const withAmount = (step: Step | null): boolean =>
    step === 'confirm' ||
    step === 'latePayment' ||
    (step === 'hold' && holdRecordsAmount(order.status));

  const open = (next: Step) => {
    setFields({ ...EMPTY, amount: withAmount(next) ? formatAmount(order.send_amount) : '' });
    setErrors({});
    setFailure(undefined);
    setAction(next);
  };
  // Escape closes the dialog even while a step runs; its outcome is then a notification.
  const shown = useRef<Step | null>(null);
  shown.current = action;
  const close = () => setAction(null);
  const set =
    (name: keyof Fields) =>
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const value = event.target.value;
      setFields((current) => ({ ...current, [name]: value }));
      // A corrected field is judged again on submit; its old error would now mislead.
      setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
    };

  const received: ReceivedCheck | null = withAmount(action)
    ? checkReceived(fields.amount, order.send_amount, precision, order.status === 'expired')
    : null;

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
    if ((action === 'complete' || action === 'completeRefund') && !fields.txId.trim())
      found.txId = required;
    if (action === 'cancel' && !fields.reason.trim()) found.reason = required;
    if (action === 'hold' && !isHoldCategory(fields.category))
      found.category = t('errors.category');
    if (received && !received.ok) {
      found.amount =
        received.error === 'required'
          ? required
          : received.error === 'precision'
            ? t('errors.amountPrecision', { precision })
            : t('errors.amountInvalid');
    }
    return found;
  };

  /** The notification for where the order went (the action answers its new status). */
  const outcome = (status: string | undefined, reason: string | null): string => {
    const number = order.number;
    switch (status) {
      case 'paid':
        return action === 'release'
          ? t('actions.released', { number })
          : t('actions.confirmed', { number });
      case 'needs_user_action':
        return t('actions.needsCustomer', { number, reason: reasonLabel(t, reason) ?? '' });
      case 'on_hold':
        return t('actions.held', { number, category: reasonLabel(t, fields.category) ?? '' });
      case 'refund_in_progress':
        return t('actions.refundStarted', { number });
      case 'refunded':
        return t('actions.refunded', { number });
      default:
        return t('staff:done');
    }
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
    const receivedAmount = received?.ok ? received.amount : undefined;
    try {
      if (action === 'supply') {
        const memo = fields.memo.trim();
        await supply({
          variables: byAddress
            ? { id, depositAddress: fields.address.trim(), ...(memo ? { depositMemo: memo } : {}) }
            : { id, bankAccountId: fields.account },
        });
        notify.success(t('actions.supplied', { number }));
      } else if (action === 'confirm' || action === 'latePayment') {
        const result = await confirmPayment({ variables: { id, receivedAmount } });
        const reason = received?.ok && received.outcome !== 'paid' ? received.outcome : null;
        notify.success(outcome(result.data?.confirmPayment?.status, reason));
      } else if (action === 'hold') {
        const result = await hold({
          variables: {
            id,
            category: fields.category,
            ...(receivedAmount ? { receivedAmount } : {}),
          },
        });
        notify.success(outcome(result.data?.holdOrder?.status, null));
      } else if (action === 'release' || action === 'refund') {
        const result = await releaseHold({
          variables: { id, outcome: action === 'release' ? 'release' : 'refund' },
        });
        notify.success(outcome(result.data?.releaseHold?.status, 'refund_required'));
      } else if (action === 'completeRefund') {
        const result = await completeRefund({ variables: { id, refundTxId: fields.txId.trim() } });
        notify.success(outcome(result.data?.completeRefund?.status, null));
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

  const buttonLabel: Record<Step, string> = {
    supply: t('actions.supply'),
    confirm: t('actions.confirmPayment'),
    latePayment: t('actions.latePayment'),
    hold: t('actions.hold'),
    complete: t('actions.complete'),
    release: t('actions.release'),
    refund: t('actions.refund'),
    completeRefund: t('actions.completeRefund'),
    cancel: t('actions.cancel'),
  };

  /**
   * The amount-received field and, when confirming, what that amount will do to the order (a
   * hold only records it: the order is on hold whatever arrived).
   */
  const amountField = (withOutcome: boolean) => (
    <>
      <InputField
        id="order-action-amount"
        required
        label={t('actions.receivedAmount', { currency: sendCurrency })}
        value={fields.amount}
        onChange={set('amount')}
        error={errors.amount}
        hint={t('actions.receivedHint', { amount: sendAmount })}
        inputMode="decimal"
        maxLength={50}
        spellCheck={false}
      />
      {withOutcome ? (
        <p
          className={
            received?.ok && received.outcome !== 'paid'
              ? 'staff-orders__outcome staff-orders__outcome--aside'
              : 'staff-orders__outcome'
          }
          aria-live="polite"
        >
          {received?.ok ? outcomeText(received) : null}
        </p>
      ) : null}
    </>
  );

  function outcomeText(check: Extract<ReceivedCheck, { ok: true }>): string {
    const difference = signedDifference(check.amount, order.send_amount);
    const by = difference ? inSend(difference.amount) : '';
    switch (check.outcome) {
      case 'underpaid':
        return t('actions.outcomeUnderpaid', { difference: by });
      case 'overpaid':
        return t('actions.outcomeOverpaid', { difference: by });
      case 'late_payment':
        return t('actions.outcomeLate');
      default:
        return t('actions.outcomePaid');
    }
  }

  const refundTo = refundDestination(order);
  const memoNote = (memo: string | null | undefined): ReactNode =>
    memo ? <p>{t('actions.memoNote', { memo })}</p> : null;

  const dialog = ((): {
    title: string;
    description: ReactNode;
    body: ReactNode;
  } | null => {
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
        };
      case 'confirm':
        return {
          title: t('actions.confirmTitle', { number }),
          description: t('actions.confirmText', { amount: sendAmount }),
          body: amountField(true),
        };
      case 'latePayment':
        return {
          title: t('actions.latePaymentTitle', { number }),
          description: t('actions.latePaymentText'),
          body: amountField(true),
        };
      case 'hold':
        return {
          title: t('actions.holdTitle', { number }),
          description: t('actions.holdText'),
          body: (
            <>
              <SelectField
                id="order-action-category"
                required
                label={t('actions.holdCategory')}
                value={fields.category}
                onChange={set('category')}
                error={errors.category}
                hint={
                  isHoldCategory(fields.category)
                    ? t('actions.customerSees', {
                        text: t(`trust:hold.categories.${fields.category}`),
                      })
                    : undefined
                }
              >
                <option value="">{t('actions.chooseCategory')}</option>
                {HOLD_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {t(`holdCategories.${category}`)}
                  </option>
                ))}
              </SelectField>
              {holdRecordsAmount(order.status) ? amountField(false) : null}
            </>
          ),
        };
      case 'release':
        return {
          title: t('actions.releaseTitle', { number }),
          description: t('actions.releaseText', { amount: receiveAmount }),
          body:
            order.received_amount && signedDifference(order.received_amount, order.send_amount) ? (
              <p className="staff-orders__outcome staff-orders__outcome--aside">
                {t('actions.releaseReceived', {
                  received: inSend(order.received_amount),
                  expected: sendAmount,
                })}
              </p>
            ) : null,
        };
      case 'refund':
        return {
          title: t('actions.refundTitle', { number }),
          description:
            refundTo === 'address'
              ? t('actions.refundToAddress', { address: order.refund_address ?? '' })
              : refundTo === 'cash'
                ? t('actions.refundCash')
                : t('actions.refundAsk'),
          body: refundTo === 'address' ? memoNote(order.refund_memo) : null,
        };
      case 'completeRefund':
        return {
          title: t('actions.completeRefundTitle', { number }),
          description: (
            <>
              <p>
                {order.refund_address
                  ? t('actions.completeRefundText', {
                      amount: refundAmount,
                      address: order.refund_address,
                    })
                  : t('actions.completeRefundCash', { amount: refundAmount })}
              </p>
              {memoNote(order.refund_memo)}
            </>
          ),
          body: (
            <InputField
              id="order-action-tx"
              required
              label={t('actions.refundTxId')}
              value={fields.txId}
              onChange={set('txId')}
              error={errors.txId}
              maxLength={256}
              spellCheck={false}
            />
          ),
        };
      case 'complete':
        return {
          title: t('actions.completeTitle', { number }),
          description: (
            <>
              <p>
                {t('actions.completeText', {
                  amount: receiveAmount,
                  address: order.wallet_address ?? order.iban ?? '',
                })}
              </p>
              {memoNote(order.payout_memo)}
            </>
          ),
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
        };
      default:
        return null;
    }
  })();

  let idle: string;
  if (order.status === 'needs_user_action')
    idle =
      order.action_reason === 'refund_required'
        ? t('detail.waitingForRefundAddress')
        : t('detail.waitingForCustomer');
  else idle = t('detail.noActions', { status: statusLabel(t, order.status) });

  return (
    <section className="staff-orders__actions" aria-labelledby="order-actions-title">
      <h3 id="order-actions-title">{t('detail.actions')}</h3>
      {available.length === 0 ? (
        <p className="staff-orders__muted">{idle}</p>
      ) : (
        <div className="staff-orders__action-buttons">
          {available.map((each) => (
            <button
              key={each}
              type="button"
              className={
                DANGER.has(each)
                  ? 'button button--danger'
                  : each === available[0]
                    ? 'button button--primary'
                    : 'button'
              }
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
        confirmLabel={action ? buttonLabel[action] : ''}
        danger={action !== null && DANGER.has(action)}
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

import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { currencyLabel } from '@app/shared/exchange';
import { HOLD_CATEGORIES, isHoldCategory } from '@app/shared/orders/vocabulary';

import { formatAmount, plainAmount } from '#app/account/format.ts';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { InputField, SelectField, TextAreaField } from '#app/admin/fields.tsx';
import { notify } from '#app/components/notify/index.ts';
import { useLocale } from '#app/i18n/locale.ts';

import { actionErrorMessage } from './action-error.ts';
import {
  duplicateWarningOf,
  DuplicateTxWarning,
  warnsAbout,
  type DuplicateWarning,
} from './duplicate-tx.tsx';
import { SupplyFields } from './supply-fields.tsx';
import { useRunStep } from './use-run-step.ts';
import {
  EMPTY_ACTION_FIELDS,
  validateActionFields,
  type ActionFieldErrors,
  type ActionFields,
  type DetailOrder,
} from './action-fields.ts';
import {
  checkReceived,
  holdRecordsAmount,
  refundDestination,
  signedDifference,
  stepsFor,
  type ReceivedCheck,
  type Step,
} from './order-steps.ts';
import { statusLabel } from './statuses.ts';

/** Which steps an order in `status` offers, in the order the buttons show them. */
export const actionsFor = stepsFor;

/** Whether requisites are a deposit address (crypto) or one of the bank accounts (the rest). */
export const paidByAddress = (order: Pick<DetailOrder, 'send_currency_info'>): boolean =>
  order.send_currency_info?.kind === 'crypto';

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
  const locale = useLocale();
  const [action, setAction] = useState<Step | null>(null);
  const [fields, setFields] = useState<ActionFields>(EMPTY_ACTION_FIELDS);
  const [errors, setErrors] = useState<ActionFieldErrors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  // The action's warning that the tx id is recorded elsewhere; the next confirm of the same id
  // records it anyway (decision 044).
  const [duplicate, setDuplicate] = useState<DuplicateWarning | null>(null);

  const byAddress = paidByAddress(order);
  const memoRequired = order.send_currency_info?.memo_required === true;
  const precision = order.send_currency_info?.precision ?? DEFAULT_PRECISION;
  const sendCurrency = currencyLabel(order.send_currency, order.send_currency_info);
  const receiveCurrency = currencyLabel(order.receive_currency, order.receive_currency_info);
  const inSend = (amount: string) => `${formatAmount(amount, locale)} ${sendCurrency}`;
  const sendAmount = inSend(order.send_amount);
  // What the customer is paid: the settlement at the current rate when they continued with
  // the amount that arrived, else the locked figure.
  const payout = order.settled_receive_amount ?? order.receive_amount;
  const receiveAmount = `${formatAmount(payout, locale)} ${receiveCurrency}`;
  const refundAmount = inSend(order.received_amount ?? order.send_amount);

  const runStep = useRunStep(order, byAddress);

  const available = stepsFor(order.status);
  const withAmount = (step: Step | null): boolean =>
    step === 'confirm' ||
    step === 'latePayment' ||
    (step === 'hold' && holdRecordsAmount(order.status));

  const open = (next: Step) => {
    setFields({
      ...EMPTY_ACTION_FIELDS,
      amount: withAmount(next) ? plainAmount(order.send_amount) : '',
    });
    setErrors({});
    setFailure(undefined);
    setDuplicate(null);
    setAction(next);
  };
  // Escape closes the dialog even while a step runs; its outcome is then a notification.
  const shown = useRef<Step | null>(null);
  shown.current = action;
  const close = () => setAction(null);
  const set =
    (name: keyof ActionFields) =>
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const value = event.target.value;
      setFields((current) => ({ ...current, [name]: value }));
      // A corrected field is judged again on submit; its old error would now mislead.
      setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
    };

  const received: ReceivedCheck | null = withAmount(action)
    ? checkReceived(fields.amount, order.send_amount, precision, order.status === 'expired')
    : null;

  const validate = (): ActionFieldErrors =>
    validateActionFields({ action, fields, byAddress, memoRequired, received, precision }, t);

  const run = async () => {
    if (!action) return;
    const found = validate();
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const recordAnyway = warnsAbout(duplicate, fields.txId);
    try {
      notify.success(await runStep(action, fields, received, recordAnyway));
      setPending(false);
      setAction(null);
      onDone();
    } catch (error) {
      setPending(false);
      const warning = duplicateWarningOf(error, fields.txId);
      if (warning && shown.current !== null) {
        setDuplicate(warning);
        return;
      }
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
    /** The step records a tx id, which the action checks for duplicates. */
    withTxId?: boolean;
  } | null => {
    const number = order.number;
    switch (action) {
      case 'supply':
        return {
          title: t('actions.supplyTitle', { number }),
          description: byAddress
            ? t('actions.supplyCrypto', { amount: sendAmount })
            : t('actions.supplyFiat', { amount: sendAmount }),
          body: (
            <SupplyFields
              byAddress={byAddress}
              memoRequired={memoRequired}
              currency={order.send_currency}
              currencyLabel={sendCurrency}
              fields={fields}
              errors={errors}
              set={set}
            />
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
          withTxId: true,
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
              spellCheck={false}
            />
          ),
          withTxId: true,
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

  const warned = dialog?.withTxId === true && warnsAbout(duplicate, fields.txId);

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
        confirmLabel={warned ? t('duplicateTx.recordAnyway') : action ? buttonLabel[action] : ''}
        danger={action !== null && DANGER.has(action)}
        pending={pending}
        error={failure}
        onConfirm={() => void run()}
        onClose={close}
      >
        {dialog?.body}
        {warned && duplicate ? <DuplicateTxWarning warning={duplicate} /> : null}
      </ConfirmDialog>
    </section>
  );
}

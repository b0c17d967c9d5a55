import { useMutation } from '@apollo/client/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useQuote } from '@app/client/exchange/use-quote.ts';
import { ResolvePaymentIssueDocument } from '@app/client/graphql/generated/user.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { validateForm, type FieldErrors } from '@app/shared/forms';
import { formatDecimal } from '@app/shared/i18n';

import { TextField, useHydrated } from '#app/auth/form.tsx';
import { notify } from '#app/components/notify/index.ts';
import { useLocale } from '#app/i18n/locale.ts';

import { ActionReasonText, asActionReason } from './order-notices.tsx';
import {
  choiceFailureMessage,
  choiceFailureOf,
  REFUND_MEMO_MAX,
  refundForm,
  type RefundFormValues,
  type RefundKind,
} from './payment-choice.ts';

export interface PaymentIssueOrder {
  id: string;
  action_reason: string | null;
  received_amount: string | null;
  send_amount: string;
  send_currency: string;
  receive_currency: string;
  refund_address: string | null;
  refund_memo: string | null;
  send_currency_info: {
    kind: string;
    network: string | null;
    symbol: string;
    memo_required: boolean;
  } | null;
}

type Pending = { choice: 'continue' } | { choice: 'refund'; address?: string; memo?: string };

/**
 * An order that needs its owner's decision (needs_user_action): why (what arrived against what
 * was expected), then continue at the current rate (with an estimate from the public quote of
 * the amount that arrived) or a refund to an address on the send currency's network, an IBAN
 * when paid by bank, nothing for cash. Only the refund after a refused hold. Each choice is
 * confirmed before `resolvePaymentIssue` runs; the live order then moves on by itself.
 */
export function PaymentIssue({
  order,
  sendLabel,
  receiveLabel,
}: {
  order: PaymentIssueOrder;
  sendLabel: string;
  receiveLabel: string;
}) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const hydrated = useHydrated();
  const reason = asActionReason(order.action_reason);
  const received = order.received_amount ?? order.send_amount;
  const receivedText = `${formatDecimal(received, locale)} ${sendLabel}`;
  const kind: RefundKind =
    order.send_currency_info?.kind === 'fiat'
      ? 'fiat'
      : order.send_currency_info?.kind === 'cash'
        ? 'cash'
        : 'crypto';
  const memoField = kind === 'crypto' && (order.send_currency_info?.memo_required ?? false);
  const canContinue = reason !== 'refund_required';

  const quote = useQuote({
    from: order.send_currency,
    to: order.receive_currency,
    side: 'send',
    amount: canContinue ? received : null,
  });
  const estimate =
    quote.status === 'ready'
      ? `${formatDecimal(quote.quote.receiveAmount, locale)} ${receiveLabel}`
      : null;

  const [values, setValues] = useState<RefundFormValues>({
    refundAddress: order.refund_address ?? '',
    refundMemo: order.refund_memo ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors<keyof RefundFormValues>>({});
  const [formError, setFormError] = useState<string | string[] | undefined>();
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const [resolve, { loading }] = useMutation(ResolvePaymentIssueDocument);
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const field = (name: keyof RefundFormValues) => ({
    id: `refund-${name}`,
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [name]: value }));
      if (errors[name] !== undefined) setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const onRefund = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(undefined);
    const result = validateForm(refundForm(kind), values);
    if (!result.ok) {
      const found = result.errors as FieldErrors<keyof RefundFormValues>;
      setErrors(found);
      const first = (['refundAddress', 'refundMemo'] as const).find((name) => found[name]);
      if (first) document.getElementById(`refund-${first}`)?.focus();
      return;
    }
    setErrors({});
    const data = result.data as { refundAddress?: string; refundMemo?: string };
    setConfirming({
      choice: 'refund',
      ...(data.refundAddress ? { address: data.refundAddress } : {}),
      ...(data.refundMemo && memoField ? { memo: data.refundMemo } : {}),
    });
  };

  const submit = async () => {
    if (!confirming || loading) return;
    const pending = confirming;
    try {
      await resolve({
        variables: {
          id: order.id,
          choice: pending.choice,
          refundAddress: pending.choice === 'refund' ? (pending.address ?? null) : null,
          refundMemo: pending.choice === 'refund' ? (pending.memo ?? null) : null,
        },
      });
      notify.success(t('action.chosen'));
    } catch (error) {
      const shown = choiceFailureMessage(choiceFailureOf(error));
      setConfirming(null);
      if (shown.field) {
        setErrors({ [shown.field]: shown.message as string });
        document.getElementById(`refund-${shown.field}`)?.focus();
      } else {
        setFormError(shown.message);
      }
    }
  };

  return (
    <div className="side-state">
      <h2>{t('action.title')}</h2>
      <ActionReasonText
        reason={reason}
        received={receivedText}
        expected={`${formatDecimal(order.send_amount, locale)} ${sendLabel}`}
      />
      {formError ? (
        <p className="form-message form-message--error" role="alert">
          {t(([] as string[]).concat(formError).map(keyFromData))}
        </p>
      ) : null}

      {confirming ? (
        <div className="confirm" role="group" aria-labelledby="choice-confirm-text">
          <p id="choice-confirm-text" className="break-anywhere">
            {confirming.choice === 'continue'
              ? t('action.continueConfirm', { received: receivedText })
              : confirming.address
                ? t('action.refundConfirm', { address: confirming.address })
                : t('action.refundCash')}
          </p>
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => setConfirming(null)}>
              {t('action.back')}
            </button>
            <button
              ref={confirmButton}
              type="button"
              className="button button--primary"
              onClick={() => void submit()}
              disabled={loading}
              aria-busy={loading || undefined}
            >
              {t('action.confirm')}
            </button>
          </div>
        </div>
      ) : (
        <div className="choices">
          {canContinue ? (
            <section className="choice" aria-labelledby="choice-continue-title">
              <h3 id="choice-continue-title">{t('action.continueTitle')}</h3>
              <p>
                {estimate
                  ? t('action.continueText', { received: receivedText, estimate })
                  : t('action.continueTextNoEstimate', { received: receivedText })}
              </p>
              <button
                type="button"
                className="button button--primary"
                disabled={!hydrated}
                onClick={() => {
                  setFormError(undefined);
                  setConfirming({ choice: 'continue' });
                }}
              >
                {t('action.continue')}
              </button>
            </section>
          ) : null}
          <section className="choice" aria-labelledby="choice-refund-title">
            <h3 id="choice-refund-title">{t('action.refundTitle')}</h3>
            <p>{t('action.refundText', { received: receivedText })}</p>
            <form noValidate onSubmit={onRefund}>
              {kind === 'crypto' ? (
                <>
                  <TextField
                    {...field('refundAddress')}
                    autoComplete="off"
                    label={t('action.refundAddress', {
                      network:
                        order.send_currency_info?.network ??
                        order.send_currency_info?.symbol ??
                        order.send_currency,
                    })}
                    maxLength={128}
                  />
                  {memoField ? (
                    <TextField
                      {...field('refundMemo')}
                      autoComplete="off"
                      label={t('action.refundMemo')}
                      maxLength={REFUND_MEMO_MAX}
                      required={false}
                    />
                  ) : null}
                </>
              ) : kind === 'fiat' ? (
                <TextField
                  {...field('refundAddress')}
                  autoComplete="off"
                  label={t('action.refundIban')}
                  maxLength={42}
                />
              ) : (
                <p className="field__hint">{t('action.refundCash')}</p>
              )}
              <button
                type="submit"
                className={canContinue ? 'button' : 'button button--primary'}
                disabled={!hydrated}
              >
                {t('action.refund')}
              </button>
            </form>
          </section>
        </div>
      )}
    </div>
  );
}

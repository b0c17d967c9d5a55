import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useMutation } from '@apollo/client/react';
import { Button, Cell, Input, Radio, Text } from '@telegram-apps/telegram-ui';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { keyFromData } from '@app/client/i18n/i18n.ts';
import type { Locale } from '@app/shared/i18n';
import { refusalKeys } from '@app/shared/errors';
import { exchangeProblemMessage, type FieldErrors } from '@app/shared/forms';
import { trimZeros } from '@app/shared/exchange';
import { isActionReason, type ActionReason } from '@app/shared/orders/vocabulary';
import { useQuote } from '@app/client/exchange/use-quote.ts';
import { ResolvePaymentIssueDocument } from '@app/client/graphql/generated/user.ts';

import { useSession } from '../session.ts';
import { haptic } from '../telegram/sdk.ts';

import { amountText } from './order-notices.tsx';
import {
  refundKindOf,
  validateRefund,
  type RefundField,
  type RefundTarget,
  type RefundValues,
} from './refund-form.ts';
import type { Order } from './types.ts';

/*
 * needs_user_action (decision 015): the payment arrived but not as agreed (less, more, late),
 * or a review refused it. The owner chooses: continue at the current rate with what arrived,
 * or a refund (to an address on the send currency's network, an IBAN for a bank payment,
 * nothing for cash). Only the refund when the funds must go back. Each choice is confirmed in
 * place before resolvePaymentIssue is called; the live order then moves on by itself.
 */

type Choice = 'continue' | 'refund';

/**
 * What a failed resolvePaymentIssue shows: a refund field's problem next to it, or the keys to
 * try for the form (the trust page's words, the widget's for a refused continuation, which is a
 * new quote, then the catalog's message of the code, then the generic failure).
 */
function failureOf(error: unknown): { message: string; field: RefundField } | { keys: string[] } {
  const generic = 'common:notify.somethingWentWrong';
  if (!CombinedGraphQLErrors.is(error)) return { keys: [generic] };
  const first = error.errors[0];
  const code = first?.extensions?.['code'];
  const field = first?.extensions?.['field'];
  if (code === 'invalid-input' && (field === 'refundAddress' || field === 'refundMemo')) {
    // The action names what is wrong as the order form's problem code.
    const problem = first?.extensions?.['problem'];
    return {
      message: exchangeProblemMessage(typeof problem === 'string' ? problem : 'invalid'),
      field,
    };
  }
  const own =
    typeof code === 'string' ? [`trust:action.errors.${code}`, `home:widget.errors.${code}`] : [];
  return { keys: refusalKeys(code, own, generic) };
}

export function PaymentIssue({ order, send }: { order: Order; send: string }) {
  const { t, i18n } = useTranslation('trust');
  const ids = useId();
  const reason: ActionReason = isActionReason(order.action_reason)
    ? order.action_reason
    : 'underpaid';
  const refundOnly = reason === 'refund_required';
  const kind = refundKindOf(order.send_currency_info?.kind);
  const memoRequired = kind === 'crypto' && order.send_currency_info?.memo_required === true;
  const locale = i18n.language as Locale;
  const received = amountText(order.received_amount ?? order.send_amount, send, locale);
  const expected = amountText(order.send_amount, send, locale);

  const [choice, setChoice] = useState<Choice | null>(refundOnly ? 'refund' : null);
  const [values, setValues] = useState<RefundValues>({
    refundAddress: order.refund_address ?? '',
    refundMemo: order.refund_memo ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors<RefundField>>({});
  const [confirming, setConfirming] = useState<RefundTarget | null>(null);
  const [failure, setFailure] = useState<string[] | undefined>();
  const [done, setDone] = useState(false);
  const [resolve, { loading }] = useMutation(ResolvePaymentIssueDocument);

  const pick = (next: Choice) => {
    haptic.selection();
    setChoice(next);
    setConfirming(null);
    setFailure(undefined);
  };
  const set = (field: RefundField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field] !== undefined) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** The first press checks the form and asks for confirmation. */
  const review = () => {
    setFailure(undefined);
    if (choice === 'continue') {
      setConfirming({});
      return;
    }
    const checked = validateRefund(kind, memoRequired, values);
    if (!checked.ok) {
      haptic.error();
      setErrors(checked.errors);
      const first = (['refundAddress', 'refundMemo'] as const).find((f) => checked.errors[f]);
      if (first) document.getElementById(`${ids}-${first}`)?.focus();
      return;
    }
    setConfirming(checked.target);
  };

  const submit = async () => {
    if (!choice || !confirming || loading) return;
    setFailure(undefined);
    try {
      await resolve({
        variables: {
          id: order.id,
          choice,
          refundAddress: confirming.refundAddress ?? null,
          refundMemo: confirming.refundMemo ?? null,
        },
      });
      haptic.success();
      setDone(true);
    } catch (error) {
      haptic.error();
      const failure = failureOf(error);
      setConfirming(null);
      if ('field' in failure) setErrors({ [failure.field]: failure.message });
      else setFailure(failure.keys);
    }
  };

  const reasonText =
    reason === 'refund_required'
      ? t('action.reasons.refund_required')
      : t(`action.reasons.${reason}`, { received, expected });

  if (done) {
    return (
      <>
        <h2 className="state-title">{t('action.title')}</h2>
        <Text className="state-text" role="status">
          {t('action.chosen')}
        </Text>
      </>
    );
  }

  const confirmQuestion =
    choice === 'continue'
      ? t('action.continueConfirm', { received })
      : kind === 'cash'
        ? t('miniapp:trust.refundCashConfirm', { received })
        : t('action.refundConfirm', {
            address: [confirming?.refundAddress, confirming?.refundMemo]
              .filter(Boolean)
              .join(' · '),
          });

  return (
    <>
      <h2 className="state-title">{t('action.title')}</h2>
      <Text className="state-text">{reasonText}</Text>
      {refundOnly ? null : (
        <fieldset className="choice" disabled={confirming !== null}>
          <legend className="choice__legend">{t('miniapp:trust.choose')}</legend>
          <ChoiceRow
            id={`${ids}-continue`}
            name={`${ids}-choice`}
            checked={choice === 'continue'}
            onPick={() => pick('continue')}
            title={t('action.continueTitle')}
            description={<ContinueEstimate order={order} received={received} />}
          />
          <ChoiceRow
            id={`${ids}-refund`}
            name={`${ids}-choice`}
            checked={choice === 'refund'}
            onPick={() => pick('refund')}
            title={t('action.refundTitle')}
            description={t('action.refundText', { received })}
          />
        </fieldset>
      )}
      {refundOnly ? (
        <Text className="state-text">{t('action.refundText', { received })}</Text>
      ) : null}
      {choice === 'refund' ? (
        kind === 'cash' ? (
          <Text className="state-text hint">{t('action.refundCash')}</Text>
        ) : (
          <>
            <RefundInput
              id={`${ids}-refundAddress`}
              label={
                kind === 'fiat'
                  ? t('action.refundIban')
                  : t('action.refundAddress', {
                      network:
                        order.send_currency_info?.network ??
                        order.send_currency_info?.symbol ??
                        order.send_currency,
                    })
              }
              maxLength={kind === 'fiat' ? 42 : 128}
              value={values.refundAddress}
              error={errors.refundAddress}
              disabled={confirming !== null}
              onChange={(value) => set('refundAddress', value)}
            />
            {memoRequired ? (
              <RefundInput
                id={`${ids}-refundMemo`}
                label={t('action.refundMemo')}
                maxLength={64}
                value={values.refundMemo}
                error={errors.refundMemo}
                disabled={confirming !== null}
                onChange={(value) => set('refundMemo', value)}
              />
            ) : null}
          </>
        )
      ) : null}
      <div className="state-actions">
        {confirming ? (
          <>
            <Text className="confirm-question">{confirmQuestion}</Text>
            <div className="button-row">
              <Button mode="gray" size="m" disabled={loading} onClick={() => setConfirming(null)}>
                {t('action.back')}
              </Button>
              <Button mode="filled" size="m" loading={loading} onClick={() => void submit()}>
                {t('action.confirm')}
              </Button>
            </div>
          </>
        ) : choice ? (
          <Button mode="filled" size="m" stretched onClick={review}>
            {choice === 'continue' ? t('action.continue') : t('action.refund')}
          </Button>
        ) : null}
        {failure ? (
          <p className="form-error" role="alert">
            {t(failure.map(keyFromData))}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** "We exchange the 0.005 BTC that arrived…; you get about 512.3 USDT", from a live quote. */
function ContinueEstimate({ order, received }: { order: Order; received: string }) {
  const { t } = useTranslation('trust');
  const token = useSession((state) => state.accessToken);
  const quote = useQuote({
    from: order.send_currency,
    to: order.receive_currency,
    side: 'send',
    amount: order.received_amount ?? order.send_amount,
    token,
  });
  if (quote.status !== 'ready') return <>{t('action.continueTextNoEstimate', { received })}</>;
  const receive = order.receive_currency_info?.symbol ?? order.receive_currency;
  return (
    <>
      {t('action.continueText', {
        received,
        estimate: `${trimZeros(quote.quote.receiveAmount)} ${receive}`,
      })}
    </>
  );
}

function ChoiceRow(props: {
  id: string;
  name: string;
  checked: boolean;
  onPick: () => void;
  title: string;
  description: ReactNode;
}) {
  return (
    <Cell
      Component="label"
      htmlFor={props.id}
      multiline
      before={
        <Radio
          id={props.id}
          name={props.name}
          checked={props.checked}
          onChange={(event) => {
            if (event.target.checked) props.onPick();
          }}
        />
      }
      description={props.description}
    >
      {props.title}
    </Cell>
  );
}

function RefundInput(props: {
  id: string;
  label: string;
  maxLength: number;
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <Input
        id={props.id}
        header={props.label}
        aria-label={props.label}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={props.maxLength}
        disabled={props.disabled}
        status={props.error ? 'error' : 'default'}
        aria-invalid={props.error !== undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.error ? (
        <p id={`${props.id}-error`} className="field-error">
          {t(keyFromData(props.error))}
        </p>
      ) : null}
    </div>
  );
}

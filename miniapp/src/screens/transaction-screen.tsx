import { useMutation } from '@apollo/client/react';
import { Button, Cell, List, Placeholder, Section, Text } from '@telegram-apps/telegram-ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';

import {
  currencyLabel,
  explorerAddressUrl,
  explorerTxUrl,
  paymentUri,
  trimZeros,
} from '@app/shared/exchange';
import {
  asOrderStatus,
  isCancelable,
  isFinal,
  wizardStepOf,
  type OrderStatus,
} from '@app/shared/orders/status';
import { CurrencyIcon } from '@app/client/ui/currency-icon.tsx';
import { QrCode } from '@app/client/ui/qr-code.tsx';
import { WizardProgress } from '@app/client/ui/wizard-progress.tsx';
import { CancelExchangeDocument, TransactionDocument } from '@app/client/graphql/generated/user.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';
import { formatDateTime, formatMoney, type Locale } from '@app/shared/i18n';

import { CopyCell } from '../components/copy-cell.tsx';
import { ExplorerCell } from '../components/explorer-cell.tsx';
import { CenteredSpinner } from '../components/shell.tsx';
import { StatusChip } from '../components/status-chip.tsx';
import { useMainButton } from '../components/use-main-button.ts';
import { repeatPath } from '../exchange/repeat.ts';
import { LiveData } from '../graphql/live-data.tsx';
import {
  AntiPhishingPhrase,
  Expired,
  OnHold,
  OperatorWait,
  PaymentDeadline,
  ReceiptButton,
  RefundInProgress,
  Refunded,
  RequotedNotice,
  Settled,
} from '../order/order-notices.tsx';
import { ChainPayments } from '../order/chain-payments.tsx';
import { PaymentIssue } from '../order/payment-issue.tsx';
import type { Order } from '../order/types.ts';
import { confirmInTelegram, haptic } from '../telegram/sdk.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /telegram-app/transaction/{id}: the order, live. */
export function TransactionScreen() {
  const { id = '' } = useParams();
  return (
    <LiveData>
      <LiveOrder id={id.toLowerCase()} />
    </LiveData>
  );
}

/** A buzz when the order reaches an end while the person watches it. */
function useStatusFeedback(status: OrderStatus | undefined): void {
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current !== undefined && status !== previous.current) {
      if (status === 'completed' || status === 'refunded') haptic.success();
      else if (
        status === 'canceled' ||
        status === 'expired' ||
        status === 'on_hold' ||
        status === 'needs_user_action'
      )
        haptic.warning();
      else haptic.selection();
    }
    previous.current = status;
  }, [status]);
}

function LiveOrder({ id }: { id: string }) {
  const { t, i18n } = useTranslation('exchange');
  const [, navigate] = useLocation();
  const valid = UUID.test(id);
  const live = useSubscription(TransactionDocument, { id }, valid);
  const row = live.status === 'live' ? live.data.transactions_by_pk : undefined;
  const order: Order | undefined = row ? { ...row, status: asOrderStatus(row.status) } : undefined;
  useStatusFeedback(order?.status);

  // Ended (or expired): the next step is a new exchange, not this order's history.
  const final = order ? isFinal(order.status) || order.status === 'expired' : false;
  useMainButton(
    order
      ? {
          text: final ? t('miniapp:nav.newExchange') : t('miniapp:nav.history'),
          enabled: true,
          loading: false,
        }
      : null,
    () => {
      if (!order) return;
      if (!final) {
        navigate('/transactions-history');
        return;
      }
      navigate(repeatPath(order));
    },
  );

  if (valid && live.status === 'loading') return <CenteredSpinner />;
  if (!valid || live.status === 'error' || !order) {
    return (
      <div className="centered">
        <Placeholder
          header={<h1 className="placeholder-title">{t('common:errors.notFoundTitle')}</h1>}
          description={
            live.status === 'error'
              ? t('common:notify.somethingWentWrong')
              : t('transaction.notFound')
          }
        />
      </div>
    );
  }

  const send = currencyLabel(order.send_currency, order.send_currency_info);
  const receive = currencyLabel(order.receive_currency, order.receive_currency_info);
  const locale = i18n.language as Locale;

  return (
    <List>
      <h1 className="screen-title">{t('transaction.title', { number: order.number })}</h1>
      <WizardProgress current={wizardStepOf(order.status)} />
      <Section>
        <Cell subhead={t('transaction.status')} after={<StatusChip status={order.status} />}>
          <span className="live-badge">{t('transaction.live')}</span>
        </Cell>
        {/* Icons beside the currencies (decision 038), as in the exchange screen and history. */}
        <Cell
          subhead={t('transaction.send')}
          before={
            <CurrencyIcon
              currency={order.send_currency_info ?? { symbol: order.send_currency }}
              size={28}
            />
          }
        >
          {formatMoney(order.send_amount, send, locale)}
        </Cell>
        <Cell
          subhead={t('transaction.receive')}
          before={
            <CurrencyIcon
              currency={order.receive_currency_info ?? { symbol: order.receive_currency }}
              size={28}
            />
          }
        >
          {formatMoney(order.receive_amount, receive, locale)}
        </Cell>
        <Cell subhead={t('transaction.created')}>{formatDateTime(order.created_at, locale)}</Cell>
        <CopyCell label={t('transaction.id')} value={order.id} />
      </Section>
      <Section aria-live="polite">
        <OrderState order={order} send={send} receive={receive} />
      </Section>
      {isCancelable(order.status) ? (
        <CancelOrder
          id={order.id}
          noCost={order.status === 'waiting_for_operator' && order.requisites_late_at !== null}
        />
      ) : null}
    </List>
  );
}

function OrderState({ order, send, receive }: { order: Order; send: string; receive: string }) {
  const { t } = useTranslation('exchange');
  switch (order.status) {
    case 'waiting_for_operator':
      return (
        <>
          {order.requisites_late_at === null ? (
            <Text className="state-text">{t('transaction.waitingForOperator')}</Text>
          ) : null}
          <OperatorWait order={order} />
        </>
      );
    case 'waiting_for_payment':
      return (
        <>
          <ChainPayments order={order} />
          <PaymentDeadline order={order} />
          <RequotedNotice order={order} receive={receive} />
          <Requisites order={order} currency={send} />
        </>
      );
    case 'paid':
      return (
        <>
          <Text className="state-text">{t('transaction.paid')}</Text>
          <ChainPayments order={order} />
          <Settled order={order} receive={receive} />
        </>
      );
    case 'completed':
      return (
        <>
          <Text className="state-text">{t('transaction.completed')}</Text>
          <Settled order={order} receive={receive} />
          {order.payout_tx_id ? (
            <>
              <CopyCell label={t('transaction.payoutTxId')} value={order.payout_tx_id} />
              <ExplorerCell
                href={explorerTxUrl(order.receive_currency_info?.network, order.payout_tx_id)}
                label={t('transaction.payoutTxId')}
              />
            </>
          ) : null}
          <ReceiptButton order={order} />
        </>
      );
    case 'on_hold':
      return <OnHold order={order} />;
    case 'needs_user_action':
      return <PaymentIssue order={order} send={send} />;
    case 'refund_in_progress':
      return <RefundInProgress order={order} send={send} />;
    case 'refunded':
      return <Refunded order={order} />;
    case 'expired':
      return <Expired order={order} />;
    case 'canceled':
      return (
        <>
          <Text className="state-text">{t('transaction.canceled')}</Text>
          {order.cancel_reason ? (
            <Text className="state-text">
              {t('transaction.canceledReason', { reason: order.cancel_reason })}
            </Text>
          ) : null}
        </>
      );
  }
}

/**
 * Where to pay: a deposit address with its QR code, or the service's bank account, right under
 * the person's anti-phishing phrase. The QR code is a payment URI in the network's scheme where
 * there is a safe one (decision 042), so the wallet fills in the amount and the memo.
 */
function Requisites({ order, currency }: { order: Order; currency: string }) {
  const { t } = useTranslation('exchange');
  const network = order.send_currency_info?.network;
  const qrValue = order.deposit_address
    ? paymentUri({
        currency: order.send_currency,
        network,
        address: order.deposit_address,
        amount: order.send_amount,
        memo: order.deposit_memo,
      })
    : null;
  const qrCarriesPayment = qrValue !== null && qrValue !== order.deposit_address?.trim();
  return (
    <>
      <Text className="state-text">
        {t('transaction.waitingForPayment', { amount: trimZeros(order.send_amount), currency })}
      </Text>
      <AntiPhishingPhrase />
      {order.deposit_address ? (
        <>
          <QrCode
            value={qrValue ?? order.deposit_address}
            label={qrCarriesPayment ? t('transaction.qrCodePayment') : t('transaction.qrCode')}
          />
          {qrCarriesPayment ? (
            <Text className="state-text hint">{t('transaction.qrHint')}</Text>
          ) : null}
          <CopyCell label={t('transaction.depositAddress')} value={order.deposit_address} />
          <ExplorerCell
            href={explorerAddressUrl(network, order.deposit_address)}
            label={t('transaction.depositAddress')}
          />
          {order.deposit_memo ? (
            <>
              <CopyCell label={t('transaction.depositMemo')} value={order.deposit_memo} />
              <Text className="state-text hint">{t('transaction.memoWarning')}</Text>
            </>
          ) : null}
        </>
      ) : null}
      {order.bank_account ? (
        <>
          <CopyCell
            label={t('transaction.bank.beneficiary')}
            value={order.bank_account.beneficiary}
          />
          <CopyCell
            label={t('transaction.bank.accountNumber')}
            value={order.bank_account.account_number}
          />
          <CopyCell label={t('transaction.bank.swift')} value={order.bank_account.swift_bic} />
          <CopyCell
            label={t('transaction.bank.bankAddress')}
            value={order.bank_account.bank_address}
          />
          {order.payment_reference ? (
            <>
              <CopyCell label={t('transaction.bank.reference')} value={order.payment_reference} />
              <Text className="state-text hint">{t('transaction.bank.referenceWarning')}</Text>
            </>
          ) : null}
        </>
      ) : null}
    </>
  );
}

/**
 * Cancel while allowed, confirmed in Telegram's own popup (in the page on a client without
 * popups), never by a stray tap. Once the operator is late with the details, the offer says it
 * costs nothing.
 */
function CancelOrder({ id, noCost }: { id: string; noCost: boolean }) {
  const { t } = useTranslation('exchange');
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState(false);
  const [cancelExchange, { loading }] = useMutation(CancelExchangeDocument);
  const cancel = async () => {
    setFailed(false);
    try {
      await cancelExchange({ variables: { id } });
      setConfirming(false);
    } catch {
      haptic.error();
      setFailed(true);
    }
  };
  return (
    <div className="cancel-order">
      {confirming ? (
        <>
          <Text className="state-text">{t('transaction.cancelConfirm')}</Text>
          <div className="button-row">
            <Button mode="gray" size="m" onClick={() => setConfirming(false)} disabled={loading}>
              {t('miniapp:transaction.cancelKeep')}
            </Button>
            <Button
              mode="filled"
              size="m"
              className="danger"
              loading={loading}
              onClick={() => void cancel()}
            >
              {t('miniapp:transaction.cancelYes')}
            </Button>
          </div>
        </>
      ) : (
        <Button
          mode="plain"
          size="m"
          stretched
          className="danger-text"
          onClick={() =>
            void confirmInTelegram({
              message: t('transaction.cancelConfirm'),
              keep: t('miniapp:transaction.cancelKeep'),
              confirm: t('miniapp:transaction.cancelYes'),
            }).then((answer) => {
              if (answer === 'confirm') void cancel();
              else if (answer === 'unsupported') setConfirming(true);
            })
          }
        >
          {noCost ? t('trust:deadlines.cancelNoCost') : t('transaction.cancel')}
        </Button>
      )}
      {failed ? (
        <p className="form-error" role="alert">
          {t('common:notify.somethingWentWrong')}
        </p>
      ) : null}
    </div>
  );
}

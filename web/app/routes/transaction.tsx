import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

import {
  CancelExchangeDocument,
  TransactionDocument,
  type TransactionSubscription,
} from '@app/client/graphql/generated/user.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';
import { QrCode } from '@app/client/ui/qr-code.tsx';
import { WizardProgress } from '@app/client/ui/wizard-progress.tsx';
import {
  currencyLabel,
  explorerAddressUrl,
  explorerTxUrl,
  formatRateIn,
  paymentUri,
} from '@app/shared/exchange';
import { formatDateTime, formatDecimal, splitLocalePath } from '@app/shared/i18n';
import {
  asOrderStatus,
  isCancelable,
  wizardStepOf,
  type OrderStatus,
} from '@app/shared/orders/status';

import { loginPath } from '#app/auth/redirect.ts';
import { useSession } from '#app/auth/session.ts';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { notify } from '#app/components/notify/index.ts';
import { ChainPayments } from '#app/exchange/chain-payments.tsx';
import { CopyRow } from '#app/exchange/copy-row.tsx';
import { CurrencyText } from '#app/exchange/currency-amount.tsx';
import {
  ExpiredNotice,
  HoldNotice,
  OperatorWait,
  PaymentDeadline,
  RefundNotice,
} from '#app/exchange/order-notices.tsx';
import { PaymentIssue } from '#app/exchange/payment-issue.tsx';
import { PhishingBox } from '#app/exchange/phishing-box.tsx';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';
import { translatorFor } from '#app/i18n/meta.ts';

import type { Route } from './+types/transaction';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function loader({ params }: Route.LoaderArgs) {
  if (!UUID.test(params.id)) throw new Response(null, { status: 404 });
  return { id: params.id.toLowerCase() };
}

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  // Private to its owner: never indexed, never sent as a referrer.
  return [
    { title: t('exchange:transaction.metaTitle', { number: '' }).trim() },
    { name: 'robots', content: 'noindex' },
    { name: 'referrer', content: 'no-referrer' },
  ];
};

type Order = Omit<NonNullable<TransactionSubscription['transactions_by_pk']>, 'status'> & {
  status: OrderStatus;
};

/**
 * An order as its owner follows it (spec sections 2 and 4, issue 10): number, amounts, the state
 * with its text, deadlines as live countdowns (the operator's promise with the queue and the
 * working hours, then the payment window), the requisites to pay under the user's
 * anti-phishing phrase with a link to check them, the side states (hold, the user's decision,
 * refunds, expiry), the payout's tx id and the receipt once completed, and Cancel while allowed.
 * A live subscription keeps it current; the page never reloads.
 */
export default function Transaction({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('exchange');
  const locale = useLocale();
  const localePath = useLocalePath();
  const location = useLocation();
  const checked = useSession((state) => state.checked);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const userId = useSession((state) => state.user?.id ?? null);
  const live = useSubscription(TransactionDocument, { id: loaderData.id }, checked && isLoggedIn);
  const [cancelExchange, { loading: canceling }] = useMutation(CancelExchangeDocument);
  // The cancel asks in the portal's own dialog (issue 23), like every staff step does.
  const [confirmingCancel, setConfirmingCancel] = useState(false);

  if (checked && !isLoggedIn) {
    return (
      <main id="main" className="container section narrow">
        <h1>{t('transaction.title', { number: '' }).trim()}</h1>
        <p>{t('transaction.signInToView')}</p>
        <Link className="button button--primary" to={loginPath(locale, location.pathname)}>
          {t('common:menu.login')}
        </Link>
      </main>
    );
  }
  if (!checked || live.status === 'loading') {
    return (
      <main id="main" className="container section narrow" aria-busy="true">
        <p role="status">{t('common:loading')}</p>
      </main>
    );
  }
  if (live.status === 'error' || !live.data.transactions_by_pk) {
    return (
      <main id="main" className="container section narrow">
        <h1>{t('common:errors.notFoundTitle')}</h1>
        <p>
          {live.status === 'error'
            ? t('common:notify.somethingWentWrong')
            : t('transaction.notFound')}
        </p>
        <Link to={localePath('/')}>{t('transaction.backHome')}</Link>
      </main>
    );
  }

  const row = live.data.transactions_by_pk;
  const order: Order = { ...row, status: asOrderStatus(row.status) };
  const send = currencyLabel(order.send_currency, order.send_currency_info);
  const receive = currencyLabel(order.receive_currency, order.receive_currency_info);
  const cancelable = isCancelable(order.status);
  const lateNotice = order.status === 'waiting_for_operator' && Boolean(order.requisites_late_at);
  const received = order.received_amount ?? order.send_amount;

  const cancel = async () => {
    try {
      await cancelExchange({ variables: { id: order.id } });
      setConfirmingCancel(false);
      notify.success(t('transaction.canceledNotice'));
    } catch {
      setConfirmingCancel(false);
      notify.error();
    }
  };
  const askCancel = () => setConfirmingCancel(true);

  return (
    <main id="main" className="container section narrow">
      <WizardProgress current={wizardStepOf(order.status)} />
      <h1>{t('transaction.title', { number: order.number })}</h1>
      <p className="live-badge" aria-hidden="true">
        {t('transaction.live')}
      </p>

      <dl className="card order-summary">
        <div>
          <dt>{t('transaction.send')}</dt>
          <dd>
            <CurrencyText
              code={order.send_currency}
              info={order.send_currency_info}
              text={`${formatDecimal(order.send_amount, locale)} ${send}`}
            />
          </dd>
        </div>
        <div>
          <dt>{t('transaction.receive')}</dt>
          <dd>
            {order.settled_receive_amount ? (
              <>
                <CurrencyText
                  code={order.receive_currency}
                  info={order.receive_currency_info}
                  text={`${formatDecimal(order.settled_receive_amount, locale)} ${receive}`}
                />{' '}
                <s className="muted" aria-hidden="true">
                  {formatDecimal(order.receive_amount, locale)}
                </s>
              </>
            ) : (
              <CurrencyText
                code={order.receive_currency}
                info={order.receive_currency_info}
                text={`${formatDecimal(order.receive_amount, locale)} ${receive}`}
              />
            )}
          </dd>
        </div>
        <div>
          <dt>{t('transaction.status')}</dt>
          <dd>
            <span className={`status status--${order.status}`}>
              {t(`transaction.statuses.${order.status}`)}
            </span>
          </dd>
        </div>
        <div>
          <dt>{t('transaction.id')}</dt>
          <dd className="mono">{order.id}</dd>
        </div>
        <div>
          <dt>{t('transaction.created')}</dt>
          <dd>{formatDateTime(order.created_at, locale)}</dd>
        </div>
      </dl>

      <section className="card order-state" aria-live="polite">
        {order.status === 'waiting_for_operator' ? (
          <OperatorWait
            dueAt={order.requisites_due_at}
            lateAt={order.requisites_late_at}
            queuePosition={order.queue_position}
            window={order.direction}
            onCancel={askCancel}
            canceling={canceling}
          />
        ) : null}
        {order.status === 'waiting_for_payment' ? (
          <>
            <ChainPayments order={order} />
            {order.pay_by ? <PaymentDeadline payBy={order.pay_by} /> : null}
            {order.requoted_at && order.quoted_receive_amount ? (
              <p className="notice">
                {t('trust:deadlines.requoted', {
                  amount: `${formatDecimal(order.receive_amount, locale)} ${receive}`,
                  quoted: `${formatDecimal(order.quoted_receive_amount, locale)} ${receive}`,
                })}
              </p>
            ) : null}
            <p className="field__hint">
              {t('trust:deadlines.lockedRate', {
                rate: t('home:widget.rate', {
                  from: order.send_currency_info?.symbol ?? order.send_currency,
                  to: order.receive_currency_info?.symbol ?? order.receive_currency,
                  rate: formatRateIn(order.rate, locale),
                }),
              })}
            </p>
            {userId ? <PhishingBox userId={userId} /> : null}
            <Requisites
              order={order}
              amount={`${formatDecimal(order.send_amount, locale)}`}
              currency={send}
            />
          </>
        ) : null}
        {order.status === 'paid' ? (
          <>
            <p>{t('transaction.paid')}</p>
            <ChainPayments order={order} />
            <Settled order={order} receive={receive} />
          </>
        ) : null}
        {order.status === 'completed' ? (
          <>
            <p>{t('transaction.completed')}</p>
            <Settled order={order} receive={receive} />
            {order.payout_tx_id ? (
              <CopyRow
                label={t('transaction.payoutTxId')}
                value={order.payout_tx_id}
                explorer={explorerTxUrl(order.receive_currency_info?.network, order.payout_tx_id)}
              />
            ) : null}
            <p>
              <Link className="button" to={localePath(`/transaction/${order.id}/receipt`)}>
                {t('trust:receipt.open')}
              </Link>
            </p>
          </>
        ) : null}
        {order.status === 'canceled' ? (
          <>
            <p>{t('transaction.canceled')}</p>
            {order.cancel_reason ? (
              <p>{t('transaction.canceledReason', { reason: order.cancel_reason })}</p>
            ) : null}
            <Link className="button" to={localePath('/')}>
              {t('transaction.backHome')}
            </Link>
          </>
        ) : null}
        {order.status === 'on_hold' ? (
          <HoldNotice category={order.hold_category} orderNumber={order.number} />
        ) : null}
        {order.status === 'needs_user_action' ? (
          <PaymentIssue order={order} sendLabel={send} receiveLabel={receive} />
        ) : null}
        {order.status === 'refund_in_progress' || order.status === 'refunded' ? (
          <RefundNotice
            done={order.status === 'refunded'}
            amount={`${formatDecimal(received, locale)} ${send}`}
            address={order.refund_address}
            cash={order.send_currency_info?.kind === 'cash'}
            txId={order.refund_tx_id}
            txExplorer={explorerTxUrl(order.send_currency_info?.network, order.refund_tx_id)}
          />
        ) : null}
        {order.status === 'expired' ? <ExpiredNotice payBy={order.pay_by} /> : null}
      </section>

      {cancelable && !lateNotice ? (
        <button type="button" className="button" onClick={askCancel} disabled={canceling}>
          {t('transaction.cancel')}
        </button>
      ) : null}
      <ConfirmDialog
        open={confirmingCancel && cancelable}
        title={t('transaction.cancelTitle', { number: order.number })}
        description={<p>{t('transaction.cancelConfirm')}</p>}
        confirmLabel={t('transaction.cancel')}
        cancelLabel={t('transaction.cancelKeep')}
        danger
        pending={canceling}
        onConfirm={() => void cancel()}
        onClose={() => setConfirmingCancel(false)}
      />
    </main>
  );
}

/** What the user gets after continuing at the current rate with the amount that arrived. */
function Settled({ order, receive }: { order: Order; receive: string }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  if (!order.settled_receive_amount) return null;
  return (
    <p className="notice">
      {t('action.settled', {
        amount: `${formatDecimal(order.settled_receive_amount, locale)} ${receive}`,
        rate: order.settled_rate ? formatRateIn(order.settled_rate, locale) : '',
      })}
    </p>
  );
}

/**
 * Where to pay: a deposit address with its QR code, or the service's bank account. The QR code
 * is a payment URI in the network's scheme where there is a safe one (decision 042), so a wallet
 * fills in the amount and the memo; the bare address stays beside it to copy.
 */
function Requisites({
  order,
  amount,
  currency,
}: {
  order: Order;
  amount: string;
  currency: string;
}) {
  const { t } = useTranslation('exchange');
  const localePath = useLocalePath();
  const checkValue = order.deposit_address ?? order.bank_account?.account_number ?? null;
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
      <p>{t('transaction.waitingForPayment', { amount, currency })}</p>
      {order.deposit_address ? (
        <div className="requisites">
          <QrCode
            value={qrValue ?? order.deposit_address}
            label={qrCarriesPayment ? t('transaction.qrCodePayment') : t('transaction.qrCode')}
          />
          <div>
            <CopyRow
              label={t('transaction.depositAddress')}
              value={order.deposit_address}
              explorer={explorerAddressUrl(network, order.deposit_address)}
            />
            {order.deposit_memo ? (
              <>
                <CopyRow label={t('transaction.depositMemo')} value={order.deposit_memo} />
                <p className="field__hint">{t('transaction.memoWarning')}</p>
              </>
            ) : null}
            {qrCarriesPayment ? <p className="field__hint">{t('transaction.qrHint')}</p> : null}
          </div>
        </div>
      ) : null}
      {order.bank_account ? (
        <div>
          <CopyRow
            label={t('transaction.bank.beneficiary')}
            value={order.bank_account.beneficiary}
          />
          <CopyRow
            label={t('transaction.bank.accountNumber')}
            value={order.bank_account.account_number}
          />
          <CopyRow label={t('transaction.bank.swift')} value={order.bank_account.swift_bic} />
          <CopyRow
            label={t('transaction.bank.bankAddress')}
            value={order.bank_account.bank_address}
          />
          {order.payment_reference ? (
            <>
              <CopyRow label={t('transaction.bank.reference')} value={order.payment_reference} />
              <p className="field__hint">{t('transaction.bank.referenceWarning')}</p>
            </>
          ) : null}
        </div>
      ) : null}
      {checkValue ? (
        <p>
          <Link
            to={`${localePath('/check-requisites')}?${new URLSearchParams({ value: checkValue }).toString()}`}
          >
            {t('trust:verify.link')}
          </Link>
        </p>
      ) : null}
    </>
  );
}

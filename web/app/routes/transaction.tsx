import { useMutation } from '@apollo/client/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

import { splitLocalePath } from '@app/shared/i18n';

import { loginPath } from '#app/auth/redirect.ts';
import { useSession } from '#app/auth/session.ts';
import { CheckIcon, CopyIcon } from '#app/components/icons.ts';
import { useCopy } from '#app/components/use-copy.ts';
import { notify } from '#app/components/notify/index.ts';
import { trimZeros } from '#app/exchange/amounts.ts';
import { currencyLabel } from '#app/exchange/currency-label.ts';
import {
  asOrderStatus,
  isCancelable,
  wizardStepOf,
  type OrderStatus,
} from '#app/exchange/order-status.ts';
import { QrCode } from '#app/exchange/qr-code.tsx';
import { WizardProgress } from '#app/exchange/wizard-progress.tsx';
import {
  CancelExchangeDocument,
  TransactionDocument,
  type TransactionSubscription,
} from '#app/graphql/generated/user.ts';
import { useSubscription } from '#app/graphql/use-subscription.ts';
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
 * An order as its owner follows it (spec sections 2 and 4): number, amounts, the state with its
 * text, the requisites to pay (a wallet address with a QR code, or bank details with the
 * reference), the payout's tx id once completed, and Cancel while allowed. A live subscription
 * keeps it current; the page never reloads.
 */
export default function Transaction({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('exchange');
  const locale = useLocale();
  const localePath = useLocalePath();
  const location = useLocation();
  const checked = useSession((state) => state.checked);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const live = useSubscription(TransactionDocument, { id: loaderData.id }, checked && isLoggedIn);
  const [cancelExchange, { loading: canceling }] = useMutation(CancelExchangeDocument);

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

  const cancel = async () => {
    if (!window.confirm(t('transaction.cancelConfirm'))) return;
    try {
      await cancelExchange({ variables: { id: order.id } });
      notify.success(t('transaction.canceledNotice'));
    } catch {
      notify.error();
    }
  };

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
            {trimZeros(order.send_amount)} {send}
          </dd>
        </div>
        <div>
          <dt>{t('transaction.receive')}</dt>
          <dd>
            {trimZeros(order.receive_amount)} {receive}
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
          <dd>{new Date(order.created_at).toLocaleString(locale === 'ua' ? 'uk-UA' : locale)}</dd>
        </div>
      </dl>

      <section className="card order-state" aria-live="polite">
        {order.status === 'waiting_for_operator' ? (
          <p>{t('transaction.waitingForOperator')}</p>
        ) : null}
        {order.status === 'waiting_for_payment' ? (
          <Requisites order={order} amount={`${trimZeros(order.send_amount)}`} currency={send} />
        ) : null}
        {order.status === 'paid' ? <p>{t('transaction.paid')}</p> : null}
        {order.status === 'completed' ? (
          <>
            <p>{t('transaction.completed')}</p>
            {order.payout_tx_id ? (
              <CopyRow label={t('transaction.payoutTxId')} value={order.payout_tx_id} />
            ) : null}
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
      </section>

      {cancelable ? (
        <button type="button" className="button" onClick={() => void cancel()} disabled={canceling}>
          {t('transaction.cancel')}
        </button>
      ) : null}
    </main>
  );
}

/** Where to pay: a deposit address with its QR code, or the service's bank account. */
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
  return (
    <>
      <p>{t('transaction.waitingForPayment', { amount, currency })}</p>
      {order.deposit_address ? (
        <div className="requisites">
          <QrCode value={order.deposit_address} label={t('transaction.qrCode')} />
          <div>
            <CopyRow label={t('transaction.depositAddress')} value={order.deposit_address} />
            {order.deposit_memo ? (
              <>
                <CopyRow label={t('transaction.depositMemo')} value={order.deposit_memo} />
                <p className="field__hint">{t('transaction.memoWarning')}</p>
              </>
            ) : null}
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
    </>
  );
}

/** A labelled value with a copy button. */
function CopyRow({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('exchange');
  const { copied, copy } = useCopy();
  return (
    <div className="copy-row">
      <span className="copy-row__label">{label}</span>
      <span className="copy-row__value mono">{value}</span>
      <button
        type="button"
        className="button button--small"
        aria-label={`${t('transaction.copy')}: ${label}`}
        onClick={() => void copy(value)}
      >
        {copied ? (
          <CheckIcon aria-hidden="true" size={16} />
        ) : (
          <CopyIcon aria-hidden="true" size={16} />
        )}
        {copied ? t('transaction.copied') : t('transaction.copy')}
      </button>
    </div>
  );
}

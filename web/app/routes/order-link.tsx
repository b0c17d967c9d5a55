import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useRevalidator } from 'react-router';

import { browserEnv } from '@app/client/env/public-env.ts';
import {
  OrderByLinkDocument,
  OrderReceiptPdfByLinkDocument,
  type OrderByLinkQuery,
} from '@app/client/graphql/generated/anonymous.ts';
import { graphqlRequest, GraphqlRequestError } from '@app/client/graphql/request.ts';
import { currencyLabel, explorerTxUrl, formatRateIn } from '@app/shared/exchange';
import { formatDecimal, splitLocalePath } from '@app/shared/i18n';
import { asOrderStatus, isFinal, type OrderStatus } from '@app/shared/orders/status';

import { useHydrated } from '#app/auth/form.tsx';
import { loginPath } from '#app/auth/redirect.ts';
import { notify } from '#app/components/notify/index.ts';
import { loadExchangeCatalog } from '#app/exchange/catalog.server.ts';
import { CopyRow } from '#app/exchange/copy-row.tsx';
import { Moment } from '#app/exchange/countdown.tsx';
import {
  ActionReasonText,
  ExpiredNotice,
  HoldNotice,
  OperatorWait,
  PaymentDeadline,
  RefundNotice,
} from '#app/exchange/order-notices.tsx';
import { downloadPdf, receiptFilename } from '#app/exchange/receipt-pdf.ts';
import { useLocale } from '#app/i18n/locale.ts';
import { translatorFor } from '#app/i18n/meta.ts';

import type { Route } from './+types/order-link';

/** base64url of the order id and its MAC (hasura/actions/src/orders/link-token.ts). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** How often the page asks again while the order can still change. */
export const LOOKUP_POLL_MS = 15_000;

type LinkedOrder = NonNullable<OrderByLinkQuery['orderByLink']>;

interface CurrencyView {
  label: string;
  kind: string | null;
  /** The catalog's network, for the payout's explorer link (decision 042). */
  network?: string | null;
}

interface LookupData {
  order: LinkedOrder | null;
  failed: boolean;
  send: CurrencyView | null;
  receive: CurrencyView | null;
}

const notFound = (failed = false) =>
  data<LookupData>(
    { order: null, failed, send: null, receive: null },
    { status: failed ? 503 : 404 },
  );

/**
 * The order behind a secret link (`orderByLink`, anonymous), read on the server so a wrong link
 * answers 404; currencies are named from the public catalog.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const url = context.publicEnv.PUBLIC_GRAPHQL_URL;
  if (!TOKEN.test(params.token)) return notFound();
  try {
    const [answer, catalog] = await Promise.all([
      graphqlRequest(url, OrderByLinkDocument, { token: params.token }),
      loadExchangeCatalog(url).catch(() => null),
    ]);
    const order = answer.orderByLink;
    if (!order) return notFound();
    const view = (code: string): CurrencyView => {
      const currency = catalog?.currencies.find((each) => each.code === code);
      return {
        label: currencyLabel(code, currency),
        kind: currency?.kind ?? null,
        network: currency?.network ?? null,
      };
    };
    return data<LookupData>({
      order,
      failed: false,
      send: view(order.sendCurrency),
      receive: view(order.receiveCurrency),
    });
  } catch (error) {
    if (GraphqlRequestError.is(error) && error.code === 'not-found') return notFound();
    return notFound(true);
  }
}

export const meta: Route.MetaFunction = ({ location, loaderData }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  const number = loaderData?.order?.number;
  // The token in the address is the key to the order: never indexed, never sent on.
  return [
    {
      title: number ? t('trust:lookup.metaTitle', { number }) : t('common:errors.notFoundTitle'),
    },
    { name: 'robots', content: 'noindex' },
    { name: 'referrer', content: 'no-referrer' },
  ];
};

/**
 * An order opened from its secret link (issue 10): read-only, never with payment details; its
 * state with the deadlines and side-state texts, the amounts and the payout's tx id, refreshed
 * every 15 seconds while it can still change; a sign-in link to act on it, and the receipt as
 * a PDF once completed.
 */
export default function OrderLink({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation('trust');
  const { order, failed } = loaderData;
  const status = order ? asOrderStatus(order.status) : null;
  useLookupPolling(status !== null && !isFinal(status));

  if (!order || !status) {
    return (
      <main id="main" className="container section narrow">
        <h1>{t('common:errors.notFoundTitle')}</h1>
        <p role="alert">{failed ? t('common:notify.somethingWentWrong') : t('lookup.notFound')}</p>
      </main>
    );
  }
  return (
    <LookupPage
      order={order}
      status={status}
      token={params.token}
      send={loaderData.send?.label ?? order.sendCurrency}
      receive={loaderData.receive?.label ?? order.receiveCurrency}
      cash={loaderData.send?.kind === 'cash'}
      payoutExplorer={explorerTxUrl(loaderData.receive?.network, order.payoutTxId)}
    />
  );
}

/** Revalidates the loader every 15 s while `active` and the page is visible. */
function useLookupPolling(active: boolean) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void revalidate();
    }, LOOKUP_POLL_MS);
    return () => clearInterval(timer);
  }, [active, revalidate]);
}

function LookupPage({
  order,
  status,
  token,
  send,
  receive,
  cash,
  payoutExplorer,
}: {
  order: LinkedOrder;
  status: OrderStatus;
  token: string;
  send: string;
  receive: string;
  cash: boolean;
  payoutExplorer: string | undefined;
}) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const received = `${formatDecimal(order.receivedAmount ?? order.sendAmount, locale)} ${send}`;
  return (
    <main id="main" className="container section narrow">
      <h1>{t('lookup.title', { number: order.number })}</h1>
      <p className="lead">{t('lookup.readOnly')}</p>

      <dl className="card order-summary">
        <div>
          <dt>{t('exchange:transaction.send')}</dt>
          <dd>
            {formatDecimal(order.sendAmount, locale)} {send}
          </dd>
        </div>
        <div>
          <dt>{t('exchange:transaction.receive')}</dt>
          <dd>
            {formatDecimal(order.settledReceiveAmount ?? order.receiveAmount, locale)} {receive}
          </dd>
        </div>
        <div>
          <dt>{t('exchange:transaction.status')}</dt>
          <dd>
            <span className={`status status--${status}`}>
              {t(`exchange:transaction.statuses.${status}`)}
            </span>
          </dd>
        </div>
        <div>
          <dt>{t('exchange:transaction.created')}</dt>
          <dd>
            <Moment iso={order.createdAt} />
          </dd>
        </div>
      </dl>

      <section className="card order-state" aria-live="polite">
        {status === 'waiting_for_operator' ? (
          <OperatorWait
            dueAt={order.requisitesDueAt}
            lateAt={order.requisitesLateAt}
            queuePosition={order.queuePosition}
          />
        ) : null}
        {status === 'waiting_for_payment' && order.payBy ? (
          <PaymentDeadline payBy={order.payBy} />
        ) : null}
        {status === 'paid' ? <p>{t('exchange:transaction.paid')}</p> : null}
        {status === 'completed' ? (
          <>
            <p>{t('exchange:transaction.completed')}</p>
            {order.payoutTxId ? (
              <CopyRow
                label={t('exchange:transaction.payoutTxId')}
                value={order.payoutTxId}
                explorer={payoutExplorer}
              />
            ) : null}
            <ReceiptDownload token={token} number={order.number} />
          </>
        ) : null}
        {status === 'canceled' ? <p>{t('exchange:transaction.canceled')}</p> : null}
        {status === 'on_hold' ? (
          <HoldNotice category={order.holdCategory} orderNumber={order.number} />
        ) : null}
        {status === 'needs_user_action' ? (
          <div className="side-state">
            <h2>{t('action.title')}</h2>
            <ActionReasonText
              reason={order.actionReason}
              received={received}
              expected={`${formatDecimal(order.sendAmount, locale)} ${send}`}
            />
          </div>
        ) : null}
        {status === 'refund_in_progress' || status === 'refunded' ? (
          <RefundNotice
            done={status === 'refunded'}
            amount={received}
            cash={cash}
            txId={order.refundTxId}
          />
        ) : null}
        {status === 'expired' ? <ExpiredNotice payBy={order.payBy} /> : null}
        {order.settledReceiveAmount ? (
          <p className="notice">
            {t('action.settled', {
              amount: `${formatDecimal(order.settledReceiveAmount, locale)} ${receive}`,
              rate: order.settledRate ? formatRateIn(order.settledRate, locale) : '',
            })}
          </p>
        ) : null}
      </section>

      <p className="field__hint">{t('lookup.emailLinkNote')}</p>
      <Link className="button button--primary" to={loginPath(locale, `/transaction/${order.id}`)}>
        {t('lookup.signIn')}
      </Link>
    </main>
  );
}

function ReceiptDownload({ token, number }: { token: string; number: string }) {
  const { t } = useTranslation('trust');
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const download = async () => {
    if (pending) return;
    setPending(true);
    try {
      const answer = await graphqlRequest(
        browserEnv().PUBLIC_GRAPHQL_URL,
        OrderReceiptPdfByLinkDocument,
        { token },
      );
      const pdf = answer.orderReceiptPdf;
      if (!pdf) throw new Error('no receipt came back');
      downloadPdf(pdf.contentBase64, receiptFilename(pdf.filename, `receipt-${number}`));
    } catch {
      notify.error();
    } finally {
      setPending(false);
    }
  };
  return (
    <p>
      <button
        type="button"
        className="button"
        onClick={() => void download()}
        disabled={!hydrated || pending}
        aria-busy={pending || undefined}
      >
        {pending ? t('receipt.downloading') : t('receipt.download')}
      </button>
    </p>
  );
}

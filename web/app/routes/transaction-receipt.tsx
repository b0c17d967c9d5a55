import { useApolloClient, useQuery } from '@apollo/client/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { receiptView, type ReceiptOrder } from '@app/client/exchange/receipt-view.ts';
import {
  OrderReceiptPdfDocument,
  TransactionReceiptDocument,
} from '@app/client/graphql/generated/user.ts';
import { splitLocalePath } from '@app/shared/i18n';

import { formatDateTime } from '#app/account/format.ts';
import { LoadingPage, SignInPrompt } from '#app/account/sign-in-prompt.tsx';
import { useHydrated } from '#app/auth/form.tsx';
import { useSession } from '#app/auth/session.ts';
import { notify } from '#app/components/notify/index.ts';
import { downloadPdf, receiptFilename } from '#app/exchange/receipt-pdf.ts';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';
import { translatorFor } from '#app/i18n/meta.ts';

import type { Route } from './+types/transaction-receipt';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function loader({ params }: Route.LoaderArgs) {
  if (!UUID.test(params.id)) throw new Response(null, { status: 404 });
  return { id: params.id.toLowerCase() };
}

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [
    { title: t('trust:receipt.title') },
    { name: 'robots', content: 'noindex' },
    { name: 'referrer', content: 'no-referrer' },
  ];
};

/**
 * The receipt of a completed order (issue 10), printable: order number, completion date, what
 * was paid and paid out, the rate (the settled figures when the user continued at the current
 * rate), the payout's tx id or bank reference and where it went; "Download PDF" (the
 * `orderReceiptPdf` action) and "Print".
 */
export default function TransactionReceipt({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('trust');
  const localePath = useLocalePath();
  const checked = useSession((state) => state.checked);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const { data, error, loading } = useQuery(TransactionReceiptDocument, {
    variables: { id: loaderData.id },
    skip: !checked || !isLoggedIn,
  });

  if (checked && !isLoggedIn)
    return (
      <SignInPrompt title={t('receipt.title')} text={t('exchange:transaction.signInToView')} />
    );
  if (!checked || (loading && !data)) return <LoadingPage />;
  const order = data?.transactions_by_pk;
  if (error || !order) {
    return (
      <main id="main" className="container section narrow">
        <h1>{t('receipt.title')}</h1>
        <p role="alert">
          {error ? t('common:notify.somethingWentWrong') : t('exchange:transaction.notFound')}
        </p>
        <Link to={localePath('/transactions-history')}>{t('common:menu.transactionsHistory')}</Link>
      </main>
    );
  }
  const orderLink = (
    <Link className="button no-print" to={localePath(`/transaction/${order.id}`)}>
      {t('exchange:transaction.title', { number: order.number })}
    </Link>
  );
  if (order.status !== 'completed') {
    return (
      <main id="main" className="container section narrow">
        <h1>{t('receipt.title')}</h1>
        <p>{t('receipt.notCompleted')}</p>
        {orderLink}
      </main>
    );
  }
  return <Receipt order={order} back={orderLink} />;
}

/**
 * A tx id or an address, linked to its block explorer's page where the network has one
 * (decision 042); printed, it reads as the value itself.
 */
function ExplorerValue({ value, href }: { value: string; href: string | undefined }) {
  const { t } = useTranslation('exchange');
  if (!href) return <>{value}</>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={t('transaction.explorerLabel', { label: value })}
    >
      {value}
    </a>
  );
}

function Receipt({ order, back }: { order: ReceiptOrder; back: ReactNode }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const hydrated = useHydrated();
  const client = useApolloClient();
  const [downloading, setDownloading] = useState(false);
  const view = receiptView(order);

  const download = async () => {
    if (downloading) return;
    setDownloading(true);
    try {
      const { data } = await client.query({
        query: OrderReceiptPdfDocument,
        variables: { id: order.id },
        fetchPolicy: 'no-cache',
      });
      const pdf = data?.orderReceiptPdf;
      if (!pdf) throw new Error('no receipt came back');
      downloadPdf(pdf.contentBase64, receiptFilename(pdf.filename, `receipt-${order.number}`));
    } catch {
      notify.error();
    } finally {
      setDownloading(false);
    }
  };

  return (
    <main id="main" className="container section narrow receipt">
      <article className="card receipt__sheet" aria-labelledby="receipt-title">
        <h1 id="receipt-title">{t('receipt.title')}</h1>
        <dl className="receipt__list">
          <div>
            <dt>{t('receipt.order')}</dt>
            <dd>{order.number}</dd>
          </div>
          {order.completed_at ? (
            <div>
              <dt>{t('receipt.date')}</dt>
              <dd>
                <time dateTime={order.completed_at}>
                  {formatDateTime(order.completed_at, locale)}
                </time>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t('receipt.sent')}</dt>
            <dd>{view.sent}</dd>
          </div>
          <div>
            <dt>{t('receipt.received')}</dt>
            <dd>{view.received}</dd>
          </div>
          <div>
            <dt>{t('receipt.rate')}</dt>
            <dd>{view.rate}</dd>
          </div>
          {view.payoutTxId ? (
            <div>
              <dt>{view.bankPayout ? t('receipt.bankReference') : t('receipt.payoutTx')}</dt>
              <dd className="mono">
                <ExplorerValue value={view.payoutTxId} href={view.payoutTxUrl} />
              </dd>
            </div>
          ) : null}
          {view.payoutTo ? (
            <div>
              <dt>{t('receipt.payoutTo')}</dt>
              <dd className="mono">
                <ExplorerValue value={view.payoutTo} href={view.payoutToUrl} />
              </dd>
            </div>
          ) : null}
        </dl>
      </article>
      <div className="receipt__actions no-print">
        <button
          type="button"
          className="button button--primary"
          onClick={() => void download()}
          disabled={!hydrated || downloading}
          aria-busy={downloading || undefined}
        >
          {downloading ? t('receipt.downloading') : t('receipt.download')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => window.print()}
          disabled={!hydrated}
        >
          {t('receipt.print')}
        </button>
        {back}
      </div>
    </main>
  );
}

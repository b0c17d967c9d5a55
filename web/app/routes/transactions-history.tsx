import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import {
  TransactionsHistoryCountDocument,
  TransactionsHistoryPageDocument,
  type TransactionsHistoryPageSubscription,
} from '@app/client/graphql/generated/user.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';
import { currencyLabel } from '@app/shared/exchange';
import { splitLocalePath } from '@app/shared/i18n';
import { asOrderStatus } from '@app/shared/orders/status';

import { DataTable } from '#app/account/data-table.tsx';
import {
  formatAmount,
  formatDateTime,
  PAGE_SIZE,
  pageCount,
  pageFromSearch,
} from '#app/account/format.ts';
import { Pagination } from '#app/account/pagination.tsx';
import { LoadingPage, SignInPrompt } from '#app/account/sign-in-prompt.tsx';
import { useSession } from '#app/auth/session.ts';
import { CurrencyText } from '#app/exchange/currency-amount.tsx';
import { pairSlug } from '#app/content/pairs.ts';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';
import { pageMeta, translatorFor } from '#app/i18n/meta.ts';
import { siteUrlOf } from '#app/utils/public-env.ts';

import type { Route } from './+types/transactions-history';

export const meta: Route.MetaFunction = ({ location, matches }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [
    ...pageMeta({
      pathname: location.pathname,
      siteUrl: siteUrlOf(matches),
      title: t('account:history.metaTitle'),
      description: t('account:history.metaDescription'),
    }),
    { name: 'robots', content: 'noindex' },
  ];
};

type HistoryRow = TransactionsHistoryPageSubscription['transactions'][number];

/**
 * The signed-in user's orders (spec section 2): the title with their count, Create, an empty
 * state, and per row the number (to the order's page), send, receive, date, status and Repeat
 * (the order form preset with the pair and the amount sent). Twenty a page (`?page=N`), live.
 */
export default function TransactionsHistory() {
  const { t } = useTranslation('account');
  const checked = useSession((state) => state.checked);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const [searchParams] = useSearchParams();
  const page = pageFromSearch(searchParams);
  const enabled = checked && isLoggedIn;
  const rows = useSubscription(
    TransactionsHistoryPageDocument,
    { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    enabled,
  );
  const count = useSubscription(TransactionsHistoryCountDocument, {}, enabled);

  if (checked && !isLoggedIn)
    return <SignInPrompt title={t('history.title')} text={t('history.signIn')} />;
  if (!checked || rows.status === 'loading' || count.status === 'loading') return <LoadingPage />;
  if (rows.status === 'error' || count.status === 'error') {
    return (
      <main id="main" className="container section">
        <h1>{t('history.title')}</h1>
        <p role="alert">{t('common:notify.somethingWentWrong')}</p>
      </main>
    );
  }

  const total = count.data.transactions_aggregate.aggregate?.count ?? 0;
  return (
    <HistoryPage rows={rows.data.transactions} total={total} page={page} pages={pageCount(total)} />
  );
}

function HistoryPage({
  rows,
  total,
  page,
  pages,
}: {
  rows: HistoryRow[];
  total: number;
  page: number;
  pages: number;
}) {
  const { t } = useTranslation('account');
  const locale = useLocale();
  const localePath = useLocalePath();
  const createLink = (
    <Link className="button button--primary" to={`${localePath('/')}#exchange`}>
      {t('history.create')}
    </Link>
  );

  return (
    <main id="main" className="container section account-page">
      <div className="account-page__header">
        <h1>{t('history.titleWithCount', { count: total })}</h1>
        {total > 0 ? createLink : null}
      </div>

      {total === 0 ? (
        <section className="card empty-state">
          <p className="empty-state__title">{t('history.empty')}</p>
          <p>{t('history.emptyHint')}</p>
          {createLink}
        </section>
      ) : rows.length === 0 ? (
        <section className="card empty-state">
          <p className="empty-state__title">{t('history.pageEmpty')}</p>
          <Link className="button" to={{ search: '' }}>
            {t('history.firstPage')}
          </Link>
        </section>
      ) : (
        <DataTable
          caption={t('history.caption')}
          columns={[
            { id: 'number', label: t('history.number') },
            { id: 'send', label: t('history.send') },
            { id: 'receive', label: t('history.receive') },
            { id: 'date', label: t('history.date') },
            { id: 'status', label: t('history.status') },
            { id: 'actions', label: t('history.actions') },
          ]}
          rows={rows.map((row) => ({
            key: row.id,
            cells: [
              <Link key="number" to={localePath(`/transaction/${row.id}`)}>
                {row.number}
              </Link>,
              <CurrencyText
                key="send"
                code={row.send_currency}
                info={row.send_currency_info}
                text={`${formatAmount(row.send_amount, locale)} ${currencyLabel(row.send_currency, row.send_currency_info)}`}
              />,
              <CurrencyText
                key="receive"
                code={row.receive_currency}
                info={row.receive_currency_info}
                text={`${formatAmount(row.receive_amount, locale)} ${currencyLabel(row.receive_currency, row.receive_currency_info)}`}
              />,
              <time key="date" dateTime={row.created_at}>
                {formatDateTime(row.created_at, locale)}
              </time>,
              <span key="status" className={`status status--${row.status}`}>
                {t(`exchange:transaction.statuses.${asOrderStatus(row.status)}`)}
              </span>,
              <Link
                key="repeat"
                className="button button--small"
                aria-label={t('history.repeatLabel', { number: row.number })}
                to={`${localePath(
                  `/create-transaction/${pairSlug(row.send_currency, row.receive_currency)}`,
                )}?${new URLSearchParams({
                  side: 'send',
                  amount: formatAmount(row.send_amount, locale),
                }).toString()}`}
              >
                {t('history.repeat')}
              </Link>,
            ],
          }))}
        />
      )}

      {total > PAGE_SIZE || page > 1 ? (
        <Pagination page={page} pages={pages} total={total} />
      ) : null}
    </main>
  );
}

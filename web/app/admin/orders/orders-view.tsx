import { useQuery } from '@apollo/client/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { DataTable } from '#app/account/data-table.tsx';
import {
  formatAmount,
  formatDateTime,
  PAGE_SIZE,
  pageCount,
  pageFromSearch,
} from '#app/account/format.ts';
import { Pagination } from '#app/account/pagination.tsx';
import { EmptyState, LoadFailed, Loading } from '#app/admin/states.tsx';
import { currencyLabel } from '#app/exchange/currency-label.ts';
import { asOrderStatus, ORDER_STATUSES, type OrderStatus } from '#app/exchange/order-status.ts';
import {
  StaffOrdersCurrenciesDocument,
  StaffOrdersQueueDocument,
  type StaffOrdersQueueSubscription,
} from '#app/graphql/generated/manager.ts';
import { useSubscription, type SubscriptionState } from '#app/graphql/use-subscription.ts';
import { useLocale } from '#app/i18n/locale.ts';

import { FiltersForm, type CurrencyOption } from './filters-form.tsx';
import { OrderDetail } from './order-detail.tsx';
import {
  hasOtherFilters,
  parseFilters,
  queueOrderBy,
  queueWhere,
  searchWithFilters,
  type QueueFilters,
} from './queue-filters.ts';
import { totalOf, useStatusCounts, type CountsState } from './use-status-counts.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type QueueRow = StaffOrdersQueueSubscription['transactions'][number];

/** `current` with `name` set to `value` (or removed), everything else kept. */
function withParam(current: URLSearchParams, name: string, value: string | null): string {
  const next = new URLSearchParams(current);
  if (value === null) next.delete(name);
  else next.set(name, value);
  return next.toString();
}

/**
 * The orders section: the status tabs with their counts, the filters, one live page of the
 * queue and, beside it, the open order (`?order=<id>`). Everything it shows is in the address.
 */
export function OrdersView() {
  const [searchParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(searchParams), [searchParams]);
  const page = pageFromSearch(searchParams);
  const requested = searchParams.get('order');
  const openId = requested && UUID.test(requested) ? requested.toLowerCase() : null;
  const [focusDetail, setFocusDetail] = useState(false);

  const variables = useMemo(
    () => ({
      where: queueWhere(filters),
      orderBy: queueOrderBy(filters.sort),
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    }),
    [filters, page],
  );
  const queue = useSubscription(StaffOrdersQueueDocument, variables);
  const counts = useStatusCounts(filters);
  const catalog = useQuery(StaffOrdersCurrenciesDocument);
  const currencies: CurrencyOption[] = useMemo(
    () => catalog.data?.currencies ?? [],
    [catalog.data],
  );

  return (
    <div
      className={
        openId ? 'staff-orders__layout staff-orders__layout--open' : 'staff-orders__layout'
      }
    >
      <div className="staff-orders__queue">
        <StatusTabs filters={filters} counts={counts} />
        <FiltersForm key={searchParams.toString()} filters={filters} currencies={currencies} />
        <QueueTable
          queue={queue}
          counts={counts}
          filters={filters}
          page={page}
          openId={openId}
          currencies={currencies}
          onOpen={() => setFocusDetail(true)}
        />
      </div>
      {openId ? (
        <OrderDetail
          key={openId}
          id={openId}
          focus={focusDetail}
          onFocused={() => setFocusDetail(false)}
          closeSearch={withParam(searchParams, 'order', null)}
        />
      ) : null}
    </div>
  );
}

/** All and each status with its count; the current one is marked. Links, so Back works. */
function StatusTabs({ filters, counts }: { filters: QueueFilters; counts: CountsState }) {
  const { t } = useTranslation('staffOrders');
  const [searchParams] = useSearchParams();
  const label = (text: string, total: number | undefined) =>
    total === undefined ? text : t('statusTabs.tab', { status: text, total });
  const entries: Array<{ status: OrderStatus | null; text: string; total: number | undefined }> = [
    {
      status: null,
      text: t('statusTabs.all'),
      total: counts.status === 'ready' ? totalOf(counts.counts, null) : undefined,
    },
    ...ORDER_STATUSES.map((status) => ({
      status,
      text: t(`exchange:transaction.statuses.${status}`),
      total: counts.status === 'ready' ? counts.counts[status] : undefined,
    })),
  ];
  return (
    <nav className="staff-orders__status-tabs" aria-label={t('statusTabs.label')}>
      <ul>
        {entries.map((entry) => (
          <li key={entry.status ?? 'all'}>
            <Link
              className={`staff-orders__status-tab${entry.status ? ` staff-orders__status-tab--${entry.status}` : ''}`}
              to={{
                search: searchWithFilters(searchParams, {
                  ...filters,
                  status: entry.status,
                }).toString(),
              }}
              aria-current={filters.status === entry.status ? 'page' : undefined}
              preventScrollReset
            >
              {label(entry.text, entry.total)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function QueueTable({
  queue,
  counts,
  filters,
  page,
  openId,
  currencies,
  onOpen,
}: {
  queue: SubscriptionState<StaffOrdersQueueSubscription>;
  counts: CountsState;
  filters: QueueFilters;
  page: number;
  openId: string | null;
  currencies: CurrencyOption[];
  onOpen: () => void;
}) {
  const { t } = useTranslation('staffOrders');
  const locale = useLocale();
  const [searchParams] = useSearchParams();
  const byCode = useMemo(
    () => new Map(currencies.map((currency) => [currency.code, currency])),
    [currencies],
  );
  const amount = (value: string, code: string) =>
    `${formatAmount(value)} ${currencyLabel(code, byCode.get(code))}`;

  if (queue.status === 'error' || counts.status === 'error')
    return <LoadFailed message={t('loadFailed')} className="staff-orders__error" />;
  if (queue.status === 'loading') return <Loading className="staff-orders__loading" />;

  const rows = queue.data.transactions;
  const total = counts.status === 'ready' ? totalOf(counts.counts, filters.status) : undefined;
  const filtered = filters.status !== null || hasOtherFilters(filters);

  if (rows.length === 0) {
    if (page > 1) {
      return (
        <EmptyState title={t('queue.pageEmpty')}>
          <Link className="button" to={{ search: withParam(searchParams, 'page', null) }}>
            {t('queue.firstPage')}
          </Link>
        </EmptyState>
      );
    }
    return <EmptyState title={filtered ? t('queue.noMatches') : t('queue.empty')} />;
  }

  return (
    <>
      <p className="staff-orders__live">
        <span className="staff-orders__live-dot" aria-hidden="true" />
        {t('live')}
      </p>
      <DataTable
        caption={t('queue.caption')}
        columns={[
          { id: 'number', label: t('queue.number') },
          { id: 'created', label: t('queue.created') },
          { id: 'customer', label: t('queue.customer') },
          { id: 'exchange', label: t('queue.exchange') },
          { id: 'status', label: t('queue.status') },
        ]}
        rows={rows.map((row: QueueRow) => ({
          key: row.id,
          cells: [
            <Link
              key="number"
              to={{ search: withParam(searchParams, 'order', row.id) }}
              aria-label={t('queue.open', { number: row.number })}
              aria-current={row.id === openId ? 'true' : undefined}
              preventScrollReset
              onClick={onOpen}
            >
              {row.number}
            </Link>,
            <time key="created" dateTime={row.created_at}>
              {formatDateTime(row.created_at, locale)}
            </time>,
            <span key="customer" className="staff-orders__customer">
              <span>{row.email}</span>
              {row.user?.telegram_username ? (
                <span className="staff-orders__muted">@{row.user.telegram_username}</span>
              ) : null}
            </span>,
            <span key="exchange" className="staff-orders__exchange">
              <span>{amount(row.send_amount, row.send_currency)}</span>
              <span className="staff-orders__muted">
                → {amount(row.receive_amount, row.receive_currency)}
              </span>
            </span>,
            <span key="status" className={`status status--${row.status}`}>
              {t(`exchange:transaction.statuses.${asOrderStatus(row.status)}`)}
            </span>,
          ],
        }))}
      />
      {total !== undefined && (total > PAGE_SIZE || page > 1) ? (
        <Pagination page={page} pages={pageCount(total)} total={total} />
      ) : null}
    </>
  );
}

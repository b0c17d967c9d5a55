import { useQuery } from '@apollo/client/react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import {
  StaffOrdersCurrenciesDocument,
  StaffOrdersLateCountDocument,
  StaffOrdersQueueDocument,
  type StaffOrdersQueueSubscription,
} from '@app/client/graphql/generated/manager.ts';
import { useSubscription, type SubscriptionState } from '@app/client/graphql/use-subscription.ts';
import { currencyLabel } from '@app/shared/exchange';
import { isSideStatus, ORDER_STATUSES, type OrderStatus } from '@app/shared/orders/vocabulary';

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
import { CurrencyText } from '#app/exchange/currency-amount.tsx';
import { useLocale } from '#app/i18n/locale.ts';

import { ExportButton } from './export-button.tsx';
import { FiltersForm, type CurrencyOption } from './filters-form.tsx';
import { OrderDetail } from './order-detail.tsx';
import { requisitesState } from './order-steps.ts';
import {
  hasOtherFilters,
  parseFilters,
  queueOrderBy,
  queueWhere,
  searchWithFilters,
  type QueueFilters,
} from './queue-filters.ts';
import { reasonLabel, statusClass, statusLabel } from './statuses.ts';
import { LateBadge, useNow, useSpanText, WarningIcon } from './timers.tsx';
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
  // The late filter's instant: when the filters were read (the job flags the later ones).
  const dueBefore = useMemo(() => {
    void filters;
    return new Date().toISOString();
  }, [filters]);

  const variables = useMemo(
    () => ({
      where: queueWhere(filters, true, dueBefore),
      orderBy: queueOrderBy(filters.sort),
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    }),
    [filters, page, dueBefore],
  );
  const queue = useSubscription(StaffOrdersQueueDocument, variables);
  const counts = useStatusCounts(filters, dueBefore);
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
        {filters.late ? null : <LateBanner filters={filters} />}
        <FiltersForm key={searchParams.toString()} filters={filters} currencies={currencies} />
        <ExportButton section="orders" filters={filters} />
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

/**
 * The live number of orders waiting past the promised time: flagged by the deadlines job, or
 * due before the page's clock, which moves every 15 seconds (each move is a new subscription).
 */
function useLateCount(): number | null {
  const now = useNow(15_000);
  const dueBefore = now === null ? null : new Date(now).toISOString();
  const live = useSubscription(
    StaffOrdersLateCountDocument,
    { dueBefore: dueBefore ?? '' },
    dueBefore !== null,
  );
  // Kept while the next minute's count is on its way, so the banner does not blink.
  const last = useRef<number | null>(null);
  if (live.status === 'live') last.current = live.data.transactions_aggregate.aggregate?.count ?? 0;
  return last.current;
}

/**
 * Orders past the operator's promise, announced above the queue (sign and words, not colour
 * alone), with the way to them: the late filter, most overdue first.
 */
function LateBanner({ filters }: { filters: QueueFilters }) {
  const { t } = useTranslation('staffOrders');
  const [searchParams] = useSearchParams();
  const count = useLateCount();
  return (
    <div role="status" className="staff-orders__late-status">
      {count ? (
        <p className="staff-orders__late-banner">
          <WarningIcon />
          <span>{t('late.banner', { count })}</span>
          <Link
            to={{
              search: searchWithFilters(searchParams, {
                ...filters,
                status: null,
                late: true,
                sort: 'due',
              }).toString(),
            }}
            preventScrollReset
          >
            {t('late.show')}
          </Link>
        </p>
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
      text: statusLabel(t, status),
      total: counts.status === 'ready' ? counts.counts[status] : undefined,
    })),
  ];
  return (
    <nav className="staff-orders__status-tabs" aria-label={t('statusTabs.label')}>
      <ul>
        {entries.map((entry) => (
          <li key={entry.status ?? 'all'}>
            <Link
              className={`staff-orders__status-tab${entry.status ? ` staff-orders__status-tab--${entry.status}` : ''}${isSideStatus(entry.status) ? ' staff-orders__status-tab--side' : ''}`}
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

/**
 * A row's status: the chip, why it stepped aside (the customer's decision, the hold), and for an
 * order waiting for the operator the promise: late (badge, overdue timer; the row is
 * highlighted) or the time left.
 */
function QueueState({
  row,
  now,
  span,
}: {
  row: QueueRow;
  now: number | null;
  span: (ms: number) => string;
}) {
  const { t } = useTranslation('staffOrders');
  const requisites = requisitesState(row, now ?? 0);
  const why = reasonLabel(t, row.action_reason ?? row.hold_category);
  let promise = null;
  if (requisites?.late) {
    promise = <LateBadge overdueMs={now === null ? null : requisites.ms} />;
  } else if (requisites && now !== null) {
    promise = (
      <span className="staff-orders__muted">{t('late.dueIn', { time: span(requisites.ms) })}</span>
    );
  }
  return (
    <span className="staff-orders__state">
      <span className={statusClass(row.status)}>{statusLabel(t, row.status)}</span>
      {why ? <span className="staff-orders__muted">{why}</span> : null}
      {promise}
    </span>
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
  // The clock ticks while a row counts: an order waiting for the operator.
  const now = useNow(
    1000,
    queue.status === 'live' &&
      queue.data.transactions.some((row) => row.status === 'waiting_for_operator'),
  );
  const span = useSpanText();
  const byCode = useMemo(
    () => new Map(currencies.map((currency) => [currency.code, currency])),
    [currencies],
  );
  const amount = (value: string, code: string) => (
    <CurrencyText
      code={code}
      info={byCode.get(code)}
      text={`${formatAmount(value, locale)} ${currencyLabel(code, byCode.get(code))}`}
      size={18}
    />
  );

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
            <QueueState key="status" row={row} now={now} span={span} />,
          ],
        }))}
      />
      {total !== undefined && (total > PAGE_SIZE || page > 1) ? (
        <Pagination page={page} pages={pageCount(total)} total={total} />
      ) : null}
    </>
  );
}

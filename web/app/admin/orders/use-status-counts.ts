import { useQuery } from '@apollo/client/react';
import { useEffect, useMemo, useRef } from 'react';

import {
  StaffOrdersFilteredCountsDocument,
  StaffOrdersStatusCountsDocument,
  type StaffOrdersFilteredCountsQuery,
  type StaffOrdersStatusCountsSubscription,
} from '@app/client/graphql/generated/manager.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';
import { isOrderStatus, ORDER_STATUSES, type OrderStatus } from '@app/shared/orders/vocabulary';

import { hasOtherFilters, queueWhere, type QueueFilters } from './queue-filters.ts';

export type StatusCounts = Record<OrderStatus, number>;

export type CountsState =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; counts: StatusCounts };

/** The live view's rows as counts per status (a status it does not list has none). */
export function countsFromView(
  rows: StaffOrdersStatusCountsSubscription['transaction_status_counts'],
): StatusCounts {
  const counts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as StatusCounts;
  for (const row of rows) {
    if (isOrderStatus(row.status)) counts[row.status] = row.total ?? 0;
  }
  return counts;
}

/** The ten aliased aggregates as counts per status. */
export function countsFromAggregates(data: StaffOrdersFilteredCountsQuery): StatusCounts {
  const counts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as StatusCounts;
  for (const status of ORDER_STATUSES) counts[status] = data[status].aggregate?.count ?? 0;
  return counts;
}

/** How many orders the queue holds: the status's count, or every status's. */
export const totalOf = (counts: StatusCounts, status: OrderStatus | null): number =>
  status ? counts[status] : ORDER_STATUSES.reduce((sum, each) => sum + counts[each], 0);

/**
 * The tabs' counts, live. Without other filters they are the view `transaction_status_counts`
 * (one subscription). Under other filters they are ten aggregates with those filters (one
 * query), fetched again whenever the view changes, which is whenever any order is created or
 * changes status; so they stay live too. `dueBefore` is the late filter's instant.
 */
export function useStatusCounts(filters: QueueFilters, dueBefore: string): CountsState {
  const live = useSubscription(StaffOrdersStatusCountsDocument, {});
  const narrowed = hasOtherFilters(filters);
  const where = useMemo(() => queueWhere(filters, false, dueBefore), [filters, dueBefore]);
  const filtered = useQuery(StaffOrdersFilteredCountsDocument, {
    variables: { where },
    skip: !narrowed,
    notifyOnNetworkStatusChange: false,
  });

  const signature =
    live.status === 'live' ? JSON.stringify(live.data.transaction_status_counts) : '';
  const seen = useRef(signature);
  const { refetch } = filtered;
  useEffect(() => {
    if (seen.current === signature) return;
    const before = seen.current;
    seen.current = signature;
    if (narrowed && before !== '') void refetch().catch(() => undefined);
  }, [narrowed, refetch, signature]);

  if (live.status === 'error') return { status: 'error' };
  if (!narrowed) {
    return live.status === 'live'
      ? { status: 'ready', counts: countsFromView(live.data.transaction_status_counts) }
      : { status: 'loading' };
  }
  const data = filtered.data ?? filtered.previousData;
  if (filtered.error && !data) return { status: 'error' };
  return data ? { status: 'ready', counts: countsFromAggregates(data) } : { status: 'loading' };
}

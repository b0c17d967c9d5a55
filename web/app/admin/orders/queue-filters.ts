import type {
  Transactions_Bool_Exp,
  Transactions_Order_By,
} from '@app/client/graphql/generated/manager.ts';
import { isOrderStatus, type OrderStatus } from '@app/shared/orders/vocabulary';

import { containsPattern } from '#app/admin/search-pattern.ts';

/*
 * The queue's filters live in the address (shareable, the back button works): `status`,
 * `send` and `receive` (currency codes), `from` and `to` (days, YYYY-MM-DD, both included),
 * `email` (part of the order's e-mail), `number`, `late` (`1`: only orders waiting for the
 * operator past the promised time, decision 015), `sort`, and `page`. They become one
 * `transactions_bool_exp` the engine runs with the indexes of decisions 012 and 015.
 */

export const QUEUE_SORTS = ['newest', 'oldest', 'number-desc', 'number-asc', 'due'] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

export interface QueueFilters {
  status: OrderStatus | null;
  send: string | null;
  receive: string | null;
  /** The first day, YYYY-MM-DD. */
  from: string | null;
  /** The last day (included), YYYY-MM-DD. */
  to: string | null;
  email: string | null;
  number: string | null;
  /** Only orders waiting for the operator past `requisites_due_at`. */
  late: boolean;
  sort: QueueSort;
}

/** The search parameters the filters own (`page` and the open order are not filters). */
export const FILTER_PARAMS = [
  'status',
  'send',
  'receive',
  'from',
  'to',
  'email',
  'number',
  'late',
  'sort',
] as const;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const CURRENCY = /^[A-Z0-9]{2,20}$/;
export const ORDER_NUMBER = /^\d{1,18}$/;
const MAX_EMAIL = 254;

function day(value: string | null): string | null {
  if (!value) return null;
  const match = DAY.exec(value);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
    ? value
    : null;
}

const text = (value: string | null): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** The filters an address holds; anything malformed is left out, as if it were not there. */
export function parseFilters(search: URLSearchParams): QueueFilters {
  const status = search.get('status');
  const send = text(search.get('send'))?.toUpperCase() ?? null;
  const receive = text(search.get('receive'))?.toUpperCase() ?? null;
  const email = text(search.get('email'));
  const number = text(search.get('number'));
  const sort = search.get('sort');
  return {
    status: isOrderStatus(status) ? status : null,
    send: send && CURRENCY.test(send) ? send : null,
    receive: receive && CURRENCY.test(receive) ? receive : null,
    from: day(search.get('from')),
    to: day(search.get('to')),
    email: email && email.length <= MAX_EMAIL ? email : null,
    number: number && ORDER_NUMBER.test(number) ? number.replace(/^0+(?=\d)/, '') : null,
    late: search.get('late') === '1',
    sort: (QUEUE_SORTS as readonly string[]).includes(sort ?? '') ? (sort as QueueSort) : 'newest',
  };
}

/**
 * `current` with the filters replaced by `filters` (the default sort left out), the page reset
 * and every other parameter (the section, the open order) kept.
 */
export function searchWithFilters(
  current: URLSearchParams,
  filters: Partial<QueueFilters>,
): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const name of FILTER_PARAMS) next.delete(name);
  next.delete('page');
  for (const name of FILTER_PARAMS) {
    const value = filters[name];
    if (value === null || value === undefined || value === '' || value === false) continue;
    if (name === 'sort' && value === 'newest') continue;
    next.set(name, value === true ? '1' : value);
  }
  return next;
}

/** Whether anything but the status narrows the queue (then the tabs count under it). */
export const hasOtherFilters = (filters: QueueFilters): boolean =>
  Boolean(
    filters.send ||
    filters.receive ||
    filters.from ||
    filters.to ||
    filters.email ||
    filters.number ||
    filters.late,
  );

export { containsPattern };

/** Midnight at the start of `day` in the browser's time zone, as an instant. */
export function startOfDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toISOString();
}

/** Midnight at the end of `day` (the start of the next one) in the browser's time zone. */
export function endOfDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + 1).toISOString();
}

/**
 * Late requisites: waiting for the operator, and flagged by the deadlines job or due before
 * `dueBefore` (the page's clock when the filter was read, so a late order is found even before
 * the job's next run).
 */
export const lateWhere = (dueBefore: string): Transactions_Bool_Exp => ({
  status: { _eq: 'waiting_for_operator' },
  _or: [{ requisites_late_at: { _is_null: false } }, { requisites_due_at: { _lt: dueBefore } }],
});

/**
 * The filters as a `transactions_bool_exp`; `withStatus: false` leaves the status tab out (the
 * late filter keeps its own status). `dueBefore` is the instant the late filter compares with.
 */
export function queueWhere(
  filters: QueueFilters,
  withStatus = true,
  dueBefore: string = new Date().toISOString(),
): Transactions_Bool_Exp {
  const where: Transactions_Bool_Exp = {};
  if (withStatus && filters.status) where.status = { _eq: filters.status };
  if (filters.send) where.send_currency = { _eq: filters.send };
  if (filters.receive) where.receive_currency = { _eq: filters.receive };
  if (filters.from || filters.to) {
    where.created_at = {
      ...(filters.from ? { _gte: startOfDay(filters.from) } : {}),
      ...(filters.to ? { _lt: endOfDay(filters.to) } : {}),
    };
  }
  if (filters.email) where.email = { _ilike: containsPattern(filters.email) };
  if (filters.number) where.number = { _eq: filters.number };
  if (filters.late) where._and = [lateWhere(dueBefore)];
  return where;
}

/** The sort as `order_by`: by creation (the default, newest first), number or requisites due. */
export function queueOrderBy(sort: QueueSort): Transactions_Order_By[] {
  switch (sort) {
    case 'oldest':
      return [{ created_at: 'asc' }];
    case 'number-desc':
      return [{ number: 'desc' }];
    case 'number-asc':
      return [{ number: 'asc' }];
    case 'due':
      // The promise kept longest overdue first; the number breaks ties.
      return [{ requisites_due_at: 'asc' }, { number: 'asc' }];
    default:
      return [{ created_at: 'desc' }];
  }
}

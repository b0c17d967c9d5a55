import type { StaffCustomersSupportRequestsQueryVariables } from '@app/client/graphql/generated/manager.ts';

/*
 * The support requests' filters, kept in the address (`?handled=no&from=2026-11-01&to=…&page=2`)
 * so a filtered page can be reloaded, shared and paged: which requests (all, not handled,
 * handled) and the days they arrived on, in the reader's time zone, both ends included.
 */

export type HandledFilter = 'all' | 'no' | 'yes';

export interface SupportFilters {
  handled: HandledFilter;
  /** `YYYY-MM-DD`, or '' for no bound. */
  from: string;
  to: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day as `YYYY-MM-DD`, else false. */
export function isDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
}

/** The filters in the address; anything unrecognised is no filter. */
export function filtersFromSearch(search: URLSearchParams): SupportFilters {
  const handled = search.get('handled');
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  return {
    handled: handled === 'no' || handled === 'yes' ? handled : 'all',
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
  };
}

/** The address for `filters`, from the first page. */
export function searchOfFilters(filters: SupportFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.handled !== 'all') search.set('handled', filters.handled);
  if (filters.from) search.set('from', filters.from);
  if (filters.to) search.set('to', filters.to);
  return search;
}

/** Local midnight of `day` (plus `days`), as the instant the engine compares. */
function startOfDay(day: string, days = 0): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date + days).toISOString();
}

type Where = StaffCustomersSupportRequestsQueryVariables['where'];

/** The `support_requests_bool_exp` of the filters: `created_at` from one midnight to another. */
export function supportWhere(filters: SupportFilters): Where {
  const where: Where = {};
  if (filters.handled !== 'all') where.handled = { _eq: filters.handled === 'yes' };
  const created: NonNullable<Where['created_at']> = {};
  if (filters.from) created._gte = startOfDay(filters.from);
  if (filters.to) created._lt = startOfDay(filters.to, 1);
  if (filters.from || filters.to) where.created_at = created;
  return where;
}

/**
 * What a request's "Order ID" names: an order number (`1042`, `#1042`) or an order's id. Anything
 * else is shown as typed, without a link.
 */
export function orderReference(
  orderId: string | null | undefined,
): { number: string } | { id: string } | undefined {
  const value = (orderId ?? '').trim();
  const number = /^#?\s*([1-9]\d{0,17})$/.exec(value)?.[1];
  if (number) return { number };
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
    return { id: value.toLowerCase() };
  return undefined;
}

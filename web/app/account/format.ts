import { trimZeros } from '@app/shared/exchange';

/*
 * Formatting for the account pages. Amounts stay decimal strings (the engine sends `numeric` as
 * strings); nothing here turns one into a float.
 */

/** Rows per page of the transactions history. */
export const PAGE_SIZE = 20;

/** `?page=N` → a page number from 1; anything else is the first page. */
export function pageFromSearch(search: URLSearchParams): number {
  const raw = search.get('page') ?? '';
  if (!/^[1-9]\d{0,5}$/.test(raw)) return 1;
  return Number(raw);
}

/** How many pages `total` rows fill (at least one, so "page 1 of 1" when empty). */
export const pageCount = (total: number, size = PAGE_SIZE): number =>
  Math.max(1, Math.ceil(total / size));

/** A date and time in the page's language (the mini-app's receipt uses the same). */
export { formatDateTime } from '@app/client/exchange/receipt-view.ts';

/** An amount as people read it: `12.500000` → `12.5`; a missing one is `0`. */
export const formatAmount = (amount: string | null | undefined): string =>
  amount === null || amount === undefined || amount === '' ? '0' : trimZeros(amount);

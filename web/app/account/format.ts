import { trimZeros } from '@app/shared/exchange';
import { formatDecimal, type Locale } from '@app/shared/i18n';

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

/** A date and time in the page's language, one style everywhere (issue 23). */
export { formatDateTime } from '@app/shared/i18n';

/** An amount as the page's language writes it: `1234.500000` → `1,234.5` / `1 234,5`. */
export const formatAmount = (amount: string | null | undefined, locale: Locale): string =>
  formatDecimal(amount, locale);

/** An amount for an input to edit: `12.500000` → `12.5` (no grouping); a missing one is `0`. */
export const plainAmount = (amount: string | null | undefined): string =>
  amount === null || amount === undefined || amount === '' ? '0' : trimZeros(amount);

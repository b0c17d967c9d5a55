import type { CurrencyOption } from './types.ts';

/*
 * The currency picker's search and list window, as pure functions: the picker memoises the
 * index per option list and the matches per query, and renders only the rows in view, so it
 * stays fast with hundreds of currencies (`npm run bench:picker`, currency-search.test.ts).
 */

interface IndexedCurrency {
  option: CurrencyOption;
  /** Code and ticker, lowercased: what an exact or a prefix match is judged on. */
  code: string;
  symbol: string;
  /** Code, ticker, name and network, lowercased: every word typed must occur in it. */
  text: string;
}

export type CurrencyIndex = readonly IndexedCurrency[];

/** Lowercased search text for every option, built once per option list. */
export function indexCurrencies(options: readonly CurrencyOption[]): CurrencyIndex {
  return options.map((option) => ({
    option,
    code: option.code.toLowerCase(),
    symbol: option.symbol.toLowerCase(),
    text: `${option.code} ${option.symbol} ${option.name} ${option.network ?? ''}`.toLowerCase(),
  }));
}

/** How well an entry answers a one-word query: 0 exact code or ticker, 1 prefix of one, 2 other. */
function rank(entry: IndexedCurrency, word: string): number {
  if (entry.code === word || entry.symbol === word) return 0;
  if (entry.code.startsWith(word) || entry.symbol.startsWith(word)) return 1;
  return 2;
}

/**
 * The options whose code, ticker, name or network contain every word of `query` (any case),
 * in list order, except that an exact code or ticker comes first and a prefix of one next
 * (`usdt` lists the USDT networks before USDC…). An empty query is every option.
 */
export function searchCurrencies(index: CurrencyIndex, query: string): CurrencyOption[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return index.map((entry) => entry.option);
  const found = index.filter((entry) => words.every((word) => entry.text.includes(word)));
  if (words.length === 1) {
    const word = words[0]!;
    const buckets: CurrencyOption[][] = [[], [], []];
    for (const entry of found) buckets[rank(entry, word)]!.push(entry.option);
    return buckets.flat();
  }
  return found.map((entry) => entry.option);
}

/** Rows rendered above and below the ones in view, so a fast scroll shows no gap. */
export const OVERSCAN_ROWS = 4;

/** The rows to render, `start` (inclusive) to `end` (exclusive), of `total` rows in a scroller. */
export function visibleRows(
  total: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  overscan = OVERSCAN_ROWS,
): { start: number; end: number } {
  if (total === 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const inView = Math.ceil(Math.max(viewportHeight, rowHeight) / rowHeight) + 1;
  const start = Math.min(Math.max(0, first - overscan), Math.max(0, total - 1));
  const end = Math.min(total, first + inView + overscan);
  return { start, end: Math.max(end, start + 1) };
}

/** The scroll position that brings row `row` into view, moving as little as possible. */
export function scrollToReveal(
  row: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
): number {
  const top = row * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}

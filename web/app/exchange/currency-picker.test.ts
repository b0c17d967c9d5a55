import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import {
  indexCurrencies,
  OVERSCAN_ROWS,
  scrollToReveal,
  searchCurrencies,
  visibleRows,
} from '@app/shared/exchange';

import { CurrencyListbox } from './currency-picker.tsx';
import { manyCurrencies } from './many-currencies.fixture.ts';

const CURRENCIES = manyCurrencies(600);
const INDEX = indexCurrencies(CURRENCIES);
const ROW = 40;
const VIEWPORT = 288;
/** What a 288 px list of 40 px rows renders at most: 9 rows in view, plus the overscan. */
const MAX_ROWS = Math.ceil(VIEWPORT / ROW) + 1 + 2 * OVERSCAN_ROWS;

const codes = (query: string) => searchCurrencies(INDEX, query).map((option) => option.code);

/** The listbox as the picker renders it, scrolled to `scrollTop`. */
function renderList(query: string, scrollTop: number, active = 0) {
  const matches = searchCurrencies(INDEX, query);
  const rows = visibleRows(matches.length, scrollTop, VIEWPORT, ROW);
  const html = renderToStaticMarkup(
    createElement(CurrencyListbox, {
      id: 'list',
      optionId: (code: string) => `option-${code}`,
      label: 'To',
      matches,
      rows,
      rowHeight: ROW,
      value: 'BTC',
      active,
      onChoose: () => {},
    }),
  );
  return { html, rows, options: html.match(/role="option"/g)?.length ?? 0 };
}

describe('currency search over 600 currencies', () => {
  it('finds a currency by code, ticker, name or network, any case, word by word', () => {
    expect(codes('xmr')[0]).toBe('XMR');
    expect(codes('Monero')).toEqual(['XMR']);
    expect(codes('tether trc20')).toEqual(['USDTTRC20']);
    expect(codes('usd coin')).toEqual(['USDCERC20']);
    expect(codes('T042SOL')).toEqual(['T042SOL']);
    expect(codes('nova token 7 polygon')).toContain('T007POLYGON');
    expect(codes('no such currency')).toEqual([]);
  });

  it('puts an exact code or ticker first, then prefixes, then the rest in list order', () => {
    expect(codes('usdt').slice(0, 3)).toEqual(['USDTTRC20', 'USDTERC20', 'USDTBEP20']);
    // `eth` is ETH's code; the ERC20 tokens only contain it ("tether", "ethereum").
    expect(codes('eth')[0]).toBe('ETH');
    const t00 = codes('t00');
    expect(t00.slice(0, 2)).toEqual(['T000ERC20', 'T000BEP20']);
  });

  it('gives every currency for an empty query', () => {
    expect(codes('')).toHaveLength(600);
    expect(codes('   ')).toHaveLength(600);
  });
});

describe('the windowed list', () => {
  it(`renders at most ${MAX_ROWS} of 600 rows, wherever it is scrolled`, () => {
    for (const scrollTop of [0, 1_000, 12_345, 599 * ROW, 10 ** 6]) {
      const { options, rows } = renderList('', scrollTop);
      expect(options).toBeGreaterThan(0);
      expect(options).toBeLessThanOrEqual(MAX_ROWS);
      expect(options).toBe(rows.end - rows.start);
    }
  });

  it('keeps the full height and the position of every row for scrolling and screen readers', () => {
    const { html, rows } = renderList('', 10_000);
    expect(rows.start).toBe(10_000 / ROW - OVERSCAN_ROWS);
    // Spacers as tall as the rows out of view, hidden from screen readers.
    const spacers = [...html.matchAll(/<li aria-hidden="true" style="height:(\d+)px"><\/li>/g)];
    expect(spacers.map((spacer) => Number(spacer[1]))).toEqual([
      rows.start * ROW,
      (600 - rows.end) * ROW,
    ]);
    expect(html).toContain('aria-setsize="600"');
    expect(html).toContain(`aria-posinset="${rows.start + 1}"`);
  });

  it('shows a search result and marks the choice and the active row', () => {
    const { html, options } = renderList('monero', 0);
    expect(options).toBe(1);
    expect(html).toContain('id="option-XMR"');
    expect(html).toContain('Monero');
    expect(renderList('bitcoin', 0).html).toMatch(
      /aria-selected="true"[^>]*picker__option--active/,
    );
  });

  it('reaches the last of 600 rows', () => {
    const bottom = scrollToReveal(599, 0, VIEWPORT, ROW);
    expect(bottom).toBe(600 * ROW - VIEWPORT);
    const { html, rows } = renderList('', bottom, 599);
    expect(rows.end).toBe(600);
    expect(html).toContain(`id="option-${CURRENCIES[599]!.code}"`);
  });

  it('scrolls as little as it can to reveal a row', () => {
    expect(scrollToReveal(3, 0, VIEWPORT, ROW)).toBe(0);
    expect(scrollToReveal(7, 0, VIEWPORT, ROW)).toBe(8 * ROW - VIEWPORT);
    expect(scrollToReveal(2, 400, VIEWPORT, ROW)).toBe(80);
  });

  it('renders nothing for no rows', () => {
    expect(visibleRows(0, 0, VIEWPORT, ROW)).toEqual({ start: 0, end: 0 });
  });
});

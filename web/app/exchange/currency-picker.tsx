import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
  type UIEvent,
} from 'react';
import { useTranslation } from 'react-i18next';

import {
  type CurrencyOption,
  indexCurrencies,
  scrollToReveal,
  searchCurrencies,
  visibleRows,
} from '@app/shared/exchange';
import { CurrencyIcon } from '@app/client/ui/currency-icon.tsx';
import { ChevronDownIcon } from '#app/components/icons.ts';

/*
 * Rendering stays cheap with hundreds of currencies: the list is windowed. Every row has the
 * same height, the list renders only the rows in view (plus a few), and two spacers stand in for
 * the rest, so the scrollbar, the keyboard and `aria-setsize` still cover every match.
 */

/** A row's height and the list's, in px, until measured (2.5rem rows, an 18rem list). */
const DEFAULT_ROW_HEIGHT = 40;
const DEFAULT_VIEWPORT = 288;

// Layout effects only where there is a layout (React warns about them on the server).
const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

interface CurrencyPickerProps {
  label: string;
  value: string;
  options: CurrencyOption[];
  onChange: (code: string) => void;
}

const describe = (currency: CurrencyOption) =>
  currency.network && currency.network !== currency.symbol
    ? `${currency.symbol} · ${currency.network}`
    : currency.symbol;

/** What the button shows: the ticker, and the network when it differs. */
const visibleText = (currency: CurrencyOption) =>
  currency.network && currency.network !== currency.symbol
    ? `${currency.symbol} ${currency.network}`
    : currency.symbol;

interface CurrencyListboxProps {
  id: string;
  /** The id of the option of `code` (for aria-activedescendant). */
  optionId: (code: string) => string;
  label: string;
  /** Every match; only `rows` of them are rendered. */
  matches: readonly CurrencyOption[];
  rows: { start: number; end: number };
  rowHeight: number;
  value: string;
  active: number;
  onChoose: (code: string) => void;
  listRef?: Ref<HTMLUListElement>;
  onScroll?: (event: UIEvent<HTMLUListElement>) => void;
}

/** Stands in for the rows out of view (hidden from assistive technology, not an option). */
const Spacer = ({ height }: { height: number }) =>
  height > 0 ? <li aria-hidden="true" style={{ height }} /> : null;

/**
 * The listbox, which is also the scroller (so it stays the combobox's popup): the rendered rows
 * of the matches between two spacers as tall as the rows out of view.
 */
export function CurrencyListbox({
  id,
  optionId,
  label,
  matches,
  rows,
  rowHeight,
  value,
  active,
  onChoose,
  listRef,
  onScroll,
}: CurrencyListboxProps) {
  return (
    <ul
      ref={listRef}
      id={id}
      role="listbox"
      aria-label={label}
      className="picker__list"
      onScroll={onScroll}
    >
      <Spacer height={rows.start * rowHeight} />
      {matches.slice(rows.start, rows.end).map((option, offset) => {
        const position = rows.start + offset;
        return (
          <li
            key={option.code}
            id={optionId(option.code)}
            role="option"
            aria-selected={option.code === value}
            aria-setsize={matches.length}
            aria-posinset={position + 1}
            className={
              position === active ? 'picker__option picker__option--active' : 'picker__option'
            }
            onPointerDown={(event) => event.preventDefault()}
            onClick={() => onChoose(option.code)}
          >
            <span className="picker__code">
              <CurrencyIcon currency={option} size={22} />
              {describe(option)}
            </span>
            <span className="picker__name">{option.name}</span>
          </li>
        );
      })}
      <Spacer height={(matches.length - rows.end) * rowHeight} />
    </ul>
  );
}

/**
 * A searchable currency list (the ARIA combobox pattern): a button shows the choice; opening it
 * gives a search field over a listbox, filtered by code, ticker, name or network. Arrow keys
 * and Page Up/Down move through the matches, Enter chooses, Escape closes.
 */
export function CurrencyPicker({ label, value, options, onChange }: CurrencyPickerProps) {
  const { t } = useTranslation('home');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [size, setSize] = useState({ row: DEFAULT_ROW_HEIGHT, viewport: DEFAULT_VIEWPORT });
  const searchRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const index = useMemo(() => indexCurrencies(options), [options]);
  const matches = useMemo(() => searchCurrencies(index, query), [index, query]);
  const selected = useMemo(() => options.find((option) => option.code === value), [options, value]);
  const current = Math.min(active, matches.length - 1);
  const rows = visibleRows(matches.length, scrollTop, size.viewport, size.row);
  const optionId = (code: string) => `${id}-${code}`;
  const activeOption = current >= rows.start && current < rows.end ? matches[current] : undefined;

  useEffect(() => {
    if (!open) return;
    searchRef.current?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  // The real row and list heights (they follow the font size), and the list where it was left.
  const hasRows = matches.length > 0;
  useBrowserLayoutEffect(() => {
    const list = listRef.current;
    if (!open || !list) return;
    const row = list.querySelector('[role="option"]')?.getBoundingClientRect().height;
    const viewport = list.clientHeight;
    setSize((previous) =>
      row && viewport && (row !== previous.row || viewport !== previous.viewport)
        ? { row, viewport }
        : previous,
    );
    list.scrollTop = scrollTop;
    // Only on opening and when the list appears: scrolling itself keeps scrollTop current.
  }, [open, hasRows]);

  const scrollTo = (top: number) => {
    if (listRef.current) listRef.current.scrollTop = top;
    setScrollTop(top);
  };

  /** Makes row `row` the active one, scrolled into view. */
  const moveTo = (row: number) => {
    if (matches.length === 0) return;
    const next = Math.max(0, Math.min(row, matches.length - 1));
    setActive(next);
    scrollTo(scrollToReveal(next, scrollTop, size.viewport, size.row));
  };

  const openList = () => {
    // The whole list, the current choice active and in view.
    const at = Math.max(
      0,
      index.findIndex((entry) => entry.option.code === value),
    );
    setQuery('');
    setActive(at);
    setScrollTop(scrollToReveal(at, 0, size.viewport, size.row));
    setOpen(true);
  };

  const choose = (code: string) => {
    onChange(code);
    setOpen(false);
    setQuery('');
    buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const page = Math.max(1, Math.floor(size.viewport / size.row) - 1);
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      moveTo(current + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      moveTo(current - 1);
    } else if (event.key === 'PageDown') {
      event.preventDefault();
      moveTo(current + page);
    } else if (event.key === 'PageUp') {
      event.preventDefault();
      moveTo(current - page);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = matches[current];
      if (option) choose(option.code);
    } else if (event.key === 'Escape') {
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  const listId = `${id}-list`;
  return (
    <div className="picker" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="picker__button"
        aria-haspopup="listbox"
        aria-expanded={open}
        // The visible ticker (and network) lead the name, as WCAG's label-in-name asks.
        aria-label={`${label}: ${selected ? `${visibleText(selected)} (${selected.name})` : value}`}
        onClick={() => (open ? setOpen(false) : openList())}
      >
        {selected ? <CurrencyIcon currency={selected} size={22} /> : null}
        <span className="picker__code">{selected ? selected.symbol : value}</span>
        {selected?.network && selected.network !== selected.symbol ? (
          <>
            {' '}
            <span className="picker__network">{selected.network}</span>
          </>
        ) : null}
        <ChevronDownIcon aria-hidden="true" size={16} />
      </button>
      {open ? (
        <div className="picker__popover">
          <input
            ref={searchRef}
            type="search"
            className="picker__search"
            role="combobox"
            aria-label={t('widget.search')}
            aria-controls={listId}
            aria-expanded={hasRows}
            aria-autocomplete="list"
            aria-activedescendant={activeOption ? optionId(activeOption.code) : undefined}
            placeholder={t('widget.search')}
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
              scrollTo(0);
            }}
            onKeyDown={onKeyDown}
          />
          {hasRows ? (
            <CurrencyListbox
              id={listId}
              optionId={optionId}
              label={label}
              matches={matches}
              rows={rows}
              rowHeight={size.row}
              value={value}
              active={current}
              onChoose={choose}
              listRef={listRef}
              onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
            />
          ) : (
            <p className="picker__empty" role="status">
              {t('widget.noResults')}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}

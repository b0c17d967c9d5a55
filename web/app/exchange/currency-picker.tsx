import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { CurrencyOption } from './types.ts';

/** Rendering stays cheap with hundreds of currencies: only this many matches are in the DOM. */
const MAX_VISIBLE = 60;

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

/**
 * A searchable currency list (the ARIA combobox pattern): a button shows the choice; opening it
 * gives a search field over a listbox, filtered by code, ticker, name or network.
 */
export function CurrencyPicker({ label, value, options, onChange }: CurrencyPickerProps) {
  const { t } = useTranslation('home');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  const index = useMemo(
    () =>
      options.map((option) => ({
        option,
        text: `${option.code} ${option.symbol} ${option.name} ${option.network ?? ''}`.toLowerCase(),
      })),
    [options],
  );
  const matches = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = words.length
      ? index.filter((entry) => words.every((word) => entry.text.includes(word)))
      : index;
    return found.slice(0, MAX_VISIBLE).map((entry) => entry.option);
  }, [index, query]);
  const selected = options.find((option) => option.code === value);

  useEffect(() => {
    if (!open) return;
    searchRef.current?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const choose = (code: string) => {
    onChange(code);
    setOpen(false);
    setQuery('');
    buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((current) => Math.min(current + 1, matches.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current) => Math.max(current - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = matches[active];
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
        onClick={() => setOpen((current) => !current)}
      >
        <span className="picker__code">{selected ? selected.symbol : value}</span>
        {selected?.network && selected.network !== selected.symbol ? (
          <>
            {' '}
            <span className="picker__network">{selected.network}</span>
          </>
        ) : null}
        <span aria-hidden="true">▾</span>
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
            aria-expanded="true"
            aria-autocomplete="list"
            aria-activedescendant={matches[active] ? `${id}-${matches[active].code}` : undefined}
            placeholder={t('widget.search')}
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          <ul id={listId} role="listbox" aria-label={label} className="picker__list">
            {matches.length === 0 ? (
              <li className="picker__empty">{t('widget.noResults')}</li>
            ) : (
              matches.map((option, position) => (
                <li
                  key={option.code}
                  id={`${id}-${option.code}`}
                  role="option"
                  aria-selected={option.code === value}
                  className={
                    position === active ? 'picker__option picker__option--active' : 'picker__option'
                  }
                  onPointerDown={(event) => event.preventDefault()}
                  onClick={() => choose(option.code)}
                >
                  <span className="picker__code">{describe(option)}</span>
                  <span className="picker__name">{option.name}</span>
                </li>
              ))
            )}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

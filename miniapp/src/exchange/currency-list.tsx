import { Cell, Input, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  currencyLabel,
  type CurrencyOption,
  indexCurrencies,
  searchCurrencies,
} from '@app/shared/exchange';
import { CurrencyIcon } from '@app/client/ui/currency-icon.tsx';

/**
 * A currency picker as a screen of its own (Telegram's back button closes it): a search field
 * (code, ticker, name or network, as on the web) over the list. Rows off screen skip layout
 * (`content-visibility`), so hundreds of currencies stay smooth.
 */
export function CurrencyList(props: {
  title: string;
  options: readonly CurrencyOption[];
  selected: string;
  onSelect: (code: string) => void;
}) {
  const { t } = useTranslation('home');
  const [query, setQuery] = useState('');
  const index = useMemo(() => indexCurrencies(props.options), [props.options]);
  const found = useMemo(() => searchCurrencies(index, query), [index, query]);
  return (
    <List>
      <h1 className="screen-title">{props.title}</h1>
      <Input
        type="search"
        aria-label={t('widget.search')}
        placeholder={t('widget.search')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        autoFocus
      />
      {found.length === 0 ? (
        <Placeholder description={t('widget.noResults')} />
      ) : (
        <Section>
          <ul className="currency-list" aria-label={props.title}>
            {found.map((option) => (
              <li key={option.code} className="currency-list__row">
                <Cell
                  Component="button"
                  className="cell-button"
                  type="button"
                  aria-pressed={option.code === props.selected}
                  description={option.name}
                  before={<CurrencyIcon currency={option} size={32} />}
                  after={option.code === props.selected ? <span aria-hidden="true">✓</span> : null}
                  onClick={() => props.onSelect(option.code)}
                >
                  {currencyLabel(option.code, option)}
                </Cell>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </List>
  );
}

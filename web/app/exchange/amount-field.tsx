import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { type CurrencyOption, trimZeros } from '@app/shared/exchange';

interface AmountFieldProps {
  id: string;
  /** The control's name: which side it is (`send`, `receive`). */
  name: 'send' | 'receive';
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The currency the limits hint speaks of (none: no hint). */
  currency: CurrencyOption | undefined;
  /** What sits beside the input: a currency picker, or the fixed currency's name. */
  adornment: ReactNode;
  invalid?: boolean;
  /** Further ids describing the field (e.g. the live quote status). */
  describedBy?: string;
}

/**
 * One side of an exchange (You Send / You Get): a decimal input kept as typed text, the
 * currency beside it and the currency's minimum and maximum below.
 */
export function AmountField(props: AmountFieldProps) {
  const { t } = useTranslation('home');
  const { id, currency } = props;
  const hintId = `${id}-hint`;
  return (
    <div className="widget__row">
      <label className="widget__label" htmlFor={id}>
        {props.label}
      </label>
      <div className="widget__field">
        <input
          id={id}
          name={props.name}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          value={props.value}
          aria-invalid={props.invalid ?? false}
          aria-describedby={[hintId, props.describedBy].filter(Boolean).join(' ')}
          onChange={(event) => props.onChange(event.target.value)}
        />
        {props.adornment}
      </div>
      <p id={hintId} className="field__hint">
        {currency
          ? `${t('widget.min', { amount: trimZeros(currency.minAmount), currency: currency.symbol })} · ${t('widget.max', { amount: trimZeros(currency.maxAmount), currency: currency.symbol })}`
          : null}
      </p>
    </div>
  );
}

import type { ReactNode } from 'react';

interface AmountFieldProps {
  id: string;
  /** The control's name: which side it is (`send`, `receive`). */
  name: 'send' | 'receive';
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What sits beside the input: a currency picker, or the fixed currency's name. */
  adornment: ReactNode;
  invalid?: boolean;
  /** Further ids describing the field (e.g. the live quote status). */
  describedBy?: string;
}

/**
 * One side of an exchange (You Send / You Get): a decimal input kept as typed text and the
 * currency beside it. The limits are not the field's: each currency's own min/max said one
 * thing and the quote refused another (issue 23), so the form shows one line, the tighter limits
 * of the side being typed (LimitsLine, decision 046).
 */
export function AmountField(props: AmountFieldProps) {
  const { id } = props;
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
          aria-describedby={props.describedBy}
          onChange={(event) => props.onChange(event.target.value)}
        />
        {props.adornment}
      </div>
    </div>
  );
}

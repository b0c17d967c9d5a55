import { CurrencyIcon } from '@app/client/ui/currency-icon.tsx';
import { currencyLabel } from '@app/shared/exchange';

interface CurrencyInfo {
  symbol: string;
  network: string | null;
  kind?: string | null;
}

/** A currency's icon, then its text: `100 USDT (TRC20)` (the history, the order, the console). */
export function CurrencyText({
  code,
  info,
  text,
  size = 20,
}: {
  code: string;
  info: CurrencyInfo | null | undefined;
  /** What follows the icon; the currency's label by default. */
  text?: string;
  size?: number;
}) {
  return (
    <span className="currency-text">
      <CurrencyIcon currency={info ?? { symbol: code }} size={size} />
      {text ?? currencyLabel(code, info)}
    </span>
  );
}

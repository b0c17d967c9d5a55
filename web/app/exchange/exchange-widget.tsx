import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { useQuote } from '@app/client/exchange/use-quote.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import {
  type ExchangeCatalog,
  formatRate,
  isValidAmount,
  normalizeAmount,
  type QuoteSide,
  startingPair,
  trimZeros,
} from '@app/shared/exchange';

import { SwapIcon } from '#app/components/icons.ts';
import { pairSlug } from '#app/content/pairs.ts';
import { earlyText, useEarlyInput } from '#app/components/forms/use-early-input.ts';
import { useLocalePath } from '#app/i18n/locale.ts';

import { AmountField } from './amount-field.tsx';
import { CurrencyPicker } from './currency-picker.tsx';

interface ExchangeWidgetProps {
  catalog: ExchangeCatalog;
  /** A preset pair (product pages link with `?from=&to=`). */
  initialFrom?: string | null;
  initialTo?: string | null;
}

/**
 * The home page's exchange widget: You Send / You Get with searchable currency pickers, a live
 * quote (debounced, from the `quote` action), min/max hints, a swap button, and Exchange, which
 * opens the order form for the pair with the amount.
 */
export function ExchangeWidget({ catalog, initialFrom, initialTo }: ExchangeWidgetProps) {
  const { t } = useTranslation('home');
  const to_ = useLocalePath();
  const navigate = useNavigate();
  const start = useMemo(
    () => startingPair(catalog, initialFrom, initialTo),
    [catalog, initialFrom, initialTo],
  );
  const [from, setFrom] = useState(start.from);
  const [to, setTo] = useState(start.to);
  const [side, setSide] = useState<QuoteSide>('send');
  const [typed, setTyped] = useState('');

  const byCode = useMemo(
    () => new Map(catalog.currencies.map((currency) => [currency.code, currency])),
    [catalog],
  );
  const sourceOptions = useMemo(
    () => catalog.currencies.filter((currency) => catalog.directions[currency.code]?.length),
    [catalog],
  );
  const targetOptions = useMemo(() => {
    const targets = new Set(catalog.directions[from] ?? []);
    return catalog.currencies.filter((currency) => targets.has(currency.code));
  }, [catalog, from]);

  const typedCurrency = byCode.get(side === 'send' ? from : to);
  const amount = normalizeAmount(typed);
  const valid = typedCurrency !== undefined && isValidAmount(amount, typedCurrency.precision);
  const quote = useQuote({ from, to, side, amount: valid ? amount : null });

  const chooseFrom = (code: string) => {
    setFrom(code);
    const targets = catalog.directions[code] ?? [];
    if (!targets.includes(to)) setTo(targets[0] ?? '');
  };
  const canSwap = (catalog.directions[to] ?? []).includes(from);
  const swap = () => {
    if (!canSwap) return;
    setFrom(to);
    setTo(from);
    setSide((current) => (current === 'send' ? 'receive' : 'send'));
  };

  const ready = quote.status === 'ready' ? quote.quote : null;
  const sendShown = side === 'send' ? typed : ready ? trimZeros(ready.sendAmount) : '';
  const receiveShown = side === 'receive' ? typed : ready ? trimZeros(ready.receiveAmount) : '';
  const errorCode =
    typed !== '' && !valid ? 'invalid' : quote.status === 'error' ? quote.code : null;
  const errorText = errorCode
    ? t([keyFromData(`widget.errors.${errorCode}`), 'common:notify.somethingWentWrong'])
    : null;

  const onType = (which: QuoteSide, value: string) => {
    setSide(which);
    setTyped(value);
  };

  // An amount typed before hydration is quoted; an Exchange pressed then goes on (decision 047).
  const formRef = useEarlyInput((typed) => {
    const text = earlyText(typed);
    if (text['send'] !== undefined) onType('send', text['send']);
    else if (text['receive'] !== undefined) onType('receive', text['receive']);
  });

  const submit = () => {
    if (!ready) return;
    const params = new URLSearchParams({ side, amount });
    void navigate(`${to_(`/create-transaction/${pairSlug(from, to)}`)}?${params.toString()}`);
  };

  const fromCurrency = byCode.get(from);
  const toCurrency = byCode.get(to);
  return (
    <form
      ref={formRef}
      id="exchange"
      className="widget card"
      aria-labelledby="widget-title"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2 id="widget-title" className="widget__title">
        {t('widget.title')}
      </h2>

      <AmountField
        id="widget-send"
        name="send"
        label={t('widget.youSend')}
        value={sendShown}
        onChange={(value) => onType('send', value)}
        currency={fromCurrency}
        invalid={side === 'send' && errorCode !== null}
        describedBy="widget-status"
        adornment={
          <CurrencyPicker
            label={t('widget.from')}
            value={from}
            options={sourceOptions}
            onChange={chooseFrom}
          />
        }
      />

      <button
        type="button"
        className="widget__swap"
        onClick={swap}
        disabled={!canSwap}
        aria-label={t('widget.swap')}
        title={t('widget.swap')}
      >
        <SwapIcon aria-hidden="true" size={20} />
      </button>

      <AmountField
        id="widget-receive"
        name="receive"
        label={t('widget.youGet')}
        value={receiveShown}
        onChange={(value) => onType('receive', value)}
        currency={toCurrency}
        invalid={side === 'receive' && errorCode !== null}
        describedBy="widget-status"
        adornment={
          <CurrencyPicker
            label={t('widget.to')}
            value={to}
            options={targetOptions}
            onChange={setTo}
          />
        }
      />

      <p id="widget-status" className="widget__status" role="status" aria-live="polite">
        {errorText ? (
          <span className="field__error">{errorText}</span>
        ) : quote.status === 'loading' ? (
          t('widget.quoting')
        ) : ready && fromCurrency && toCurrency ? (
          <>
            {t('widget.rate', {
              from: fromCurrency.symbol,
              to: toCurrency.symbol,
              // The action's rate is exact (up to 18 decimals); people read 8 digits.
              rate: formatRate(ready.rate),
            })}
            {ready.processing.mode === 'next-window' && ready.processing.at ? (
              <>
                {' '}
                {t('widget.nextWindow', { time: new Date(ready.processing.at).toLocaleString() })}
              </>
            ) : null}
          </>
        ) : null}
      </p>

      <button type="submit" className="button button--primary button--block" disabled={!ready}>
        {t('widget.exchange')}
      </button>
    </form>
  );
}

import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { refusedLimit } from '@app/client/exchange/quote-refusal.ts';
import { useQuote } from '@app/client/exchange/use-quote.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import {
  type ExchangeCatalog,
  formatRateIn,
  isValidAmount,
  normalizeAmount,
  type QuoteSide,
  startingPair,
  trimZeros,
} from '@app/shared/exchange';
import { formatDateTime, formatDecimal } from '@app/shared/i18n';

import { useSession, withAccessToken } from '#app/auth/session.ts';
import { SwapIcon } from '#app/components/icons.ts';
import { pairSlug } from '#app/content/pairs.ts';
import { earlyText, useEarlyInput } from '#app/components/forms/use-early-input.ts';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';

import { AmountField } from './amount-field.tsx';
import { CurrencyPicker } from './currency-picker.tsx';
import { formLimits, LimitsLine, PairRateText, usePortalPairRate } from './pair-rate.tsx';

interface ExchangeWidgetProps {
  catalog: ExchangeCatalog;
  /** A preset pair (product pages link with `?from=&to=`). */
  initialFrom?: string | null;
  initialTo?: string | null;
}

/**
 * The home page's exchange widget: You Send / You Get with searchable currency pickers, a live
 * quote (debounced, from the `quote` action), the pair's rate before typing and ONE limits line
 * (the tighter of both currencies, for the side being typed: `pairRate`, decision 046), a swap
 * button, and Exchange, which opens the order form for the pair with the amount.
 */
export function ExchangeWidget({ catalog, initialFrom, initialTo }: ExchangeWidgetProps) {
  const { t } = useTranslation('home');
  const to_ = useLocalePath();
  const locale = useLocale();
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
  // Signed in, the quote and the rate carry the person's level and custom rates.
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const quote = useQuote({
    from,
    to,
    side,
    amount: valid ? amount : null,
    withAccessToken: isLoggedIn ? withAccessToken : null,
  });
  const pairRate = usePortalPairRate(from, to);

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
  // Above the maximum or below the minimum, the message names the limit the line shows.
  const refused = valid ? refusedLimit(quote) : null;
  const errorText = errorCode
    ? refused
      ? t(refused.key, {
          amount: formatDecimal(refused.limit, locale),
          currency: byCode.get(refused.currency)?.symbol ?? refused.currency,
        })
      : t([keyFromData(`widget.errors.${errorCode}`), 'common:notify.somethingWentWrong'])
    : null;
  // The accepted amounts of the side being typed: the latest quote's, else the pair's rate's.
  const limits = formLimits(ready?.limits, pairRate, from, to, side);

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
        invalid={side === 'send' && errorCode !== null}
        describedBy="widget-status widget-limits"
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
        invalid={side === 'receive' && errorCode !== null}
        describedBy="widget-status widget-limits"
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
        ) : (
          <>
            {pairRate.status === 'ready' ? (
              // Before and after typing: the public rate, and the person's own when better.
              <PairRateText state={pairRate} from={fromCurrency} to={toCurrency} />
            ) : ready && fromCurrency && toCurrency ? (
              t('widget.rate', {
                from: fromCurrency.symbol,
                to: toCurrency.symbol,
                // The action's rate is exact (up to 18 decimals); people read 8 digits.
                rate: formatRateIn(ready.rate, locale),
              })
            ) : null}
            {ready?.processing.mode === 'next-window' && ready.processing.at ? (
              <> {t('widget.nextWindow', { time: formatDateTime(ready.processing.at, locale) })}</>
            ) : null}
          </>
        )}
      </p>
      <LimitsLine id="widget-limits" limits={limits} currency={typedCurrency?.symbol} />

      <button type="submit" className="button button--primary button--block" disabled={!ready}>
        {t('widget.exchange')}
      </button>
    </form>
  );
}

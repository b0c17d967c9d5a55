import { Cell, IconButton, Input, List, Section } from '@telegram-apps/telegram-ui';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';

import {
  currencyLabel,
  type CurrencyOption,
  type ExchangeCatalog,
  formatRateIn,
  isValidAmount,
  normalizeAmount,
  type QuoteSide,
  startingPair,
  trimZeros,
} from '@app/shared/exchange';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { type PairRateState, usePairRate } from '@app/client/exchange/use-pair-rate.ts';
import { refusedLimit } from '@app/client/exchange/quote-refusal.ts';
import { useQuote, type QuoteState } from '@app/client/exchange/use-quote.ts';
import { CurrencyIcon } from '@app/client/ui/currency-icon.tsx';
import { formatDateTime, formatDecimal, formatFixed, type Locale } from '@app/shared/i18n';

import { SectionHeading } from '../components/section-heading.tsx';
import { CenteredSpinner } from '../components/shell.tsx';
import { LoadFailed } from '../components/states.tsx';
import { useMainButton } from '../components/use-main-button.ts';
import { useCatalog } from '../exchange/catalog.ts';
import { CurrencyList } from '../exchange/currency-list.tsx';
import { SETTINGS_PATH } from '../paths.ts';
import { useSession } from '../session.ts';
import { haptic } from '../telegram/sdk.ts';

// The order form (its validation and texts) is the second step: a chunk of its own.
const OrderForm = lazy(() => import('../exchange/order-form.tsx'));

/**
 * The exchange (spec section 2): what the person sends and gets, with currency pickers and a
 * live quote; then their details, the notices and both agreements; then the order. Every step
 * is in the address (`?from=&to=&side=&amount=&step=`), so Telegram's back button walks back
 * through them and History's Repeat links straight in.
 */
export function ExchangeScreen() {
  const { state, retry } = useCatalog();
  if (state.status === 'loading') return <CenteredSpinner />;
  if (state.status === 'error') return <LoadFailed onRetry={retry} />;
  return <Exchange catalog={state.catalog} />;
}

type Step = 'amounts' | 'pick-from' | 'pick-to' | 'details';

function stepOf(value: string | null): Step {
  return value === 'pick-from' || value === 'pick-to' || value === 'details' ? value : 'amounts';
}

function Exchange({ catalog }: { catalog: ExchangeCatalog }) {
  const { t } = useTranslation('home');
  const [params, setParams] = useSearchParams();
  const token = useSession((session) => session.accessToken);

  const { from, to } = startingPair(catalog, params.get('from'), params.get('to'));
  const side: QuoteSide = params.get('side') === 'receive' ? 'receive' : 'send';
  const typed = params.get('amount') ?? '';
  const step = stepOf(params.get('step'));

  const byCode = useMemo(
    () => new Map(catalog.currencies.map((currency) => [currency.code, currency])),
    [catalog],
  );
  const fromCurrency = byCode.get(from);
  const toCurrency = byCode.get(to);
  const typedCurrency = side === 'send' ? fromCurrency : toCurrency;
  const amount = normalizeAmount(typed);
  const amountValid = typedCurrency !== undefined && isValidAmount(amount, typedCurrency.precision);
  // Signed in, the quote carries the person's level and custom rates.
  const quote = useQuote({ from, to, side, amount: amountValid ? amount : null, token });
  const ready = quote.status === 'ready' ? quote.quote : null;
  // The rate and the tighter limits before typing (issue 23), at the person's own level.
  const pairRate = usePairRate({ from, to, token });

  /** Changes the address in place (typing, choosing), or as a new step (back returns). */
  const update = (changes: Record<string, string | null>, push = false) => {
    const next = new URLSearchParams(params);
    next.set('from', from);
    next.set('to', to);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: !push });
  };

  const choose = (which: 'from' | 'to', code: string) => {
    haptic.selection();
    const changes: Record<string, string | null> = { [which]: code, step: null };
    if (which === 'from' && !(catalog.directions[code] ?? []).includes(to)) {
      changes['to'] = catalog.directions[code]?.[0] ?? null;
    }
    // Choosing closes the list: its history entry becomes the amounts with the new currency.
    update(changes);
  };

  const canSwap = (catalog.directions[to] ?? []).includes(from);
  const swap = () => {
    haptic.selection();
    update({ from: to, to: from, side: side === 'send' ? 'receive' : 'send' });
  };

  useMainButton(
    step === 'amounts'
      ? { text: t('miniapp:exchange.continue'), enabled: ready !== null, loading: false }
      : null,
    () => {
      if (ready) update({ step: 'details' }, true);
    },
  );

  if (!fromCurrency || !toCurrency)
    return <LoadFailed onRetry={() => update({ from: null, to: null })} />;

  if (step === 'pick-from' || step === 'pick-to') {
    const options =
      step === 'pick-from'
        ? catalog.currencies.filter((currency) => catalog.directions[currency.code]?.length)
        : catalog.currencies.filter((currency) =>
            (catalog.directions[from] ?? []).includes(currency.code),
          );
    return (
      <CurrencyList
        title={t('miniapp:exchange.pick')}
        options={options}
        selected={step === 'pick-from' ? from : to}
        onSelect={(code) => choose(step === 'pick-from' ? 'from' : 'to', code)}
      />
    );
  }

  if (step === 'details' && ready) {
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <OrderForm from={fromCurrency} to={toCurrency} side={side} amount={amount} quote={ready} />
      </Suspense>
    );
  }

  const shown = (which: QuoteSide) =>
    side === which
      ? typed
      : ready
        ? trimZeros(which === 'send' ? ready.sendAmount : ready.receiveAmount)
        : '';

  return (
    <List>
      <h1 className="screen-title">{t('miniapp:title')}</h1>
      <Section header={<SectionHeading>{t('widget.youSend')}</SectionHeading>}>
        <AmountInput
          id="send-amount"
          label={t('widget.youSend')}
          currency={fromCurrency}
          value={shown('send')}
          onChange={(value) => update({ side: 'send', amount: value })}
        />
        <CurrencyCell
          currency={fromCurrency}
          label={t('widget.from')}
          onClick={() => update({ step: 'pick-from' }, true)}
        />
      </Section>
      <div className="swap-row">
        <IconButton
          mode="bezeled"
          size="s"
          aria-label={t('widget.swap')}
          disabled={!canSwap}
          onClick={swap}
        >
          <span aria-hidden="true">⇅</span>
        </IconButton>
      </div>
      <Section
        header={<SectionHeading>{t('widget.youGet')}</SectionHeading>}
        footer={
          <Section.Footer>
            <QuoteStatus
              quote={quote}
              pairRate={pairRate}
              side={side}
              typedInvalid={typed !== '' && !amountValid}
              from={fromCurrency}
              to={toCurrency}
            />
          </Section.Footer>
        }
      >
        <AmountInput
          id="receive-amount"
          label={t('widget.youGet')}
          currency={toCurrency}
          value={shown('receive')}
          onChange={(value) => update({ side: 'receive', amount: value })}
        />
        <CurrencyCell
          currency={toCurrency}
          label={t('widget.to')}
          onClick={() => update({ step: 'pick-to' }, true)}
        />
      </Section>
      <Section>
        <Link href="/transactions-history" className="cell-link">
          <Cell Component="span" after={<span aria-hidden="true">›</span>}>
            {t('miniapp:nav.history')}
          </Cell>
        </Link>
        <Link href={SETTINGS_PATH} className="cell-link">
          <Cell Component="span" after={<span aria-hidden="true">›</span>}>
            {t('miniapp:settings.title')}
          </Cell>
        </Link>
      </Section>
    </List>
  );
}

function AmountInput(props: {
  id: string;
  label: string;
  currency: CurrencyOption;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Input
      id={props.id}
      aria-label={`${props.label}, ${currencyLabel(props.currency.code, props.currency)}`}
      inputMode="decimal"
      autoComplete="off"
      placeholder="0"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value.slice(0, 40))}
      after={<span className="input-currency">{props.currency.symbol}</span>}
    />
  );
}

function CurrencyCell(props: { currency: CurrencyOption; label: string; onClick: () => void }) {
  return (
    <Cell
      Component="button"
      className="cell-button"
      type="button"
      subhead={props.label}
      description={props.currency.name}
      before={<CurrencyIcon currency={props.currency} size={32} />}
      after={<span aria-hidden="true">›</span>}
      onClick={props.onClick}
    >
      {currencyLabel(props.currency.code, props.currency)}
    </Cell>
  );
}

/** The rate, the limits and what is wrong with the amount, as the web widget words them. */
function QuoteStatus(props: {
  quote: QuoteState;
  pairRate: PairRateState;
  side: QuoteSide;
  typedInvalid: boolean;
  from: CurrencyOption;
  to: CurrencyOption;
}) {
  const { t, i18n } = useTranslation('home');
  const locale = i18n.language as Locale;
  const { quote } = props;
  let text: string | null = null;
  let error = false;
  if (props.typedInvalid) {
    text = t('widget.errors.invalid');
    error = true;
  } else if (quote.status === 'loading') {
    text = t('widget.quoting');
  } else if (quote.status === 'error') {
    const refused = refusedLimit(quote);
    const symbol = (code: string) =>
      code === props.from.code
        ? props.from.symbol
        : code === props.to.code
          ? props.to.symbol
          : code;
    text = refused
      ? t(refused.key, {
          amount: formatDecimal(refused.limit, locale),
          currency: symbol(refused.currency),
        })
      : t([keyFromData(`widget.errors.${quote.code}`), 'common:notify.somethingWentWrong']);
    error = true;
  } else if (
    quote.status === 'idle' &&
    props.pairRate.status === 'ready' &&
    props.pairRate.rate.from === props.from.code &&
    props.pairRate.rate.to === props.to.code
  ) {
    // Before typing: the public rate, the person's own when better, and the typed side's limits.
    const { rate } = props.pairRate;
    const pair = { from: props.from.symbol, to: props.to.symbol };
    const limits = rate.limits[props.side];
    const symbol = props.side === 'send' ? props.from.symbol : props.to.symbol;
    const number = (value: string) => formatDecimal(value, locale);
    const parts: string[] = [
      t('widget.rate', { ...pair, rate: formatRateIn(rate.publicRate, locale) }),
    ];
    if (rate.betterByPercent !== null) {
      parts.push(
        `${t('widget.yourRate', { ...pair, rate: formatRateIn(rate.rate, locale) })}, ${t('widget.betterBy', { percent: formatFixed(rate.betterByPercent, locale) })}`,
      );
    }
    parts.push(
      `${t('widget.min', { amount: number(limits.min), currency: symbol })} · ${t('widget.max', { amount: number(limits.max), currency: symbol })}`,
    );
    text = parts.join('\n');
  } else if (quote.status === 'ready') {
    const { rate, limits, processing } = quote.quote;
    const parts = [
      t('widget.rate', {
        from: props.from.symbol,
        to: props.to.symbol,
        rate: formatRateIn(rate, locale),
      }),
      `${t('widget.min', { amount: formatDecimal(limits.min, locale), currency: limits.currency })} · ${t('widget.max', { amount: formatDecimal(limits.max, locale), currency: limits.currency })}`,
    ];
    if (processing.mode === 'next-window' && processing.at) {
      parts.push(
        t('widget.nextWindow', {
          time: formatDateTime(processing.at, locale),
        }),
      );
    }
    text = parts.join('\n');
  }
  return (
    <p
      className={error ? 'quote-status quote-status--error' : 'quote-status'}
      role="status"
      aria-live="polite"
    >
      {text}
    </p>
  );
}

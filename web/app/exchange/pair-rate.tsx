import { useTranslation } from 'react-i18next';

import {
  type PairRateState,
  type SideLimits,
  usePairRate,
} from '@app/client/exchange/use-pair-rate.ts';
import { type CurrencyOption, formatRateIn } from '@app/shared/exchange';
import { formatDecimal, formatFixed } from '@app/shared/i18n';

import { useSession, withAccessToken } from '#app/auth/session.ts';
import { useLocale } from '#app/i18n/locale.ts';

/**
 * The pair's live rate before typing (issue 23, decision 046), asked with the signed-in
 * person's token once the session is known to be theirs, so they see their own price.
 */
export function usePortalPairRate(from: string, to: string): PairRateState {
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  return usePairRate({ from, to, withAccessToken: isLoggedIn ? withAccessToken : null });
}

interface PairRateTextProps {
  state: PairRateState;
  from: Pick<CurrencyOption, 'code' | 'symbol'> | undefined;
  to: Pick<CurrencyOption, 'code' | 'symbol'> | undefined;
}

/**
 * "1 BTC ≈ 93240.291 USDT" at the public rate and, when the person's own rate is better,
 * "Your rate: 1 BTC ≈ 95120.53 USDT, you get 2.0% more" beside it. Rates keep 8 significant
 * digits (formatRate). Nothing while the first answer loads or when there is none.
 */
export function PairRateText({ state, from, to }: PairRateTextProps) {
  const { t } = useTranslation('home');
  const locale = useLocale();
  if (state.status !== 'ready' || !from || !to) return null;
  const { rate } = state;
  // An answer for the previous pair may still be shown for a moment; never label it wrongly.
  if (rate.from !== from.code || rate.to !== to.code) return null;
  const pair = { from: from.symbol, to: to.symbol };
  return (
    <span className="pair-rate" data-pair-rate={`${rate.from}-${rate.to}`}>
      <span className="pair-rate__public">
        {t('widget.rate', { ...pair, rate: formatRateIn(rate.publicRate, locale) })}
      </span>
      {rate.betterByPercent !== null ? (
        <>
          {' · '}
          <strong className="pair-rate__own">
            {t('widget.yourRate', { ...pair, rate: formatRateIn(rate.rate, locale) })}
            {', '}
            {t('widget.betterBy', { percent: formatFixed(rate.betterByPercent, locale) })}
          </strong>
        </>
      ) : null}
    </span>
  );
}

/** The limits of the side being typed, from the pair's rate (the tighter of both currencies). */
export function sideLimits(
  state: PairRateState,
  from: string,
  to: string,
  side: SideLimits['side'],
): SideLimits | null {
  if (state.status !== 'ready' || state.rate.from !== from || state.rate.to !== to) return null;
  return state.rate.limits[side];
}

/**
 * A form's limits line: the latest quote's limits when they are of the side being typed (the
 * same figures, kept while the next quote loads or is refused), else the pair's rate's.
 */
export function formLimits(
  quoted: Pick<SideLimits, 'side' | 'min' | 'max'> | null | undefined,
  state: PairRateState,
  from: string,
  to: string,
  side: SideLimits['side'],
): Pick<SideLimits, 'min' | 'max'> | null {
  return quoted?.side === side ? quoted : sideLimits(state, from, to, side);
}

interface LimitsLineProps {
  id?: string;
  limits: Pick<SideLimits, 'min' | 'max'> | null;
  /** How the limits' currency is written (its symbol, or the order form's label). */
  currency: string | undefined;
  className?: string;
}

/** The one "Min: … · Max: …" line of a form, in the currency being typed. */
export function LimitsLine({ id, limits, currency, className }: LimitsLineProps) {
  const { t } = useTranslation('home');
  const locale = useLocale();
  return (
    <p id={id} className={className ?? 'field__hint'} data-limits="">
      {limits && currency
        ? `${t('widget.min', { amount: formatDecimal(limits.min, locale), currency })} · ${t('widget.max', { amount: formatDecimal(limits.max, locale), currency })}`
        : null}
    </p>
  );
}

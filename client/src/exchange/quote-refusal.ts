import type { QuoteState } from './use-quote.ts';

/**
 * The limit a refused quote names (issue 23): `amount-above-max` and `amount-below-min` carry
 * the accepted limit and its currency code, so the message says the same figure as the form's
 * limits line ("The most you can exchange is 1.07249772 BTC."). Null for any other state.
 */
export function refusedLimit(
  quote: QuoteState,
): { key: 'widget.maxIs' | 'widget.minIs'; limit: string; currency: string } | null {
  if (quote.status !== 'error') return null;
  const key =
    quote.code === 'amount-above-max'
      ? 'widget.maxIs'
      : quote.code === 'amount-below-min'
        ? 'widget.minIs'
        : null;
  const limit = quote.details?.['limit'];
  const currency = quote.details?.['currency'];
  if (!key || typeof limit !== 'string' || typeof currency !== 'string') return null;
  return { key, limit, currency };
}
